//===- Failure.h - How ens's tools report errors ----------------*- C++ -*-===//
//
// ens-bench reports a failure by throwing Failure with one line of text; its
// main prints it as "ens-bench: error: <text>" and exits 1. It is built with
// exceptions (-fexceptions); the libraries are not, but for libens and the
// trainer library, whose failures are ens::Error (ens-train's are
// include/ens/Train/Failure.h).
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
