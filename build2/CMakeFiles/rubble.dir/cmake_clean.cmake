file(REMOVE_RECURSE
  "CMakeFiles/rubble.dir/cli/cli_util.c.o"
  "CMakeFiles/rubble.dir/cli/cli_util.c.o.d"
  "CMakeFiles/rubble.dir/cli/cmd_bench.c.o"
  "CMakeFiles/rubble.dir/cli/cmd_bench.c.o.d"
  "CMakeFiles/rubble.dir/cli/cmd_bench_gravity.c.o"
  "CMakeFiles/rubble.dir/cli/cmd_bench_gravity.c.o.d"
  "CMakeFiles/rubble.dir/cli/cmd_calibrate.c.o"
  "CMakeFiles/rubble.dir/cli/cmd_calibrate.c.o.d"
  "CMakeFiles/rubble.dir/cli/cmd_clump.c.o"
  "CMakeFiles/rubble.dir/cli/cmd_clump.c.o.d"
  "CMakeFiles/rubble.dir/cli/cmd_contacts.c.o"
  "CMakeFiles/rubble.dir/cli/cmd_contacts.c.o.d"
  "CMakeFiles/rubble.dir/cli/cmd_generate.c.o"
  "CMakeFiles/rubble.dir/cli/cmd_generate.c.o.d"
  "CMakeFiles/rubble.dir/cli/cmd_run.c.o"
  "CMakeFiles/rubble.dir/cli/cmd_run.c.o.d"
  "CMakeFiles/rubble.dir/cli/main.c.o"
  "CMakeFiles/rubble.dir/cli/main.c.o.d"
  "rubble"
  "rubble.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/rubble.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
