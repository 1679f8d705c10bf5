//===- Passes.td - ens fusion passes -----------------------*- tablegen -*-===//
//
// Fusion of the linalg program that convert-ens-to-linalg produces, shared
// by the CPU and CUDA backends.
//
//===----------------------------------------------------------------------===//

#ifndef ENS_FUSION_PASSES_TD
#define ENS_FUSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def EnsFuseElementwise
    : Pass<"ens-fuse-elementwise", "::mlir::func::FuncOp"> {
  let summary = "Fuse elementwise linalg ops where no element is computed twice";
  let description = [{
    Fuses a `linalg.generic` into its consumer when the consumer reads each
    element of the producer's result once and the producer has no other
    use, only moves elements (a broadcast, transpose or copy), or is used
    again only after an elementwise consumer; then the fused op also yields
    the producer's result for those later uses, computed once.
    An op computed from scalars alone (a fill, or a broadcast of a 0-d
    tensor) is also fused where it is read through a projection, and
    reshapes of it fold into it, except into ops with reductions: other
    producers of contractions are never fused, since a contraction reads
    its operands through projections and a fused producer would be
    recomputed for every step of the reduction. An elementwise consumer of
    a `tensor.collapse_shape` of such a producer (relu's mask after a max
    pooling's routing, which writes the windows' shape) runs in the
    producer's shape instead, its other operands expanded and its result
    collapsed, so that the two fuse.

    ```mlir
    %t = linalg.generic {...} ins(%a : tensor<4xf32>) ... { math.tanh }
    %y = linalg.generic {...} ins(%t, %b : ...) ... { arith.mulf }
    ```

    becomes one `linalg.generic` over `%a` and `%b` whose body computes
    `tanh` and then `mulf`.

    Fusion runs in rounds: an op created in a round is not fused again in
    it, so a chain of n ops fuses in log n rounds, each linear in the
    program, rather than cloning a growing op n times.
  }];
  let dependentDialects = [
    "::mlir::affine::AffineDialect",
    "::mlir::arith::ArithDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::tensor::TensorDialect",
  ];
}

def EnsFuseMembers : Pass<"ens-fuse-members", "::mlir::func::FuncOp"> {
  let summary = "Fuse the ops of an ensemble into loops over its members";
  let description = [{
    The batched ops of an ensemble compute member i of their results from
    member i of their batched operands (and from the whole of shared
    operands). Runs of such member ops over the same model axis become one
    `scf.forall` over the members, whose body computes one member's slice
    of every op in program order. A member's intermediate values then never
    leave the loop body: the CPU backend keeps them in cache and runs the
    loop on its threads; the CUDA backend makes each loop one kernel with a
    block per member and the intermediates in shared memory, or, for few or
    large members, a kernel per op whose blocks split each member's work.

    ```mlir
    %h = linalg.generic ... -> tensor<128x256x32xf32>   // member op
    %y = linalg.generic ins(%h, ...) -> tensor<128x256x8xf32>
    return %y
    ```

    becomes

    ```mlir
    %y = scf.forall (%m) in (128) shared_outs(%o = %empty) {
      %hm = linalg.generic ... -> tensor<1x256x32xf32>
      %ym = linalg.generic ins(%hm, ...) -> tensor<1x256x8xf32>
      scf.forall.in_parallel {
        tensor.parallel_insert_slice %ym into %o[%m, 0, 0] [1, 256, 8] ...
      }
    }
    ```

    Member ops that share no data with a loop over as many members join it
    (`join-independent`, the default and the CUDA backend's choice): the
    groups of a heterogeneous ensemble of equal sizes, for instance, then
    take one kernel. Without it (the CPU backend's choice), each set of
    member ops connected by their results is a loop of its own, and an op
    that uses two such sets makes them one: a loop's body then holds one
    group's temporaries, not every group's.

    A model axis of one member makes member ops only with
    `one-member-loops` (the CUDA backend's choice): their loop, of one
    iteration, is mapped to `#ens.members`, so that canonicalization keeps
    it, and the CUDA backend's model can then weigh running the member's
    whole step as one kernel against a kernel per op. Without it (the CPU
    backend's choice), the ops stay whole and each splits its own rows
    over the threads.

    A reshape of a loop's value that is used after the loop is redone
    there on the loop's result, so that the loop returns each value in one
    shape rather than a tensor per shape and a copy between them.

    Groups with fewer loop iterations in all than `min-work` are left as
    they are, and so are ops with a loop of no iterations (a dimension of
    size 0), which compute nothing per member.
  }];
  let options = [
    Option<"minWork", "min-work", "int64_t", /*default=*/"0",
           "The fewest loop iterations a group needs to be fused">,
    Option<"joinIndependent", "join-independent", "bool", /*default=*/"true",
           "Whether member ops that share no data with a loop over as many "
           "members join it (one loop) or start a loop of their own">,
    Option<"oneMemberLoops", "one-member-loops", "bool", /*default=*/"false",
           "Whether the ops of an ensemble of one member make a loop too (of "
           "one iteration, mapped to #ens.members)">,
  ];
  let dependentDialects = [
    "::mlir::ens::EnsDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::tensor::TensorDialect",
  ];
}

#endif // ENS_FUSION_PASSES_TD
