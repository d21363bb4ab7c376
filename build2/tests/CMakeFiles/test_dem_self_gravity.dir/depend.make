# Empty dependencies file for test_dem_self_gravity.
# This may be replaced when dependencies are built.
