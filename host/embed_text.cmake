# Writes a text file into a C++ source as a raw string constant:
#   cmake -DINPUT=F -DOUTPUT=F.cpp -DNAME=kName -DNAMESPACE=sbx::x -P embed_text.cmake
file(READ ${INPUT} content)
get_filename_component(source ${INPUT} NAME)
file(WRITE ${OUTPUT} "// Generated from ${source}; do not edit.\n"
  "namespace ${NAMESPACE} { extern const char *const ${NAME};\n"
  "const char *const ${NAME} = R\"sbx_text(${content})sbx_text\"; }\n")
