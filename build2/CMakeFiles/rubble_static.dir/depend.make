# Empty dependencies file for rubble_static.
# This may be replaced when dependencies are built.
