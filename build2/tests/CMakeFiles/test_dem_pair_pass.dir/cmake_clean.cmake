file(REMOVE_RECURSE
  "CMakeFiles/test_dem_pair_pass.dir/test_dem_pair_pass.c.o"
  "CMakeFiles/test_dem_pair_pass.dir/test_dem_pair_pass.c.o.d"
  "test_dem_pair_pass"
  "test_dem_pair_pass.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_dem_pair_pass.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
