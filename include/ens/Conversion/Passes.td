//===- Passes.td - ens conversion passes -------------------*- tablegen -*-===//

#ifndef ENS_CONVERSION_PASSES_TD
#define ENS_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertEnsToLinalg : Pass<"convert-ens-to-linalg", "::mlir::ModuleOp"> {
  let summary = "Lower ens ops to linalg, tensor, arith, math and scf on tensors";
  let description = [{
    The entry to code generation, shared by the backends. Elementwise ops,
    broadcasts, reductions and contractions become `linalg.generic` ops
    (one loop nest each, with the model axis as a parallel dimension);
    slices, pads and concatenations become `tensor` slice ops; gathers read
    through `tensor.extract` inside a `linalg.generic`; `scatter_add` is an
    `scf.for` nest; random draws compute Threefry-2x32 inline. The result
    is on tensors, ready for bufferization. `ens.vmap`,
    `ens.value_and_grad` and standard-library declarations must be lowered
    first (`--ens-stdlib --ens-autodiff --ens-batch`).

    ```mlir
    %y = ens.add %a, %b : tensor<4xf32>
    ```

    becomes

    ```mlir
    %e = tensor.empty() : tensor<4xf32>
    %y = linalg.generic {indexing_maps = [#id, #id, #id],
                         iterator_types = ["parallel"]}
        ins(%a, %b : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) {
    ^bb0(%x: f32, %z: f32, %out: f32):
      %s = arith.addf %x, %z : f32
      linalg.yield %s : f32
    } -> tensor<4xf32>
    ```
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::math::MathDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::tensor::TensorDialect",
  ];
}

#endif // ENS_CONVERSION_PASSES_TD
