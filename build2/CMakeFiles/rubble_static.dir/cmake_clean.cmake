file(REMOVE_RECURSE
  "librubble.a"
  "librubble.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/rubble_static.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
