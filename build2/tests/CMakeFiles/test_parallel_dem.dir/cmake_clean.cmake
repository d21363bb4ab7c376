file(REMOVE_RECURSE
  "CMakeFiles/test_parallel_dem.dir/test_parallel_dem.c.o"
  "CMakeFiles/test_parallel_dem.dir/test_parallel_dem.c.o.d"
  "test_parallel_dem"
  "test_parallel_dem.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_parallel_dem.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
