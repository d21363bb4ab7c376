# Empty dependencies file for test_parallel_dem.
# This may be replaced when dependencies are built.
