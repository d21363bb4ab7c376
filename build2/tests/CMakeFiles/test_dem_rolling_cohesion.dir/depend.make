# Empty dependencies file for test_dem_rolling_cohesion.
# This may be replaced when dependencies are built.
