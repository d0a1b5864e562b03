# Run first by `cmake --install` (see InstallCheck.cmake), or alone with
#   cmake -DSBX_INSTALL_EXPECTED="FILE;..." [-DSBX_INSTALL_BUILD_DIR=DIR]
#         -DCMAKE_INSTALL_PREFIX=PREFIX -P check_install_complete.cmake
# Fails, naming each missing file, when a built file the install would copy does not exist:
# the install then stops before it copies anything.
set(missing "")
foreach(file IN LISTS SBX_INSTALL_EXPECTED)
  if(NOT EXISTS "${file}")
    string(APPEND missing "\n  ${file}")
  endif()
endforeach()
if(missing)
  if(NOT SBX_INSTALL_BUILD_DIR)
    set(SBX_INSTALL_BUILD_DIR "<build dir>")
  endif()
  message(FATAL_ERROR "nothing was installed to $ENV{DESTDIR}${CMAKE_INSTALL_PREFIX}: the build "
                      "is not complete, and the install would copy these files that were not "
                      "built:${missing}\nRun `cmake --build \"${SBX_INSTALL_BUILD_DIR}\"` first "
                      "(every target, not only sandbox-runner), then install again.")
endif()
