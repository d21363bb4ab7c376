file(REMOVE_RECURSE
  "CMakeFiles/test_run_object.dir/test_run_object.c.o"
  "CMakeFiles/test_run_object.dir/test_run_object.c.o.d"
  "test_run_object"
  "test_run_object.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_run_object.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
