# `cmake --install build [--prefix DIR]`: the CLI (bin/warpsim, with lib/warpsim/libcuda.so.1 for
# `warpsim exec`), the libraries (lib/libwarpsim_*.a) and their headers
# (include/warpsim/{isa,sim,kernels,harness}/...), with a CMake package so that another project
# can write
#   find_package(warpsim REQUIRED)
#   target_link_libraries(app PRIVATE warpsim::sim)     # or warpsim::isa, ::kernels, ::harness
# The headers include each other as "sim/gpu.h", so include/warpsim is the include directory.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(WARPSIM_INSTALL_INCLUDE ${CMAKE_INSTALL_INCLUDEDIR}/warpsim)
set(WARPSIM_INSTALL_CMAKE ${CMAKE_INSTALL_LIBDIR}/cmake/warpsim)
foreach(lib isa sim kernels harness)
  set_target_properties(warpsim_${lib} PROPERTIES EXPORT_NAME ${lib})
  target_include_directories(warpsim_${lib} INTERFACE
                             $<INSTALL_INTERFACE:${WARPSIM_INSTALL_INCLUDE}>)
endforeach()
install(TARGETS warpsim RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
# The simulator's libcuda.so.1, where an installed `warpsim exec` looks for it.
install(TARGETS warpsim_cuda LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}/warpsim)
set_source_files_properties(${CMAKE_SOURCE_DIR}/harness/cli/exec_command.cpp PROPERTIES
  COMPILE_DEFINITIONS WARPSIM_INSTALLED_DRIVER_DIR="${CMAKE_INSTALL_LIBDIR}/warpsim")
install(TARGETS warpsim_isa warpsim_sim warpsim_kernels warpsim_harness EXPORT warpsimTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
foreach(dir isa sim kernels harness)
  install(DIRECTORY ${CMAKE_SOURCE_DIR}/${dir}/ DESTINATION ${WARPSIM_INSTALL_INCLUDE}/${dir}
          FILES_MATCHING PATTERN "*.h")
endforeach()
install(FILES ${CMAKE_BINARY_DIR}/generated/harness/build_info.h
        DESTINATION ${WARPSIM_INSTALL_INCLUDE}/harness)
install(EXPORT warpsimTargets NAMESPACE warpsim:: DESTINATION ${WARPSIM_INSTALL_CMAKE})
configure_package_config_file(${CMAKE_SOURCE_DIR}/cmake/warpsimConfig.cmake.in
                              ${CMAKE_BINARY_DIR}/generated/warpsimConfig.cmake
                              INSTALL_DESTINATION ${WARPSIM_INSTALL_CMAKE})
write_basic_package_version_file(${CMAKE_BINARY_DIR}/generated/warpsimConfigVersion.cmake
                                 VERSION 0.1 COMPATIBILITY SameMajorVersion)
install(FILES ${CMAKE_BINARY_DIR}/generated/warpsimConfig.cmake
              ${CMAKE_BINARY_DIR}/generated/warpsimConfigVersion.cmake
        DESTINATION ${WARPSIM_INSTALL_CMAKE})
