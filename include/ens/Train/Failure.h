//===- Failure.h - How the trainer reports errors ---------------*- C++ -*-===//
//
// The trainer reports a failure by throwing Failure with one line of text
// for the user: a bad flag or option, unreadable data, a checkpoint that
// does not match. It is an ens::Error, so that a caller of the trainer
// catches its failures and the C++ API's alike; ens-train prints either as
// "ens-train: error: <text>" and exits 1, and Python raises ens.Error.
//
//===----------------------------------------------------------------------===//

#ifndef ENS_TRAIN_FAILURE_H
#define ENS_TRAIN_FAILURE_H

#include "ens/ens.h"

namespace ens::train {

/// A failure of the trainer, with a message for the user.
class Failure : public ens::Error {
public:
  using ens::Error::Error;
};

} // namespace ens::train

#endif // ENS_TRAIN_FAILURE_H
