//===- Passes.td - ens transformation passes ---------------*- tablegen -*-===//

#ifndef ENS_DIALECT_ENS_TRANSFORMS_PASSES_TD
#define ENS_DIALECT_ENS_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def EnsBatch : Pass<"ens-batch", "::mlir::ModuleOp"> {
  let summary = "Replace every ens.vmap by a call to a generated batched function";
  let description = [{
    Batches the callee of every `ens.vmap` over its member axis with the
    ops' batching rules, so that N members run as one program with no loop.
    Each (callee, in_axes, size) is batched once; calls inside a callee are
    batched recursively, and nested vmaps compose. Shared (unbatched)
    operands stay shared where the consuming op accepts them.

    Before:

    ```mlir
    func.func @member(%x: tensor<4x3xf32>, %w: tensor<3x2xf32>) -> tensor<4x2xf32> {
      %y = ens.einsum %x, %w {spec = "bi,io->bo"}
          : tensor<4x3xf32>, tensor<3x2xf32> -> tensor<4x2xf32>
      return %y : tensor<4x2xf32>
    }
    func.func @ensemble(%x: tensor<4x3xf32>, %w: tensor<8x3x2xf32>) -> tensor<8x4x2xf32> {
      %y = ens.vmap @member(%x, %w) {in_axes = array<i64: -1, 0>,
                                     out_axes = array<i64: 0>, size = 8 : i64}
          : (tensor<4x3xf32>, tensor<8x3x2xf32>) -> tensor<8x4x2xf32>
      return %y : tensor<8x4x2xf32>
    }
    ```

    After (the shared `%x` is not broadcast):

    ```mlir
    func.func @ensemble(%x: tensor<4x3xf32>, %w: tensor<8x3x2xf32>) -> tensor<8x4x2xf32> {
      %y = call @member_vmap(%x, %w)
          : (tensor<4x3xf32>, tensor<8x3x2xf32>) -> tensor<8x4x2xf32>
      return %y : tensor<8x4x2xf32>
    }
    func.func private @member_vmap(%x: tensor<4x3xf32>, %w: tensor<8x3x2xf32>) -> tensor<8x4x2xf32> {
      %y = ens.einsum %x, %w {spec = "bi,aio->abo"}
          : tensor<4x3xf32>, tensor<8x3x2xf32> -> tensor<8x4x2xf32>
      return %y : tensor<8x4x2xf32>
    }
    ```
  }];
  let dependentDialects = ["::mlir::func::FuncDialect",
                           "::mlir::ens::EnsDialect"];
}

#endif // ENS_DIALECT_ENS_TRANSFORMS_PASSES_TD
