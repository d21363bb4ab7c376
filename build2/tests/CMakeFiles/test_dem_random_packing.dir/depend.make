# Empty dependencies file for test_dem_random_packing.
# This may be replaced when dependencies are built.
