# Empty dependencies file for test_brent_maximum.
# This may be replaced when dependencies are built.
