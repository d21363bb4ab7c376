file(REMOVE_RECURSE
  "CMakeFiles/test_clump_table.dir/test_clump_table.c.o"
  "CMakeFiles/test_clump_table.dir/test_clump_table.c.o.d"
  "test_clump_table"
  "test_clump_table.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_clump_table.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
