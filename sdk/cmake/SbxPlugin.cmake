# sbx_add_plugin(<id> KIND <kind> SOURCES <files...>)
# Builds one plugin .so exactly as a third-party author would: only the SDK headers, one
# exported symbol (a version script hides everything else), no undefined symbols, and that
# symbol defined: a source without SBX_PLUGIN(...) is a link error, not a .so the host refuses.
# Output: ${SBX_PLUGIN_OUTPUT_DIR}/<kind>/<id>.so (SBX_PLUGIN_OUTPUT_DIR defaults to
# ${CMAKE_BINARY_DIR}/plugins). When SBX_PLUGIN_INSTALL_DIR is set, `cmake --install`
# also puts it in ${SBX_PLUGIN_INSTALL_DIR}/<kind>/ (component `plugins`).
# This file is used from a checkout (sdk/cmake/) and installed by find_package
# (<prefix>/share/cmake/SandboxRunnerSDK/); the headers are found from either place.
# Cached so the function works from any directory of the including project.
set(SBX_PLUGIN_VERSION_SCRIPT ${CMAKE_CURRENT_LIST_DIR}/sbx_plugin.map CACHE INTERNAL "")
if(EXISTS ${CMAKE_CURRENT_LIST_DIR}/../include/sbx/plugin.h)
  get_filename_component(_sbx_sdk_include ${CMAKE_CURRENT_LIST_DIR}/../include ABSOLUTE)
else()
  get_filename_component(_sbx_sdk_include ${CMAKE_CURRENT_LIST_DIR}/../../../include ABSOLUTE)
endif()
set(SBX_SDK_INCLUDE_DIR ${_sbx_sdk_include} CACHE INTERNAL "")
# The entry symbol the loader looks up, read from the header that names it.
file(STRINGS ${_sbx_sdk_include}/sbx/plugin.h _sbx_entry_line REGEX "^#define SBX_ENTRY_SYMBOL ")
string(REGEX REPLACE "^#define SBX_ENTRY_SYMBOL ([A-Za-z_0-9]+).*" "\\1" _sbx_entry_symbol
       "${_sbx_entry_line}")
set(SBX_PLUGIN_ENTRY_SYMBOL ${_sbx_entry_symbol} CACHE INTERNAL "")

function(sbx_add_plugin id)
  cmake_parse_arguments(PLUGIN "" "KIND;TARGET" "SOURCES" ${ARGN})
  if(NOT PLUGIN_KIND OR NOT PLUGIN_SOURCES)
    message(FATAL_ERROR "sbx_add_plugin(${id}) needs KIND and SOURCES")
  endif()
  if(NOT SBX_PLUGIN_OUTPUT_DIR)
    set(SBX_PLUGIN_OUTPUT_DIR ${CMAKE_BINARY_DIR}/plugins)
  endif()
  if(NOT PLUGIN_TARGET)
    set(PLUGIN_TARGET sbx_plugin_${id})
  endif()
  add_library(${PLUGIN_TARGET} MODULE ${PLUGIN_SOURCES})
  target_include_directories(${PLUGIN_TARGET} PRIVATE ${SBX_SDK_INCLUDE_DIR})
  set_target_properties(${PLUGIN_TARGET} PROPERTIES
    PREFIX "" OUTPUT_NAME ${id}
    LIBRARY_OUTPUT_DIRECTORY ${SBX_PLUGIN_OUTPUT_DIR}/${PLUGIN_KIND}
    C_VISIBILITY_PRESET hidden CXX_VISIBILITY_PRESET hidden VISIBILITY_INLINES_HIDDEN ON)
  target_link_options(${PLUGIN_TARGET} PRIVATE
    -Wl,--version-script=${SBX_PLUGIN_VERSION_SCRIPT} -Wl,-z,defs
    -Wl,--require-defined=${SBX_PLUGIN_ENTRY_SYMBOL})
  if(SBX_PLUGIN_INSTALL_DIR)
    install(TARGETS ${PLUGIN_TARGET} LIBRARY DESTINATION ${SBX_PLUGIN_INSTALL_DIR}/${PLUGIN_KIND}
            COMPONENT plugins)
    # In sandbox-runner's own tree: the install check (cmake/InstallCheck.cmake) learns of it.
    if(COMMAND sbx_install_expects)
      sbx_install_expects(COMPONENT plugins TARGETS ${PLUGIN_TARGET})
    endif()
  endif()
  set(SBX_LAST_PLUGIN_TARGET ${PLUGIN_TARGET} PARENT_SCOPE)
endfunction()
