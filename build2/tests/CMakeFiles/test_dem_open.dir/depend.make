# Empty dependencies file for test_dem_open.
# This may be replaced when dependencies are built.
