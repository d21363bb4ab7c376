# Empty dependencies file for test_dem_rolling_energy.
# This may be replaced when dependencies are built.
