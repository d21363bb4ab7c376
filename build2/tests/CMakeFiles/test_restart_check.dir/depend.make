# Empty dependencies file for test_restart_check.
# This may be replaced when dependencies are built.
