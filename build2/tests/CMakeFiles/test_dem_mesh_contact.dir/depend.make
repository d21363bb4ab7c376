# Empty dependencies file for test_dem_mesh_contact.
# This may be replaced when dependencies are built.
