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

def EnsAutodiff : Pass<"ens-autodiff", "::mlir::ModuleOp"> {
  let summary = "Replace every ens.value_and_grad by a call to a generated gradient function";
  let description = [{
    Differentiates the callee of every `ens.value_and_grad` in reverse mode
    with the ops' VJP rules. The generated function runs the forward pass
    (calls inlined, vmaps batched first) and then the adjoint sweep, reusing
    the forward values; adjoints of values used several times are summed.
    Each (callee, wrt) is differentiated once. The pass composes with
    `ens-batch` in either order.

    Before:

    ```mlir
    func.func @loss(%x: tensor<4x3xf32>, %w: tensor<3xf32>) -> tensor<f32> {
      %y = ens.einsum %x, %w {spec = "ij,j->i"}
          : tensor<4x3xf32>, tensor<3xf32> -> tensor<4xf32>
      %t = ens.tanh %y : tensor<4xf32>
      %s = ens.reduce_sum %t {dims = array<i64: 0>} : tensor<4xf32> -> tensor<f32>
      return %s : tensor<f32>
    }
    func.func @step(%x: tensor<4x3xf32>, %w: tensor<3xf32>) -> (tensor<f32>, tensor<3xf32>) {
      %l, %g = ens.value_and_grad @loss(%x, %w) {wrt = array<i64: 1>}
          : (tensor<4x3xf32>, tensor<3xf32>) -> (tensor<f32>, tensor<3xf32>)
      return %l, %g : tensor<f32>, tensor<3xf32>
    }
    ```

    After (in `@loss_grad`, the adjoint of the einsum is an einsum, and the
    adjoint of tanh reuses its forward result `%t`):

    ```mlir
    %y = ens.einsum %x, %w {spec = "ij,j->i"} ...
    %t = ens.tanh %y ...
    %s = ens.reduce_sum %t {dims = array<i64: 0>} ...
    %one = ens.constant dense<1.0> : tensor<f32>
    %dy = ens.broadcast_in_dim %one {dims = array<i64>} : tensor<f32> -> tensor<4xf32>
    %dtanh = ens.sub %one4, (ens.mul %t, %t) ...
    %dt = ens.mul %dy, %dtanh ...
    %dw = ens.einsum %x, %dt {spec = "ij,i->j"} ...
    return %s, %dw : tensor<f32>, tensor<3xf32>
    ```
  }];
  let dependentDialects = ["::mlir::func::FuncDialect",
                           "::mlir::ens::EnsDialect"];
}

def EnsStdlib : Pass<"ens-stdlib", "::mlir::ModuleOp"> {
  let summary = "Define declared functions of the ens standard library";
  let description = [{
    The standard library (`stdlib/*.mlir` in the source tree: losses,
    optimizer steps, initialisers) is written once against type aliases
    (`!T`, `!S`, ...). A program declares the instance it needs, with its
    own types, and this pass defines it:

    ```mlir
    func.func private @adam_w1(tensor<64x32xf32>, tensor<64x32xf32>,
        tensor<64x32xf32>, tensor<64x32xf32>, tensor<f32>, tensor<f32>,
        tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>)
        -> (tensor<64x32xf32>, tensor<64x32xf32>, tensor<64x32xf32>)
        attributes {ens.stdlib = "adam"}
    ```

    becomes a private function with Adam's body for `!T =
    tensor<64x32xf32>` and `!S = tensor<f32>`. A declaration whose type
    does not fit the library function is an error.
  }];
  let dependentDialects = ["::mlir::func::FuncDialect",
                           "::mlir::ens::EnsDialect"];
}

#endif // ENS_DIALECT_ENS_TRANSFORMS_PASSES_TD
