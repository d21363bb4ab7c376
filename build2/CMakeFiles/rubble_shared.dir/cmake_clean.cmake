file(REMOVE_RECURSE
  "librubble.pdb"
  "librubble.so"
  "librubble.so.0"
  "librubble.so.0.1.0"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/rubble_shared.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
