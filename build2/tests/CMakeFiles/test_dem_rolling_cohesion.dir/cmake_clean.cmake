file(REMOVE_RECURSE
  "CMakeFiles/test_dem_rolling_cohesion.dir/test_dem_rolling_cohesion.c.o"
  "CMakeFiles/test_dem_rolling_cohesion.dir/test_dem_rolling_cohesion.c.o.d"
  "test_dem_rolling_cohesion"
  "test_dem_rolling_cohesion.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_dem_rolling_cohesion.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
