# Empty dependencies file for test_fdo_contact.
# This may be replaced when dependencies are built.
