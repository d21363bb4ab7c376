# Empty dependencies file for test_shape_fields.
# This may be replaced when dependencies are built.
