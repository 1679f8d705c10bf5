//===- CommandLine.cpp - Options the ens tools show -----------------------===//
//
// Unlike llvm::cl::HideUnrelatedOptions, which makes options "really
// hidden", this keeps them reachable through --help-hidden: a user chasing
// an LLVM code generation flag can still find it.
//
//===----------------------------------------------------------------------===//

#include "ens/Support/CommandLine.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Debug.h"

#include <string>
#include <vector>

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

void mlir::ens::registerDebugOptions() {
#ifndef NDEBUG
  if (cl::getRegisteredOptions().count("debug-only"))
    return;
  static cl::opt<bool, /*ExternalStorage=*/true> debug(
      "debug", cl::desc("Print all debug output"), cl::Hidden,
      cl::location(DebugFlag));
  static std::vector<std::string> types;
  static cl::list<std::string> debugOnly(
      "debug-only",
      cl::desc("Print the debug output of these DEBUG_TYPEs only "
               "(comma-separated)"),
      cl::Hidden, cl::CommaSeparated, cl::value_desc("types"),
      cl::callback([](const std::string &type) {
        types.push_back(type);
        std::vector<const char *> names;
        for (const std::string &name : types)
          names.push_back(name.c_str());
        setCurrentDebugTypes(names.data(), names.size());
        DebugFlag = true;
      }));
#endif
}
