file(REMOVE_RECURSE
  "CMakeFiles/test_dem_self_gravity.dir/test_dem_self_gravity.c.o"
  "CMakeFiles/test_dem_self_gravity.dir/test_dem_self_gravity.c.o.d"
  "test_dem_self_gravity"
  "test_dem_self_gravity.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_dem_self_gravity.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
