file(REMOVE_RECURSE
  "CMakeFiles/test_parallel.dir/test_parallel.c.o"
  "CMakeFiles/test_parallel.dir/test_parallel.c.o.d"
  "test_parallel"
  "test_parallel.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_parallel.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
