file(REMOVE_RECURSE
  "CMakeFiles/test_dem_friction.dir/test_dem_friction.c.o"
  "CMakeFiles/test_dem_friction.dir/test_dem_friction.c.o.d"
  "test_dem_friction"
  "test_dem_friction.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_dem_friction.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
