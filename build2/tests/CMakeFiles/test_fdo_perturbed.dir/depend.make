# Empty dependencies file for test_fdo_perturbed.
# This may be replaced when dependencies are built.
