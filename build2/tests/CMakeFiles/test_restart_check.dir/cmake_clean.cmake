file(REMOVE_RECURSE
  "CMakeFiles/test_restart_check.dir/test_restart_check.c.o"
  "CMakeFiles/test_restart_check.dir/test_restart_check.c.o.d"
  "test_restart_check"
  "test_restart_check.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_restart_check.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
