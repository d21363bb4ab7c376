file(REMOVE_RECURSE
  "CMakeFiles/test_shape_fields.dir/test_shape_fields.c.o"
  "CMakeFiles/test_shape_fields.dir/test_shape_fields.c.o.d"
  "test_shape_fields"
  "test_shape_fields.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_shape_fields.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
