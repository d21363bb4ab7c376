# Empty dependencies file for rubble_objects.
# This may be replaced when dependencies are built.
