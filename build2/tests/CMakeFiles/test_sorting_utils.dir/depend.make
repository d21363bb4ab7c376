# Empty dependencies file for test_sorting_utils.
# This may be replaced when dependencies are built.
