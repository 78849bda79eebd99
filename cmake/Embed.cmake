# causegate_embed(OUT_CC NAMESPACE SYMBOL FILE...): compiles files into the
# binary as std::string_view constants so the default packs and the protocol
# text work with no installation step. A file's contents become one raw
# string literal split into chunks (compilers cap a single literal's size).
function(causegate_embed out_cc namespace)
  set(files ${ARGN})
  add_custom_command(
    OUTPUT ${out_cc}
    COMMAND ${CMAKE_COMMAND} -DOUT=${out_cc} -DNAMESPACE=${namespace}
            "-DFILES=${files}" -P ${PROJECT_SOURCE_DIR}/cmake/EmbedScript.cmake
    DEPENDS ${files} ${PROJECT_SOURCE_DIR}/cmake/EmbedScript.cmake
    COMMENT "Embedding ${namespace} data"
    VERBATIM)
endfunction()
