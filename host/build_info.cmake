# Writes OUTPUT with the source tree's commit (`git describe --always --dirty`, or
# "unknown" outside a checkout), only when it changed: an unchanged file recompiles nothing.
execute_process(COMMAND git -C ${SOURCE} describe --always --dirty --abbrev=12
                OUTPUT_VARIABLE commit OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET
                RESULT_VARIABLE status)
if(NOT status EQUAL 0 OR commit STREQUAL "")
  set(commit unknown)
endif()
set(text "namespace sbx::cli {\nextern const char *const kBuildCommit;\nconst char *const kBuildCommit = \"${commit}\";\n}  // namespace sbx::cli\n")
if(EXISTS ${OUTPUT})
  file(READ ${OUTPUT} old)
  if(old STREQUAL text)
    return()
  endif()
endif()
file(WRITE ${OUTPUT} "${text}")
