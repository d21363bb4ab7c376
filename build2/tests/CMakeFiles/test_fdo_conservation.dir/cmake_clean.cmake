file(REMOVE_RECURSE
  "CMakeFiles/test_fdo_conservation.dir/test_fdo_conservation.c.o"
  "CMakeFiles/test_fdo_conservation.dir/test_fdo_conservation.c.o.d"
  "test_fdo_conservation"
  "test_fdo_conservation.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_fdo_conservation.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
