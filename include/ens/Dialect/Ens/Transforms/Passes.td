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

def EnsSpecialize : Pass<"ens-specialize", "::mlir::ModuleOp"> {
  let summary = "Give the `?` sizes of a function concrete values";
  let description = [{
    Clones the function `entry`, and every function it reaches through
    `func.call`, `ens.vmap` and `ens.value_and_grad` (recursively), at the
    concrete argument types `arg-types`: one type per argument, separated by
    commas, e.g. `arg-types=tensor<256x64xf32>,tensor<64x32xf32>` (default:
    the entry's own types, which must be static; useful when a static entry
    maps a `?` member). Every op's result types are inferred again from its
    operands with the shared shape rules, and each clone's signature is
    rewritten. A function reached at several argument types gets one clone
    per types, named `<name>_<types>` (`@member_8x4xf32_4x3xf32`). The
    entry's clone then replaces the entry under its name, and the reached
    originals with `?` in their signature that nothing uses are erased, so
    the program is static and every target compiles it unchanged.

    Where an op's result type carries the shape, a `?` in it is resolved as
    follows; a `?` that nothing resolves is an error naming the op:

    - `ens.broadcast_in_dim`: a result dimension mapped from an operand
      dimension takes that dimension's size; a new dimension takes the size
      of the elementwise op that combines it with a known shape (a bias
      added to a batch), else it must be static.
    - `ens.reshape`: the (at most one) `?` is the element count divided by
      the product of the other sizes.
    - `ens.one_hot`: the indices' shape; the depth must be static.
    - `ens.scatter_add`: the sizes outside `axis` come from the updates; the
      size along `axis` must be static.
    - `ens.random_uniform`, `ens.random_normal`, `ens.random_split`: the
      key's batch shape; the drawn shape and the number of keys must be
      static. `ens.random_fold_in`: the key's type.
    - Elementwise ops: the shape their operands and results share; they
      also give that shape to operands that have a `?` in it. Types flow
      until nothing changes.
    - `ens.constant`: nothing to resolve; its type is its value's.
    - `ens.stdlib_call`: the library function's signature at the call's
      `!T`, which is an operand's type except for the initialisers, whose
      result type must be static.
    - A declaration (a function without a body, e.g. from ens-stdlib) is
      cloned with the new argument types; its results must be static.

    An argument type whose rank, element type or static sizes contradict
    the declared type, an op whose operands no longer fit its shape rule,
    and recursion are errors; on any error the module is left unchanged.

    Before (`ens-specialize{entry=predict arg-types=tensor<8x4xf32>}`):

    ```mlir
    func.func @layer(%x: tensor<?x4xf32>, %w: tensor<4x3xf32>) -> tensor<?x3xf32> {
      %y = ens.matmul %x, %w : tensor<?x4xf32>, tensor<4x3xf32> -> tensor<?x3xf32>
      return %y : tensor<?x3xf32>
    }
    func.func @predict(%x: tensor<?x4xf32>) -> tensor<?x3xf32> {
      %w = ens.constant dense<1.0> : tensor<4x3xf32>
      %y = call @layer(%x, %w) : (tensor<?x4xf32>, tensor<4x3xf32>) -> tensor<?x3xf32>
      return %y : tensor<?x3xf32>
    }
    ```

    After:

    ```mlir
    func.func private @layer_8x4xf32_4x3xf32(%x: tensor<8x4xf32>, %w: tensor<4x3xf32>) -> tensor<8x3xf32> {
      %y = ens.matmul %x, %w : tensor<8x4xf32>, tensor<4x3xf32> -> tensor<8x3xf32>
      return %y : tensor<8x3xf32>
    }
    func.func @predict(%x: tensor<8x4xf32>) -> tensor<8x3xf32> {
      %w = ens.constant dense<1.0> : tensor<4x3xf32>
      %y = call @layer_8x4xf32_4x3xf32(%x, %w) : (tensor<8x4xf32>, tensor<4x3xf32>) -> tensor<8x3xf32>
      return %y : tensor<8x3xf32>
    }
    ```

    C++ callers use `specializeFunction` (clones only) or
    `specializeEntryInPlace` (what this pass does) from
    `ens/Dialect/Ens/Transforms/Specialize.h`.
  }];
  let options = [
    Option<"entry", "entry", "std::string", /*default=*/"",
           "The function to specialize">,
    ListOption<"argTypes", "arg-types", "std::string",
               "The type of each argument of the entry, comma-separated "
               "(default: its own, which must be static)">,
  ];
  let dependentDialects = ["::mlir::func::FuncDialect",
                           "::mlir::ens::EnsDialect"];
}

def EnsStdlib : Pass<"ens-stdlib", "::mlir::ModuleOp"> {
  let summary = "Define the ens standard library's functions a module uses";
  let description = [{
    The standard library (`stdlib/*.mlir` in the source tree: losses,
    optimizer steps, initialisers, normalisations, dropout) is written once
    against type aliases (`!T`, `!S`, ...). A program calls a function at
    the types it needs with `ens.stdlib_call`, or declares the instance it
    needs, and this pass defines it. Each call becomes a `func.call` of a
    private function holding the library's body at the call's types, one
    per function and signature:

    ```mlir
    %p1, %m1, %v1 = ens.stdlib_call "adam"(%p, %g, %m, %v, %step, %lr,
        %beta1, %beta2, %eps, %decay) : tensor<64x32xf32>
    ```

    becomes a call of `@adam_64x32xf32`, a private function with Adam's body
    for `!T = tensor<64x32xf32>` and `!S = tensor<f32>`. A declaration

    ```mlir
    func.func private @adam_w1(tensor<64x32xf32>, tensor<64x32xf32>,
        tensor<64x32xf32>, tensor<64x32xf32>, tensor<f32>, tensor<f32>,
        tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>)
        -> (tensor<64x32xf32>, tensor<64x32xf32>, tensor<64x32xf32>)
        attributes {ens.stdlib = "adam"}
    ```

    is given the same body. A call with a `?` size, a declaration whose
    type does not fit the library function, and a function whose body
    does not instantiate at the types are errors.
  }];
  let dependentDialects = ["::mlir::func::FuncDialect",
                           "::mlir::ens::EnsDialect"];
}

def EnsInline : Pass<"ens-inline", "::mlir::ModuleOp"> {
  let summary = "Inline every call, within a bound on the ops that makes";
  let description = [{
    Runs the upstream inliner (`inline`) after checking, up front, that no
    function grows beyond `max-ops` ops once its calls are inlined. A call
    tree that branches at every level grows exponentially: 22 functions
    that each call the next twice make 2^22 ops, which the inliner and the
    backends after it would grind through without bound. Such a function is
    an error instead, as it is for `ens-autodiff`, which inlines calls into
    the forward pass under the same bound. Both backends' pipelines inline
    through this pass; `ens-opt` offers it in place of `inline`.
  }];
  let options = [
    Option<"maxOps", "max-ops", "uint64_t",
           /*default=*/"::mlir::ens::kMaxInlinedOps",
           "The most ops a function may have once its calls are inlined">,
  ];
  let dependentDialects = ["::mlir::func::FuncDialect"];
}

#endif // ENS_DIALECT_ENS_TRANSFORMS_PASSES_TD
