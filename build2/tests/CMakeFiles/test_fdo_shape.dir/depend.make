# Empty dependencies file for test_fdo_shape.
# This may be replaced when dependencies are built.
