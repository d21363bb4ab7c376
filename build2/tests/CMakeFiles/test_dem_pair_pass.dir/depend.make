# Empty dependencies file for test_dem_pair_pass.
# This may be replaced when dependencies are built.
