//===- CommandLine.cpp - Options the ens tools show -----------------------===//
//
// Unlike llvm::cl::HideUnrelatedOptions, which makes options "really
// hidden", this keeps them reachable through --help-hidden: a user chasing
// an LLVM code generation flag can still find it.
//
//===----------------------------------------------------------------------===//

#include "ens/Support/CommandLine.h"

#include "llvm/ADT/STLExtras.h"

using namespace llvm;

void mlir::ens::hideUnrelatedOptions(
    ArrayRef<const cl::OptionCategory *> keep) {
  for (auto &entry : cl::getRegisteredOptions()) {
    cl::Option *option = entry.second;
    // LLVM does not expose the category of --help and --version; its name
    // is the only handle on it.
    bool related = llvm::any_of(option->Categories, [&](auto *category) {
      return llvm::is_contained(keep, category) ||
             category->getName() == "Generic Options";
    });
    if (!related && option->getOptionHiddenFlag() == cl::NotHidden)
      option->setHiddenFlag(cl::Hidden);
  }
}
