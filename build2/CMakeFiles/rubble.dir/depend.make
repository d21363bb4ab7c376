# Empty dependencies file for rubble.
# This may be replaced when dependencies are built.
