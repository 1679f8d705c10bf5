//===- Passes.td - ens bufferization passes ----------------*- tablegen -*-===//
//
// The passes of the bufferization stage: ens-forward-results, which the CPU
// and CUDA backends share, works on the buffers (memrefs) that one-shot
// bufferization produces from linalg on tensors; ens-write-into-slices,
// which the CPU backend runs, prepares linalg on tensors for it.
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

def EnsWriteIntoSlices : Pass<"ens-write-into-slices", "::mlir::func::FuncOp"> {
  let summary = "Compute a value inserted into a larger tensor in its slice";
  let description = [{
    A convolution's padded input is a tensor of zeros with the image
    inserted into its interior (`tensor.insert_slice`), which one-shot
    bufferization makes a copy of the image into the padded buffer, after
    the image's producer wrote it into a buffer of its own. Upstream's
    `eliminate-empty-tensors` gives the producer the slice as its
    destination instead, but only where the producer's result is the
    inserted value itself, not a reshape of it, and where the padding is
    computed before the producer. Neither holds for a batched member's
    images: the producer (a pooling adjoint's routing, a transposed copy
    of a pooling's result) writes the members' channels as a dimension of
    their own, which a `tensor.collapse_shape` merges with the image's
    channels, and the padding's zeros come after it.

    This pass handles those cases on tensors, before bufferization. Where
    the inserted value is the result of a destination-style op, an
    `scf.forall` or an `scf.for` (through its initial value), seen through
    `tensor.collapse_shape` ops each used only by the next, whose
    destination is a `tensor.empty` used nowhere else, the ops that compute
    the insert's destination move before that `tensor.empty` (where they
    have no memory effects and do not depend on the producer), and the
    `tensor.empty` is replaced with the destination's slice, expanded back
    to the producer's shape. Bufferization then finds the insert writing
    values into the memory that already holds them and copies nothing.

    Not rewritten: a producer whose result is also read after the insert
    (one-shot analysis would copy it out of the slice and back, two copies
    instead of one), a `tensor.expand_shape` between the producer and the
    insert (its inverse would collapse a strided slice, which
    bufferization can only do by copying), and an insert into a block
    argument (a function's argument may be a buffer that bufferization
    must not write).

    ```mlir
    %p = linalg.generic ... outs(%empty : tensor<2x4x4xf32>)
    %c = tensor.collapse_shape %p [[0, 1], [2]]
        : tensor<2x4x4xf32> into tensor<8x4xf32>
    %z = linalg.fill ins(%zero : f32) outs(%e : tensor<8x6xf32>)
    %i = tensor.insert_slice %c into %z[0, 1] [8, 4] [1, 1]
    ```

    becomes

    ```mlir
    %z = linalg.fill ins(%zero : f32) outs(%e : tensor<8x6xf32>)
    %s = tensor.extract_slice %z[0, 1] [8, 4] [1, 1]
    %x = tensor.expand_shape %s [[0, 1], [2]] output_shape [2, 4, 4]
    %p = linalg.generic ... outs(%x : tensor<2x4x4xf32>)
    %c = tensor.collapse_shape %p [[0, 1], [2]]
    %i = tensor.insert_slice %c into %z[0, 1] [8, 4] [1, 1]
    ```
  }];
  let dependentDialects = ["::mlir::tensor::TensorDialect"];
}

#endif // ENS_BUFFERIZATION_PASSES_TD
