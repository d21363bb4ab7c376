file(REMOVE_RECURSE
  "CMakeFiles/test_exact_sum.dir/test_exact_sum.c.o"
  "CMakeFiles/test_exact_sum.dir/test_exact_sum.c.o.d"
  "test_exact_sum"
  "test_exact_sum.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_exact_sum.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
