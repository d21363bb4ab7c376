# Empty dependencies file for test_dem_friction.
# This may be replaced when dependencies are built.
