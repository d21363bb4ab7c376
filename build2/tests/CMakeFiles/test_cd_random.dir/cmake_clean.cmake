file(REMOVE_RECURSE
  "CMakeFiles/test_cd_random.dir/test_cd_random.c.o"
  "CMakeFiles/test_cd_random.dir/test_cd_random.c.o.d"
  "test_cd_random"
  "test_cd_random.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_cd_random.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
