file(REMOVE_RECURSE
  "CMakeFiles/test_fdo_contact.dir/test_fdo_contact.c.o"
  "CMakeFiles/test_fdo_contact.dir/test_fdo_contact.c.o.d"
  "test_fdo_contact"
  "test_fdo_contact.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_fdo_contact.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
