//===- Failure.h - How ens-train reports errors -----------------*- C++ -*-===//
//
// Every part of ens-train reports a failure by throwing Failure with one
// line of text; main prints it as "ens-train: error: <text>" and exits 1.
//
//===----------------------------------------------------------------------===//

#ifndef ENS_TRAIN_FAILURE_H
#define ENS_TRAIN_FAILURE_H

#include <stdexcept>
#include <string>

namespace ens_train {

/// A failure of ens-train, with a message for the user.
class Failure : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

} // namespace ens_train

#endif // ENS_TRAIN_FAILURE_H
