# Empty dependencies file for test_dem_wall_motion.
# This may be replaced when dependencies are built.
