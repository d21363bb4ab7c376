# Empty dependencies file for test_dem_clumps.
# This may be replaced when dependencies are built.
