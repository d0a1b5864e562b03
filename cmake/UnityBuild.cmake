# Unity builds for the project's own targets of three or more C++ files: CMake compiles a
# target's sources in batches, each batch one translation unit that includes its files. The
# headers every file includes (nlohmann/json, spdlog, yaml-cpp, the host's own) are parsed,
# and their templates instantiated and compiled, once per batch instead of once per file:
# eight engine files cost 6.9 CPU-seconds as one unit against 14.9 as eight (docs/testing.md,
# "The CI budget"). A cold build is most of what a fresh `tools/demo`, `tools/test` and CI
# spend.
#
# What it asks of the code: names private to a file (an anonymous namespace, `static`) are
# unique within their target, since files of a batch share one scope. A file whose private
# names repeat another's on purpose opts out with SKIP_UNITY_BUILD_INCLUSION, a target with
# the (project) property UNITY_BUILD_EXCLUDED, each saying why.
# C files are left out (the in-container programs are C and tiny).
#
# -DSBX_UNITY_BUILD=OFF builds each file on its own (as tools/tidy's clang-tidy checks it);
# SBX_UNITY_BATCH_SIZE sets the files per batch.
option(SBX_UNITY_BUILD "Compile each target's C++ files in batches (unity build)" ON)
set(SBX_UNITY_BATCH_SIZE 8 CACHE STRING "C++ files per unity batch")

include(${CMAKE_CURRENT_LIST_DIR}/ProjectTargets.cmake)

# Every target below `directory` (its subdirectories too).
function(sbx_unity_targets directory)
  if(NOT SBX_UNITY_BUILD)
    return()
  endif()
  sbx_targets_with_cxx_files(${directory} 3 targets)
  foreach(target IN LISTS targets)
    get_target_property(excluded ${target} UNITY_BUILD_EXCLUDED)
    if(excluded)
      continue()
    endif()
    get_target_property(sources ${target} SOURCES)
    list(FILTER sources INCLUDE REGEX "\\.c$")
    if(sources)
      set_source_files_properties(${sources} TARGET_DIRECTORY ${target}
                                  PROPERTIES SKIP_UNITY_BUILD_INCLUSION ON)
    endif()
    set_target_properties(${target} PROPERTIES UNITY_BUILD ON
                          UNITY_BUILD_BATCH_SIZE ${SBX_UNITY_BATCH_SIZE})
  endforeach()
endfunction()
