# Empty dependencies file for test_demcda_io.
# This may be replaced when dependencies are built.
