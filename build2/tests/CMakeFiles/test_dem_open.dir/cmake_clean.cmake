file(REMOVE_RECURSE
  "CMakeFiles/test_dem_open.dir/test_dem_open.c.o"
  "CMakeFiles/test_dem_open.dir/test_dem_open.c.o.d"
  "test_dem_open"
  "test_dem_open.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_dem_open.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
