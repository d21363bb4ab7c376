# Empty dependencies file for test_walls_vtp.
# This may be replaced when dependencies are built.
