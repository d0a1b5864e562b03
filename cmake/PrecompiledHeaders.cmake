# Precompiled headers for the project's own targets of three or more C++ files: the
# third-party headers almost every translation unit includes (nlohmann/json above all, the
# standard library) are parsed once per target instead of once per file; the test programs
# share one with GoogleTest in it (sbx_precompile_tests, below). They cost about 2
# CPU-seconds per file, a third of a cold build on two cores (docs/testing.md, "The CI
# budget"). Only system and third-party headers: a project header here would hide a
# missing #include and rebuild every file of a target at each edit.
# Never for the SDK's sbx_add_plugin itself: a third-party author's build is theirs.
#
# -DSBX_PRECOMPILED_HEADERS=OFF builds without them (to check that every file includes
# what it uses, as tools/tidy's clang-tidy run does anyway).
option(SBX_PRECOMPILED_HEADERS "Precompile third-party headers per target" ON)

set(SBX_PRECOMPILED_COMMON
    <algorithm> <cstdint> <filesystem> <functional> <map> <memory> <optional> <set> <string>
    <utility> <vector> <nlohmann/json.hpp>)

include(${CMAKE_CURRENT_LIST_DIR}/ProjectTargets.cmake)

# SBX_PRECOMPILED_COMMON and the headers after `out`, for C++ files only (a target may have
# C files too). A header's closing '>' would close the generator expression: it is written
# $<ANGLE-R>.
function(sbx_precompiled_header_list out)
  set(headers)
  foreach(header IN LISTS SBX_PRECOMPILED_COMMON ARGN)
    string(REGEX REPLACE ">$" "$<ANGLE-R>" header "${header}")
    list(APPEND headers "$<$<COMPILE_LANGUAGE:CXX>:${header}>")
  endforeach()
  set(${out} ${headers} PARENT_SCOPE)
endfunction()

# Every target below `directory` (its subdirectories too) with three or more C++ files.
function(sbx_precompile_targets directory)
  if(NOT SBX_PRECOMPILED_HEADERS)
    return()
  endif()
  sbx_precompiled_header_list(headers)
  sbx_targets_with_cxx_files(${directory} 3 targets)
  foreach(target IN LISTS targets)
    target_precompile_headers(${target} PRIVATE ${headers})
  endforeach()
endfunction()

# Every GoogleTest program below `directory` reuses the one precompiled header of `carrier`
# (tests/CMakeLists.txt makes it with the tests' own flags), however few files it has: most
# test programs are one file, and each parsed GoogleTest, nlohmann/json and the standard
# library on its own, about a CPU-second per program in a cold build, while its own header
# cost 5 to 8 (docs/testing.md, "The CI budget"). A test compiled with flags the header was
# not built with would silently parse everything again: -Winvalid-pch makes that an error.
function(sbx_precompile_tests directory carrier)
  if(NOT SBX_PRECOMPILED_HEADERS)
    return()
  endif()
  sbx_precompiled_header_list(headers <gtest/gtest.h>)
  target_precompile_headers(${carrier} PRIVATE ${headers})
  sbx_targets_with_cxx_files(${directory} 1 targets)
  foreach(target IN LISTS targets)
    get_target_property(libraries ${target} LINK_LIBRARIES)
    # The carrier's header is C++ only: a C file of such a program needs the source
    # property SKIP_PRECOMPILE_HEADERS (CMake says so at configure time otherwise).
    if(target STREQUAL carrier OR NOT libraries MATCHES "GTest::gtest")
      continue()
    endif()
    target_precompile_headers(${target} REUSE_FROM ${carrier})
    target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CXX>:-Winvalid-pch>)
  endforeach()
endfunction()
