# Empty dependencies file for test_dem_contact_list.
# This may be replaced when dependencies are built.
