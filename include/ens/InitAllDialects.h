//===- InitAllDialects.h - Dialects ens tools load --------------*- C++ -*-===//

#ifndef ENS_INITALLDIALECTS_H
#define ENS_INITALLDIALECTS_H

#include "ens/Dialect/Ens/IR/EnsDialect.h"
#include "ens/Dialect/Ens/Transforms/Autodiff.h"
#include "ens/Dialect/Ens/Transforms/Batching.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/Extensions/InlinerExtension.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/TilingInterfaceImpl.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/DialectRegistry.h"

namespace mlir::ens {

/// Registers the dialects an ens program may contain, ens itself and the
/// upstream `func` dialect for functions and calls, with the interfaces that
/// ens attaches to their ops.
inline void registerAllDialects(DialectRegistry &registry) {
  registry.insert<EnsDialect, func::FuncDialect>();
  registerBatchingRules(registry);
  registerAutodiffRules(registry);
}

/// Registers, in addition, the upstream dialects of the lowered program
/// (linalg on tensors and buffers, and the dialects of their bodies), so
/// that tools can read what the lowering and fusion passes print.
inline void registerLoweringDialects(DialectRegistry &registry) {
  registerAllDialects(registry);
  registry.insert<affine::AffineDialect, arith::ArithDialect,
                  bufferization::BufferizationDialect, linalg::LinalgDialect,
                  math::MathDialect, memref::MemRefDialect, scf::SCFDialect,
                  tensor::TensorDialect>();
  func::registerInlinerExtension(registry);
  linalg::registerTilingInterfaceExternalModels(registry);
}

} // namespace mlir::ens

#endif // ENS_INITALLDIALECTS_H
