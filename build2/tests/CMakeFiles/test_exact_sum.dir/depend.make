# Empty dependencies file for test_exact_sum.
# This may be replaced when dependencies are built.
