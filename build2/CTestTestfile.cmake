# CMake generated Testfile for 
# Source directory: /work/wt-energy
# Build directory: /work/wt-energy/build2
# 
# This file includes the relevant testing commands required for 
# testing this directory and lists subdirectories to be tested as well.
subdirs("python")
subdirs("tests")
