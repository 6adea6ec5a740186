# What `warpsim --version` reports, found at configure time: the source's git commit and the
# CUDA toolkit's release (from `nvcc --version`). The configure step re-runs when HEAD moves
# (git's reflog of HEAD changes on every commit and checkout), so the commit stays current.
set(WARPSIM_GIT_COMMIT "unknown")
find_package(Git QUIET)
if(GIT_FOUND)
  execute_process(COMMAND ${GIT_EXECUTABLE} -C ${CMAKE_SOURCE_DIR} rev-parse --short=12 HEAD
                  OUTPUT_VARIABLE commit OUTPUT_STRIP_TRAILING_WHITESPACE
                  RESULT_VARIABLE rc ERROR_QUIET)
  if(rc EQUAL 0 AND commit)
    set(WARPSIM_GIT_COMMIT "${commit}")
    execute_process(COMMAND ${GIT_EXECUTABLE} -C ${CMAKE_SOURCE_DIR} rev-parse --git-path logs/HEAD
                    OUTPUT_VARIABLE reflog OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
    if(reflog AND NOT IS_ABSOLUTE "${reflog}")
      set(reflog "${CMAKE_SOURCE_DIR}/${reflog}")
    endif()
    if(reflog AND EXISTS "${reflog}")
      set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${reflog}")
    endif()
  endif()
endif()
set(WARPSIM_CUDA_VERSION "unknown")
execute_process(COMMAND ${NVCC_EXECUTABLE} --version OUTPUT_VARIABLE nvcc_version ERROR_QUIET)
if(nvcc_version MATCHES "release [0-9.]+, V([0-9.]+)")
  set(WARPSIM_CUDA_VERSION "${CMAKE_MATCH_1}")
endif()
message(STATUS "version: git ${WARPSIM_GIT_COMMIT}, CUDA ${WARPSIM_CUDA_VERSION}")
configure_file(${CMAKE_SOURCE_DIR}/harness/build_info.h.in
               ${CMAKE_BINARY_DIR}/generated/harness/build_info.h @ONLY)
