file(REMOVE_RECURSE
  "CMakeFiles/test_dem_checkpoint.dir/test_dem_checkpoint.c.o"
  "CMakeFiles/test_dem_checkpoint.dir/test_dem_checkpoint.c.o.d"
  "test_dem_checkpoint"
  "test_dem_checkpoint.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_dem_checkpoint.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
