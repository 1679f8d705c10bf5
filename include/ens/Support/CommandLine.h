//===- CommandLine.h - Options the ens tools show -------------*- C++ -*-===//
//
// Every ens tool links the LLVM library, whose static initializers register
// hundreds of backend options (AMDGPU, AArch64, X86, Polly, ...) in the
// general category. They mean nothing to a user of ens, so `--help` hides
// them and `--help-hidden` still lists them, as clang does.
//
//===----------------------------------------------------------------------===//

#ifndef ENS_SUPPORT_COMMANDLINE_H
#define ENS_SUPPORT_COMMANDLINE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/CommandLine.h"

namespace mlir::ens {

/// Marks every option registered so far that is in none of `keep` (nor in
/// LLVM's generic category of --help and --version) as hidden, so that
/// `--help` leaves it out and `--help-hidden` shows it. Options registered
/// after the call, such as MLIR's pass and printing options, stay visible:
/// call it first thing in main().
void hideUnrelatedOptions(
    llvm::ArrayRef<const llvm::cl::OptionCategory *> keep = {});

} // namespace mlir::ens

#endif // ENS_SUPPORT_COMMANDLINE_H
