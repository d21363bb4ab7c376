file(REMOVE_RECURSE
  "CMakeFiles/test_dem_conservation.dir/test_dem_conservation.c.o"
  "CMakeFiles/test_dem_conservation.dir/test_dem_conservation.c.o.d"
  "test_dem_conservation"
  "test_dem_conservation.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_dem_conservation.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
