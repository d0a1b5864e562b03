# Writes the default sandbox_settings.yaml into a C++ source as a raw string.
file(READ ${INPUT} content)
file(WRITE ${OUTPUT} "// Generated from config/sandbox_settings.yaml; do not edit.\n"
  "namespace sbx::cli { extern const char *const kEmbeddedSettings;\n"
  "const char *const kEmbeddedSettings = R\"sbx_yaml(${content})sbx_yaml\"; }\n")
