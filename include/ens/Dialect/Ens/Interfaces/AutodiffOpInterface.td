//===- AutodiffOpInterface.td - Per-op reverse-mode rules --*- tablegen -*-===//
//
// The vector-Jacobian product of an op, for reverse-mode differentiation.
// Like batching rules, VJP rules are attached as external models
// (lib/Dialect/Ens/Transforms/AutodiffRules.cpp), the way Enzyme-MLIR
// attaches its ReverseAutoDiffOpInterface.
//
//===----------------------------------------------------------------------===//

#ifndef ENS_DIALECT_ENS_INTERFACES_AUTODIFFOPINTERFACE_TD
#define ENS_DIALECT_ENS_INTERFACES_AUTODIFFOPINTERFACE_TD

include "mlir/IR/OpBase.td"

def Ens_AutodiffOpInterface : OpInterface<"AutodiffOpInterface"> {
  let cppNamespace = "::mlir::ens";
  let description = [{
    An op whose operands' adjoints can be computed from its results'
    adjoints. The op itself is the forward computation in the gradient
    function: rules read its operands and results (values the forward pass
    kept) rather than recomputing them.
  }];
  let methods = [
    InterfaceMethod<[{
        Emits, at the builder's insertion point, the adjoint of each operand
        given `resultGrads`, the adjoint of each result (null where a result
        does not reach the loss). Returns one value per operand, null for an
        operand with no gradient (integers, masks, keys). On failure the rule
        has emitted a diagnostic.
      }],
      "::mlir::FailureOr<::llvm::SmallVector<::mlir::Value>>", "vjp",
      (ins "::mlir::OpBuilder &":$builder,
           "::mlir::ValueRange":$resultGrads)>,
    InterfaceMethod<[{
        Why no gradient flows through this op, for an op whose `vjp` returns
        no operand adjoints by design (its result is discrete, or depends
        only on integers); empty for an op whose `vjp` computes them. This
        tells a deliberate absence of gradients from a missing rule.
      }],
      "::llvm::StringRef", "getNonDifferentiableReason", (ins), [{}],
      /*defaultImplementation=*/[{ return {}; }]>,
  ];
}

#endif // ENS_DIALECT_ENS_INTERFACES_AUTODIFFOPINTERFACE_TD
