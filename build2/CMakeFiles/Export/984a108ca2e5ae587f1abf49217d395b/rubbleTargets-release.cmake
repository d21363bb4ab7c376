#----------------------------------------------------------------
# Generated CMake target import file for configuration "Release".
#----------------------------------------------------------------

# Commands may need to know the format version.
set(CMAKE_IMPORT_FILE_VERSION 1)

# Import target "rubble::rubble" for configuration "Release"
set_property(TARGET rubble::rubble APPEND PROPERTY IMPORTED_CONFIGURATIONS RELEASE)
set_target_properties(rubble::rubble PROPERTIES
  IMPORTED_LOCATION_RELEASE "${_IMPORT_PREFIX}/lib/librubble.so.0.1.0"
  IMPORTED_SONAME_RELEASE "librubble.so.0"
  )

list(APPEND _cmake_import_check_targets rubble::rubble )
list(APPEND _cmake_import_check_files_for_rubble::rubble "${_IMPORT_PREFIX}/lib/librubble.so.0.1.0" )

# Import target "rubble::rubble_static" for configuration "Release"
set_property(TARGET rubble::rubble_static APPEND PROPERTY IMPORTED_CONFIGURATIONS RELEASE)
set_target_properties(rubble::rubble_static PROPERTIES
  IMPORTED_LINK_INTERFACE_LANGUAGES_RELEASE "C"
  IMPORTED_LOCATION_RELEASE "${_IMPORT_PREFIX}/lib/librubble.a"
  )

list(APPEND _cmake_import_check_targets rubble::rubble_static )
list(APPEND _cmake_import_check_files_for_rubble::rubble_static "${_IMPORT_PREFIX}/lib/librubble.a" )

# Commands beyond this point should not need to know the version.
set(CMAKE_IMPORT_FILE_VERSION)
