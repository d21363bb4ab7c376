file(REMOVE_RECURSE
  "CMakeFiles/test_dem_restitution.dir/test_dem_restitution.c.o"
  "CMakeFiles/test_dem_restitution.dir/test_dem_restitution.c.o.d"
  "test_dem_restitution"
  "test_dem_restitution.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_dem_restitution.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
