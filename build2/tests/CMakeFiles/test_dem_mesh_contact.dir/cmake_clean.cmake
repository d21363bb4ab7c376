file(REMOVE_RECURSE
  "CMakeFiles/test_dem_mesh_contact.dir/test_dem_mesh_contact.c.o"
  "CMakeFiles/test_dem_mesh_contact.dir/test_dem_mesh_contact.c.o.d"
  "test_dem_mesh_contact"
  "test_dem_mesh_contact.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_dem_mesh_contact.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
