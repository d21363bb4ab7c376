# Empty dependencies file for test_dem_neighbor_sizes.
# This may be replaced when dependencies are built.
