file(REMOVE_RECURSE
  "CMakeFiles/test_dem_random_packing.dir/test_dem_random_packing.c.o"
  "CMakeFiles/test_dem_random_packing.dir/test_dem_random_packing.c.o.d"
  "test_dem_random_packing"
  "test_dem_random_packing.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_dem_random_packing.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
