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

/// Registers `-debug` and `-debug-only=<types>`, which turn on LLVM_DEBUG
/// output, when ens is built with assertions (ENS_ENABLE_ASSERTIONS) and
/// the LLVM library has not registered them itself, as a release build of
/// LLVM does not. Does nothing otherwise: LLVM_DEBUG is then compiled out.
void registerDebugOptions();

} // namespace mlir::ens

#endif // ENS_SUPPORT_COMMANDLINE_H
