# Empty dependencies file for test_fdo_dynamics.
# This may be replaced when dependencies are built.
