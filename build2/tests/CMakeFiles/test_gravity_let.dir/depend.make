# Empty dependencies file for test_gravity_let.
# This may be replaced when dependencies are built.
