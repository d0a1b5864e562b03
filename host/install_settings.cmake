# Install-time script: writes <prefix>/share/sandbox-runner/sandbox_settings.yaml from the
# embedded default, pointing its demo workflow at the installed demo target. Inputs:
# SBX_SETTINGS_SOURCE, SBX_SETTINGS_DESTINATION (relative to the prefix).
file(READ "${SBX_SETTINGS_SOURCE}" settings)
string(REPLACE "build/bin/sbx-demo-kv" "${CMAKE_INSTALL_PREFIX}/lib/sandbox-runner/sbx-demo-kv"
       settings "${settings}")
# Installed plugins are found beside the binary; a build tree's folder means nothing here.
string(REGEX REPLACE "plugin_dirs: \\[build/plugins\\] *" "plugin_dirs: []                  "
       settings "${settings}")
string(REGEX REPLACE "^# sandbox-runner default settings\\.[^\n]*\n#[^\n]*\n"
       "# sandbox-runner default settings, installed: the host in ${CMAKE_INSTALL_PREFIX}/bin
# reads this file when neither --config nor SANDBOX_SETTINGS_YAML names another.\n"
       settings "${settings}")
set(target "$ENV{DESTDIR}${CMAKE_INSTALL_PREFIX}/${SBX_SETTINGS_DESTINATION}/sandbox_settings.yaml")
message(STATUS "Installing: ${target}")
file(WRITE "${target}" "${settings}")
