#===- cmake/EnsWarnings.cmake - Warnings as errors in ens's own code -------===#
#
# HandleLLVMOptions turns on LLVM's warnings (-Wall, -Wextra and more) for
# every ens target. ENS_WERROR=ON makes each of them an error; the test
# script (scripts/test-all.sh, which CI runs) sets it, so that a warning in
# ens's own sources fails CI. LLVM's and MLIR's headers are then included
# as system headers (ENS_LLVM_INCLUDE_KIND), so that a warning of theirs is
# not an error of ens's. Without ENS_WERROR they are ordinary include
# directories, and any warning they give is shown.
#
#===----------------------------------------------------------------------===#

option(ENS_WERROR "Make compiler warnings in ens's own sources errors" OFF)
set(ENS_LLVM_INCLUDE_KIND "")
if(ENS_WERROR)
  add_compile_options($<$<COMPILE_LANGUAGE:C,CXX>:-Werror>)
  set(ENS_LLVM_INCLUDE_KIND SYSTEM)
endif()
