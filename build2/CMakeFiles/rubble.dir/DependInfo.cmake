
# Consider dependencies only in project.
set(CMAKE_DEPENDS_IN_PROJECT_ONLY OFF)

# The set of languages for which implicit dependencies are needed:
set(CMAKE_DEPENDS_LANGUAGES
  )

# The set of dependency files which are needed:
set(CMAKE_DEPENDS_DEPENDENCY_FILES
  "/work/wt-energy/cli/cli_util.c" "CMakeFiles/rubble.dir/cli/cli_util.c.o" "gcc" "CMakeFiles/rubble.dir/cli/cli_util.c.o.d"
  "/work/wt-energy/cli/cmd_bench.c" "CMakeFiles/rubble.dir/cli/cmd_bench.c.o" "gcc" "CMakeFiles/rubble.dir/cli/cmd_bench.c.o.d"
  "/work/wt-energy/cli/cmd_bench_gravity.c" "CMakeFiles/rubble.dir/cli/cmd_bench_gravity.c.o" "gcc" "CMakeFiles/rubble.dir/cli/cmd_bench_gravity.c.o.d"
  "/work/wt-energy/cli/cmd_calibrate.c" "CMakeFiles/rubble.dir/cli/cmd_calibrate.c.o" "gcc" "CMakeFiles/rubble.dir/cli/cmd_calibrate.c.o.d"
  "/work/wt-energy/cli/cmd_clump.c" "CMakeFiles/rubble.dir/cli/cmd_clump.c.o" "gcc" "CMakeFiles/rubble.dir/cli/cmd_clump.c.o.d"
  "/work/wt-energy/cli/cmd_contacts.c" "CMakeFiles/rubble.dir/cli/cmd_contacts.c.o" "gcc" "CMakeFiles/rubble.dir/cli/cmd_contacts.c.o.d"
  "/work/wt-energy/cli/cmd_generate.c" "CMakeFiles/rubble.dir/cli/cmd_generate.c.o" "gcc" "CMakeFiles/rubble.dir/cli/cmd_generate.c.o.d"
  "/work/wt-energy/cli/cmd_run.c" "CMakeFiles/rubble.dir/cli/cmd_run.c.o" "gcc" "CMakeFiles/rubble.dir/cli/cmd_run.c.o.d"
  "/work/wt-energy/cli/main.c" "CMakeFiles/rubble.dir/cli/main.c.o" "gcc" "CMakeFiles/rubble.dir/cli/main.c.o.d"
  )

# Targets to which this target links.
set(CMAKE_TARGET_LINKED_INFO_FILES
  "/work/wt-energy/build2/CMakeFiles/rubble_static.dir/DependInfo.cmake"
  )

# Fortran module output directory.
set(CMAKE_Fortran_TARGET_MODULE_DIR "")
