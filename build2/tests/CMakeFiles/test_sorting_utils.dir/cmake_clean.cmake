file(REMOVE_RECURSE
  "CMakeFiles/test_sorting_utils.dir/test_sorting_utils.c.o"
  "CMakeFiles/test_sorting_utils.dir/test_sorting_utils.c.o.d"
  "test_sorting_utils"
  "test_sorting_utils.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_sorting_utils.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
