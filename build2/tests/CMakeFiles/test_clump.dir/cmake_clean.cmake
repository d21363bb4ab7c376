file(REMOVE_RECURSE
  "CMakeFiles/test_clump.dir/test_clump.c.o"
  "CMakeFiles/test_clump.dir/test_clump.c.o.d"
  "test_clump"
  "test_clump.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_clump.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
