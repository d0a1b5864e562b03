# Installs the SDK (component `sdk`) for authors outside this tree: the headers, a CMake
# package `find_package(SandboxRunnerSDK)` with the imported target SandboxRunner::sdk and
# sbx_add_plugin(), and a pkg-config file `sandbox-runner-sdk`. The SDK is headers and
# build scripts only, so everything goes under share/ and include/: one copy serves every
# architecture.
include(CMakePackageConfigHelpers)

# The package version is the plugin ABI version of these headers, read from them so that
# a minor bump in plugin.h cannot be forgotten here.
file(STRINGS ${CMAKE_CURRENT_LIST_DIR}/../include/sbx/plugin.h _sbx_abi_lines
     REGEX "^#define SBX_ABI_(MAJOR|MINOR) [0-9]+")
string(REGEX REPLACE ".*SBX_ABI_MAJOR ([0-9]+).*" "\\1" SBX_ABI_MAJOR "${_sbx_abi_lines}")
string(REGEX REPLACE ".*SBX_ABI_MINOR ([0-9]+).*" "\\1" SBX_ABI_MINOR "${_sbx_abi_lines}")
set(SBX_SDK_VERSION ${SBX_ABI_MAJOR}.${SBX_ABI_MINOR})

set(SBX_SDK_PACKAGE_DIR share/cmake/SandboxRunnerSDK)
install(DIRECTORY ${CMAKE_CURRENT_LIST_DIR}/../include/sbx DESTINATION include COMPONENT sdk)
# The JSON Schemas of plugin answers the host enforces, for authors' own tests.
install(DIRECTORY ${CMAKE_CURRENT_LIST_DIR}/../schemas DESTINATION share/sandbox-runner-sdk
        COMPONENT sdk)
# The header of every released ABI minor before the current one, frozen: a plugin built
# with -I<prefix>/include/sandbox-runner-sdk/abi/v1.0 loads in every 1.x host.
install(DIRECTORY ${CMAKE_CURRENT_LIST_DIR}/../abi/ DESTINATION include/sandbox-runner-sdk/abi
        COMPONENT sdk)
# Sample requests, one per kind and call, for `sandbox-runner plugins call PATH --request`.
install(DIRECTORY ${CMAKE_CURRENT_LIST_DIR}/../requests DESTINATION share/sandbox-runner-sdk
        COMPONENT sdk)
configure_file(${CMAKE_CURRENT_LIST_DIR}/SandboxRunnerSDKConfig.cmake.in
               ${CMAKE_BINARY_DIR}/sdk-package/SandboxRunnerSDKConfig.cmake @ONLY)
# A plugin built against ABI 1.m loads in any host of major 1 with minor >= m.
write_basic_package_version_file(
  ${CMAKE_BINARY_DIR}/sdk-package/SandboxRunnerSDKConfigVersion.cmake
  VERSION ${SBX_SDK_VERSION} COMPATIBILITY SameMajorVersion ARCH_INDEPENDENT)
install(FILES ${CMAKE_BINARY_DIR}/sdk-package/SandboxRunnerSDKConfig.cmake
              ${CMAKE_BINARY_DIR}/sdk-package/SandboxRunnerSDKConfigVersion.cmake
              ${CMAKE_CURRENT_LIST_DIR}/SbxPlugin.cmake ${CMAKE_CURRENT_LIST_DIR}/sbx_plugin.map
        DESTINATION ${SBX_SDK_PACKAGE_DIR} COMPONENT sdk)
configure_file(${CMAKE_CURRENT_LIST_DIR}/sandbox-runner-sdk.pc.in
               ${CMAKE_BINARY_DIR}/sdk-package/sandbox-runner-sdk.pc @ONLY)
install(FILES ${CMAKE_BINARY_DIR}/sdk-package/sandbox-runner-sdk.pc
        DESTINATION share/pkgconfig COMPONENT sdk)
# Written by the configure above, so always there; listed so the install check knows them.
sbx_install_expects(COMPONENT sdk FILES ${CMAKE_BINARY_DIR}/sdk-package/sandbox-runner-sdk.pc
                    ${CMAKE_BINARY_DIR}/sdk-package/SandboxRunnerSDKConfig.cmake
                    ${CMAKE_BINARY_DIR}/sdk-package/SandboxRunnerSDKConfigVersion.cmake)
