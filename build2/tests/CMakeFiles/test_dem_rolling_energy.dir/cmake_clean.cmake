file(REMOVE_RECURSE
  "CMakeFiles/test_dem_rolling_energy.dir/test_dem_rolling_energy.c.o"
  "CMakeFiles/test_dem_rolling_energy.dir/test_dem_rolling_energy.c.o.d"
  "test_dem_rolling_energy"
  "test_dem_rolling_energy.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_dem_rolling_energy.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
