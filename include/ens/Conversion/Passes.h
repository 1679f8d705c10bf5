//===- Passes.h - ens conversion passes -------------------------*- C++ -*-===//

#ifndef ENS_CONVERSION_PASSES_H
#define ENS_CONVERSION_PASSES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Pass/Pass.h"

namespace mlir::ens {

#define GEN_PASS_DECL
#include "ens/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "ens/Conversion/Passes.h.inc"

} // namespace mlir::ens

#endif // ENS_CONVERSION_PASSES_H
