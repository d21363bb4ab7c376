# Empty dependencies file for test_dem_conservation.
# This may be replaced when dependencies are built.
