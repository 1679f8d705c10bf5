//===- BatchingOpInterface.td - Per-op batching rules ------*- tablegen -*-===//
//
// The batching rule of an op: how to compute it over a batch of members in
// one op, given where each operand carries the batch axis. Rules are attached
// to ops as external models (lib/Dialect/Ens/Transforms/BatchingRules.cpp),
// the way Enzyme-MLIR attaches its AutoDiffOpInterface, so the dialect's IR
// library does not depend on the transforms.
//
//===----------------------------------------------------------------------===//

#ifndef ENS_DIALECT_ENS_INTERFACES_BATCHINGOPINTERFACE_TD
#define ENS_DIALECT_ENS_INTERFACES_BATCHINGOPINTERFACE_TD

include "mlir/IR/OpBase.td"

def Ens_BatchingOpInterface : OpInterface<"BatchingOpInterface"> {
  let cppNamespace = "::mlir::ens";
  let description = [{
    An op that can be computed for a batch of members at once. The batching
    transform calls `batch` only when at least one operand is batched; an op
    whose operands are all shared is cloned unchanged.
  }];
  let methods = [
    InterfaceMethod<[{
        Emits, at the builder's insertion point, ops that compute this op for
        every member of a batch of `size`. `operands[i].axis` is where
        operand i's value carries the batch, or `kUnbatched`. Returns the
        batched results with the axis each carries. A rule keeps shared
        operands unbatched wherever its ops accept them, and moves a batch
        axis only where an op requires it. On failure the rule has emitted a
        diagnostic.
      }],
      "::mlir::FailureOr<::llvm::SmallVector<::mlir::ens::BatchedValue>>",
      "batch",
      (ins "::mlir::OpBuilder &":$builder,
           "::llvm::ArrayRef<::mlir::ens::BatchedValue>":$operands,
           "int64_t":$size)>,
  ];
}

#endif // ENS_DIALECT_ENS_INTERFACES_BATCHINGOPINTERFACE_TD
