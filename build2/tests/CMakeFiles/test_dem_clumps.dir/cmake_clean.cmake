file(REMOVE_RECURSE
  "CMakeFiles/test_dem_clumps.dir/test_dem_clumps.c.o"
  "CMakeFiles/test_dem_clumps.dir/test_dem_clumps.c.o.d"
  "test_dem_clumps"
  "test_dem_clumps.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_dem_clumps.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
