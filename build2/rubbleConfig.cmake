# find_package(rubble): rubble::rubble (the shared library) and rubble::rubble_static (the
# static one, which brings its own dependencies: OpenMP, libyaml, and MPI with Zoltan when it
# was built with them).

####### Expanded from @PACKAGE_INIT@ by configure_package_config_file() #######
####### Any changes to this file will be overwritten by the next CMake run ####
####### The input file was rubbleConfig.cmake.in                            ########

get_filename_component(PACKAGE_PREFIX_DIR "${CMAKE_CURRENT_LIST_DIR}/../../../" ABSOLUTE)

macro(set_and_check _var _file)
  set(${_var} "${_file}")
  if(NOT EXISTS "${_file}")
    message(FATAL_ERROR "File or directory ${_file} referenced by variable ${_var} does not exist !")
  endif()
endmacro()

macro(check_required_components _NAME)
  foreach(comp ${${_NAME}_FIND_COMPONENTS})
    if(NOT ${_NAME}_${comp}_FOUND)
      if(${_NAME}_FIND_REQUIRED_${comp})
        set(${_NAME}_FOUND FALSE)
      endif()
    endif()
  endforeach()
endmacro()

####################################################################################
include(CMakeFindDependencyMacro)
find_dependency(OpenMP COMPONENTS C)
if(ON)
  find_dependency(MPI COMPONENTS C)
endif()
include("${CMAKE_CURRENT_LIST_DIR}/rubbleTargets.cmake")
check_required_components(rubble)
