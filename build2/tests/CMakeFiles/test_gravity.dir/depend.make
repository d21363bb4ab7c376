# Empty dependencies file for test_gravity.
# This may be replaced when dependencies are built.
