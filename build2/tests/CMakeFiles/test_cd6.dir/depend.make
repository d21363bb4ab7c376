# Empty dependencies file for test_cd6.
# This may be replaced when dependencies are built.
