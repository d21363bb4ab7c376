file(REMOVE_RECURSE
  "CMakeFiles/test_cd6.dir/test_cd6.c.o"
  "CMakeFiles/test_cd6.dir/test_cd6.c.o.d"
  "test_cd6"
  "test_cd6.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_cd6.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
