//===- Builder.h - The ens Python bindings of FunctionBuilder ---*- C++ -*-===//
//
// Part of the ens Python package: binds ens::Value, ens::Scalar and
// ens::FunctionBuilder (Builder.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef ENS_PYTHON_BUILDER_H
#define ENS_PYTHON_BUILDER_H

#include <ens/ens.h>

#include <nanobind/nanobind.h>

#include <string>

namespace ens::python {

/// Adds Value, Scalar and FunctionBuilder to `m`; `parseDType` reads an
/// element type's IR spelling.
void bindBuilder(nanobind::module_ &m,
                 DType (*parseDType)(const std::string &));

} // namespace ens::python

#endif // ENS_PYTHON_BUILDER_H
