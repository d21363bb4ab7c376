# Empty dependencies file for test_fdo_conservation.
# This may be replaced when dependencies are built.
