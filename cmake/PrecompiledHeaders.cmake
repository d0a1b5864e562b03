# Precompiled headers for the project's own targets of three or more C++ files: the
# third-party headers almost every translation unit includes (nlohmann/json above all,
# GoogleTest in tests, the standard library) are parsed once per target instead of once per
# file. They cost about 2 CPU-seconds per file, a third of a cold build on two cores
# (docs/testing.md, "The CI budget"). Only system and third-party headers: a project header
# here would hide a missing #include and rebuild every file of a target at each edit.
# Never for the SDK's sbx_add_plugin itself: a third-party author's build is theirs.
#
# -DSBX_PRECOMPILED_HEADERS=OFF builds without them (to check that every file includes
# what it uses, as tools/tidy's clang-tidy run does anyway).
option(SBX_PRECOMPILED_HEADERS "Precompile third-party headers per target" ON)

set(SBX_PRECOMPILED_COMMON
    <algorithm> <cstdint> <filesystem> <functional> <map> <memory> <optional> <set> <string>
    <utility> <vector> <nlohmann/json.hpp>)

# Every target below `directory` (its subdirectories too); `extra` adds headers (e.g.
# <gtest/gtest.h> under tests/).
include(${CMAKE_CURRENT_LIST_DIR}/ProjectTargets.cmake)

function(sbx_precompile_targets directory)
  cmake_parse_arguments(SBX "" "" "EXTRA" ${ARGN})
  if(NOT SBX_PRECOMPILED_HEADERS)
    return()
  endif()
  sbx_targets_with_cxx_files(${directory} 3 targets)
  foreach(target IN LISTS targets)
    # C++ only (a target may have C files too). The header's closing '>' would close the
    # generator expression: it is written $<ANGLE-R>.
    set(headers)
    foreach(header IN LISTS SBX_PRECOMPILED_COMMON SBX_EXTRA)
      string(REGEX REPLACE ">$" "$<ANGLE-R>" header "${header}")
      list(APPEND headers "$<$<COMPILE_LANGUAGE:CXX>:${header}>")
    endforeach()
    target_precompile_headers(${target} PRIVATE ${headers})
  endforeach()
endfunction()
