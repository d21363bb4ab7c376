# Empty dependencies file for test_clump_table.
# This may be replaced when dependencies are built.
