# Empty dependencies file for test_dem_restitution.
# This may be replaced when dependencies are built.
