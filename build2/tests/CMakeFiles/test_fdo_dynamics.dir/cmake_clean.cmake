file(REMOVE_RECURSE
  "CMakeFiles/test_fdo_dynamics.dir/test_fdo_dynamics.c.o"
  "CMakeFiles/test_fdo_dynamics.dir/test_fdo_dynamics.c.o.d"
  "test_fdo_dynamics"
  "test_fdo_dynamics.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_fdo_dynamics.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
