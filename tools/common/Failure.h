//===- Failure.h - How ens's tools report errors ----------------*- C++ -*-===//
//
// ens-train and ens-bench report a failure by throwing Failure with one line
// of text; their main prints it as "<tool>: error: <text>" and exits 1. Both
// tools are built with exceptions (-fexceptions); the libraries are not.
//
//===----------------------------------------------------------------------===//

#ifndef ENS_TOOLS_COMMON_FAILURE_H
#define ENS_TOOLS_COMMON_FAILURE_H

#include <stdexcept>
#include <string>

namespace ens_tools {

/// A failure of an ens tool, with a message for the user.
class Failure : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

} // namespace ens_tools

#endif // ENS_TOOLS_COMMON_FAILURE_H
