file(REMOVE_RECURSE
  "CMakeFiles/test_walls_vtp.dir/test_walls_vtp.c.o"
  "CMakeFiles/test_walls_vtp.dir/test_walls_vtp.c.o.d"
  "test_walls_vtp"
  "test_walls_vtp.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_walls_vtp.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
