# Empty dependencies file for test_parallel.
# This may be replaced when dependencies are built.
