file(REMOVE_RECURSE
  "CMakeFiles/test_demcda_io.dir/test_demcda_io.c.o"
  "CMakeFiles/test_demcda_io.dir/test_demcda_io.c.o.d"
  "test_demcda_io"
  "test_demcda_io.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_demcda_io.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
