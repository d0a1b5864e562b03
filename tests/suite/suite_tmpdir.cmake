# cmake -DFOLDER=<suite TMPDIR> -DMODE=setup|check -P suite_tmpdir.cmake
# setup: makes FOLDER empty (a run that was interrupted may have left it full).
# check: fails naming everything the tests left in FOLDER, then removes it. The per-user
# state folders (sandbox-runner-<uid>) may stay, empty but for an executor's `state`
# records: the product keeps them, like a cache folder, and they hold nothing of a run.
# The folder itself is kept (emptied, not removed): an unprivileged run of the suite may own
# it without owning the build folder around it (tools/kernel-matrix's user leg).
if(MODE STREQUAL "setup")
  file(MAKE_DIRECTORY ${FOLDER})
  file(GLOB stale LIST_DIRECTORIES true ${FOLDER}/* ${FOLDER}/.*)
  if(stale)
    file(REMOVE_RECURSE ${stale})
  endif()
  return()
endif()
if(NOT MODE STREQUAL "check")
  message(FATAL_ERROR "MODE must be setup or check, got '${MODE}'")
endif()
file(GLOB entries LIST_DIRECTORIES true ${FOLDER}/*)
set(left)
foreach(entry ${entries})
  get_filename_component(name ${entry} NAME)
  if(IS_DIRECTORY ${entry} AND NOT IS_SYMLINK ${entry} AND name MATCHES "^sandbox-runner-[0-9]+$")
    # Its `state` folder is where an executor keeps its records when a spec names no
    # state_dir (docker's pool file): product state like the folder itself; what those
    # records point at (containers, guests) is checked by suite.machine.check_resources.
    file(GLOB inside LIST_DIRECTORIES true ${entry}/*)
    list(FILTER inside EXCLUDE REGEX "/sandbox-runner-[0-9]+/state$")
    list(APPEND left ${inside})
  else()
    list(APPEND left ${entry})
  endif()
endforeach()
file(GLOB everything LIST_DIRECTORIES true ${FOLDER}/* ${FOLDER}/.*)
if(everything)
  file(REMOVE_RECURSE ${everything})
endif()
if(left)
  list(JOIN left "\n  " named)
  message(FATAL_ERROR "the tests left these in their TMPDIR ${FOLDER}:\n  ${named}\n"
                      "find the test that made each one and make it clean up (they are "
                      "removed now)")
endif()
message(STATUS "the tests left nothing in ${FOLDER}")
