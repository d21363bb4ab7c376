file(REMOVE_RECURSE
  "CMakeFiles/test_gravity_let.dir/test_gravity_let.c.o"
  "CMakeFiles/test_gravity_let.dir/test_gravity_let.c.o.d"
  "test_gravity_let"
  "test_gravity_let.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_gravity_let.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
