//===- Passes.td - ens bufferization passes ----------------*- tablegen -*-===//
//
// The passes of the bufferization stage that the CPU and CUDA backends
// share: they work on the buffers (memrefs) that one-shot bufferization
// produces from linalg on tensors.
//
//===----------------------------------------------------------------------===//

#ifndef ENS_BUFFERIZATION_PASSES_TD
#define ENS_BUFFERIZATION_PASSES_TD

include "mlir/Pass/PassBase.td"

def EnsForwardResults : Pass<"ens-forward-results", "::mlir::func::FuncOp"> {
  let summary = "Write results straight into the caller's buffers";
  let description = [{
    After bufferization with results as out-parameters
    (`buffer-results-to-out-params`), a function that computed a result in
    a buffer of its own copies it into the caller's buffer at the end.
    Where such a trailing copy comes from an allocation of the function and
    goes to a result buffer nothing else uses, the result buffer replaces
    the allocation and the copy goes away. (Upstream's
    `hoist-static-allocs` option does this too, but erases an allocation
    returned twice twice.) A copy that reads the allocation through
    `memref.collapse_shape` or `memref.expand_shape` replaces it with the
    result buffer seen through the inverse reshapes. The caller's result
    buffers must not overlap its arguments, which the ens API checks.

    ```mlir
    func.func @f(%a: memref<4xf32>, %out: memref<4xf32>) {
      %t = memref.alloc() : memref<4xf32>
      linalg.generic ... ins(%a) outs(%t)
      memref.copy %t, %out : memref<4xf32> to memref<4xf32>
      return
    }
    ```

    becomes

    ```mlir
    func.func @f(%a: memref<4xf32>, %out: memref<4xf32>) {
      linalg.generic ... ins(%a) outs(%out)
      return
    }
    ```
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
}

#endif // ENS_BUFFERIZATION_PASSES_TD
