file(REMOVE_RECURSE
  "CMakeFiles/test_fdo_shape.dir/test_fdo_shape.c.o"
  "CMakeFiles/test_fdo_shape.dir/test_fdo_shape.c.o.d"
  "test_fdo_shape"
  "test_fdo_shape.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_fdo_shape.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
