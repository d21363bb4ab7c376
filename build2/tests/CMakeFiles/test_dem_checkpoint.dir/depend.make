# Empty dependencies file for test_dem_checkpoint.
# This may be replaced when dependencies are built.
