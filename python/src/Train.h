//===- Train.h - The trainer library in Python ------------------*- C++ -*-===//

#ifndef ENS_PYTHON_TRAIN_H
#define ENS_PYTHON_TRAIN_H

#include <nanobind/nanobind.h>

#include <ens/ens.h>

#include <string>

namespace ens::python {

/// The target a Python name ("cpu", "cuda", ...) names; throws ens::Error.
Target parseTarget(const std::string &name);

/// Adds _ens.Trainer (Train.cpp) to `m`.
void bindTrainer(nanobind::module_ &m);

} // namespace ens::python

#endif // ENS_PYTHON_TRAIN_H
