file(REMOVE_RECURSE
  "CMakeFiles/test_dem_neighbor_sizes.dir/test_dem_neighbor_sizes.c.o"
  "CMakeFiles/test_dem_neighbor_sizes.dir/test_dem_neighbor_sizes.c.o.d"
  "test_dem_neighbor_sizes"
  "test_dem_neighbor_sizes.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_dem_neighbor_sizes.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
