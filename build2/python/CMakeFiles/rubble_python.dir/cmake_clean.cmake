file(REMOVE_RECURSE
  "CMakeFiles/rubble_python.dir/rubble_module.c.o"
  "CMakeFiles/rubble_python.dir/rubble_module.c.o.d"
  "rubble/_rubble.pdb"
  "rubble/_rubble.so"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/rubble_python.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
