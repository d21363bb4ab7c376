# Empty dependencies file for test_cd_random.
# This may be replaced when dependencies are built.
