# Empty dependencies file for test_run_object.
# This may be replaced when dependencies are built.
