# Empty compiler generated dependencies file for rubble_shared.
# This may be replaced when dependencies are built.
