file(REMOVE_RECURSE
  "CMakeFiles/test_brent_maximum.dir/test_brent_maximum.c.o"
  "CMakeFiles/test_brent_maximum.dir/test_brent_maximum.c.o.d"
  "test_brent_maximum"
  "test_brent_maximum.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_brent_maximum.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
