file(REMOVE_RECURSE
  "CMakeFiles/test_dem_contact_list.dir/test_dem_contact_list.c.o"
  "CMakeFiles/test_dem_contact_list.dir/test_dem_contact_list.c.o.d"
  "test_dem_contact_list"
  "test_dem_contact_list.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_dem_contact_list.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
