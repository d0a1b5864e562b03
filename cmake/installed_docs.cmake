# Writes docs/*.md as they are installed (<prefix>/${DOC_DIR}/), with every relative link
# rewritten for the install layout, since an install has no checkout around it:
# `../sdk/include/sbx/plugin.h` becomes `../../../include/sbx/plugin.h`. A link to a file
# an install does not have (a plugin's README, a test) becomes text that names the file
# in the sources. tests/install/test_out_of_tree.sh checks every link of a real install.
#   cmake -DSOURCE_DIR=REPO -DOUTPUT_DIR=DIR -DDOC_DIR=share/doc/sandbox-runner -P this
# The folders below mirror the install rules (sdk/cmake/SbxSdkInstall.cmake,
# host/CMakeLists.txt, the top-level CMakeLists.txt); the first prefix that matches wins.
set(installed_as
    "docs/examples/=share/sandbox-runner-sdk/examples/"
    "docs/=${DOC_DIR}/"
    "sdk/include/=include/"
    "sdk/abi/=include/sandbox-runner-sdk/abi/"
    "sdk/schemas/=share/sandbox-runner-sdk/schemas/"
    "sdk/requests/=share/sandbox-runner-sdk/requests/"
    "sdk/cmake/sbx_plugin.map=share/cmake/SandboxRunnerSDK/sbx_plugin.map"
    "sdk/cmake/SbxPlugin.cmake=share/cmake/SandboxRunnerSDK/SbxPlugin.cmake"
    "config/sandbox_settings.yaml=share/sandbox-runner/sandbox_settings.yaml"
    "config/impact_severity.yaml=share/sandbox-runner/impact_severity.yaml")

# The installed path (relative to the prefix) of a repository path, or "" when not installed.
function(installed_path repo_path out)
  foreach(pair ${installed_as})
    string(REPLACE "=" ";" pair "${pair}")
    list(GET pair 0 from)
    list(GET pair 1 to)
    string(LENGTH "${from}" length)
    string(SUBSTRING "${repo_path}" 0 ${length} head)
    if(head STREQUAL from)
      string(SUBSTRING "${repo_path}" ${length} -1 tail)
      set(${out} "${to}${tail}" PARENT_SCOPE)
      return()
    endif()
  endforeach()
  set(${out} "" PARENT_SCOPE)
endfunction()

file(MAKE_DIRECTORY "${OUTPUT_DIR}")
file(GLOB docs "${SOURCE_DIR}/docs/*.md")
# A fake root: every path below is repository- or prefix-relative, never read from disk.
set(root /sbx-root)
foreach(doc ${docs})
  get_filename_component(name "${doc}" NAME)
  file(READ "${doc}" text)
  # A label holds no bracket, so a lone `[` in prose cannot start a match that ends at a link.
  string(REGEX MATCHALL "\\[[^][]*\\]\\([^)# ][^) ]*\\)" links "${text}")
  list(REMOVE_DUPLICATES links)
  foreach(link ${links})
    string(REGEX REPLACE "^\\[([^][]*)\\]\\(([^)]*)\\)$" "\\1" label "${link}")
    string(REGEX REPLACE "^\\[([^][]*)\\]\\(([^)]*)\\)$" "\\2" target "${link}")
    if(target MATCHES "^[a-z]+:" OR target MATCHES "^/")
      continue()  # a URL or an absolute path
    endif()
    string(REGEX MATCH "#.*$" anchor "${target}")
    string(REGEX REPLACE "#.*$" "" target_path "${target}")
    get_filename_component(repo_path "${root}/docs/${target_path}" ABSOLUTE)
    string(REPLACE "${root}/" "" repo_path "${repo_path}")
    if(target_path MATCHES "/$")
      string(APPEND repo_path "/")
    endif()
    installed_path("${repo_path}" installed)
    set(label_names_it FALSE)
    if(label MATCHES "^`(.*)`$")
      string(FIND "${repo_path}" "${CMAKE_MATCH_1}" at REVERSE)
      string(LENGTH "${repo_path}" repo_length)
      string(LENGTH "${CMAKE_MATCH_1}" code_length)
      math(EXPR tail_start "${repo_length} - ${code_length}")
      if(at GREATER_EQUAL 0 AND at EQUAL tail_start)
        set(label_names_it TRUE)
      endif()
    endif()
    if(installed)
      file(RELATIVE_PATH relative "${root}/${DOC_DIR}" "${root}/${installed}")
      if(target_path MATCHES "/$")
        string(APPEND relative "/")
      endif()
      set(replacement "[${label}](${relative}${anchor})")
    elseif(label_names_it)
      set(replacement "${label} (in the sources)")
    else()
      set(replacement "${label} (`${repo_path}` in the sources)")
    endif()
    if(NOT replacement STREQUAL link)
      string(REPLACE "${link}" "${replacement}" text "${text}")
    endif()
  endforeach()
  file(WRITE "${OUTPUT_DIR}/${name}.new" "${text}")
  # Rewritten only when changed, so a build with nothing new in docs/ is a no-op.
  file(COPY_FILE "${OUTPUT_DIR}/${name}.new" "${OUTPUT_DIR}/${name}" ONLY_IF_DIFFERENT)
  file(REMOVE "${OUTPUT_DIR}/${name}.new")
endforeach()
