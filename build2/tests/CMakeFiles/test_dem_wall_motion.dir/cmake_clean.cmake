file(REMOVE_RECURSE
  "CMakeFiles/test_dem_wall_motion.dir/test_dem_wall_motion.c.o"
  "CMakeFiles/test_dem_wall_motion.dir/test_dem_wall_motion.c.o.d"
  "test_dem_wall_motion"
  "test_dem_wall_motion.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_dem_wall_motion.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
