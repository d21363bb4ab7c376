file(REMOVE_RECURSE
  "CMakeFiles/test_gravity.dir/test_gravity.c.o"
  "CMakeFiles/test_gravity.dir/test_gravity.c.o.d"
  "test_gravity"
  "test_gravity.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_gravity.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
