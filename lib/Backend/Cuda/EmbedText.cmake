# Writes the text of INPUT, less its file banner (everything up to and
# including the first "//===---...---===//" line that closes it), to OUTPUT
# as a C++ raw string literal named NAME, so that a library carries a source
# file's text without reading it at run time.
#
#   cmake -DINPUT=Prelude.cuh -DOUTPUT=Prelude.inc -DNAME=kPrelude -P EmbedText.cmake

file(READ "${INPUT}" text)
set(rule "//===----------------------------------------------------------------------===//\n")
string(FIND "${text}" "${rule}" ruleAt)
if(ruleAt EQUAL -1)
  message(FATAL_ERROR "${INPUT} has no file banner")
endif()
string(LENGTH "${rule}" ruleLength)
math(EXPR bodyAt "${ruleAt} + ${ruleLength}")
string(SUBSTRING "${text}" ${bodyAt} -1 body)
string(FIND "${body}" ")ens_embed\"" clash)
if(NOT clash EQUAL -1)
  message(FATAL_ERROR "${INPUT} contains the raw string delimiter")
endif()
get_filename_component(inputName "${INPUT}" NAME)
file(WRITE "${OUTPUT}"
  "// Generated from ${inputName} by EmbedText.cmake. Do not edit.\n"
  "static const char ${NAME}[] = R\"ens_embed(${body})ens_embed\";\n")
