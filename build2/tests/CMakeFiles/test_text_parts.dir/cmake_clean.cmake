file(REMOVE_RECURSE
  "CMakeFiles/test_text_parts.dir/test_text_parts.c.o"
  "CMakeFiles/test_text_parts.dir/test_text_parts.c.o.d"
  "test_text_parts"
  "test_text_parts.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_text_parts.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
