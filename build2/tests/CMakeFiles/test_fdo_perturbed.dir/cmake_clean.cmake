file(REMOVE_RECURSE
  "CMakeFiles/test_fdo_perturbed.dir/test_fdo_perturbed.c.o"
  "CMakeFiles/test_fdo_perturbed.dir/test_fdo_perturbed.c.o.d"
  "test_fdo_perturbed"
  "test_fdo_perturbed.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_fdo_perturbed.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
