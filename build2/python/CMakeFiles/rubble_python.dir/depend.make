# Empty dependencies file for rubble_python.
# This may be replaced when dependencies are built.
