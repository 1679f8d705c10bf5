//===- Passes.td - CPU backend passes ----------------------*- tablegen -*-===//
//
// The passes of the CPU backend's own, which ens-cpu-pipeline runs between
// the upstream passes that take fused linalg on tensors to the LLVM dialect.
//
//===----------------------------------------------------------------------===//

#ifndef ENS_BACKEND_CPU_PASSES_TD
#define ENS_BACKEND_CPU_PASSES_TD

include "mlir/Pass/PassBase.td"

def EnsCpuReduceInLoops
    : Pass<"ens-cpu-reduce-in-loops", "::mlir::func::FuncOp"> {
  let summary = "Reduce each slice an scf.forall writes inside that loop";
  let description = [{
    A reduction over the first dimension of an `scf.forall`'s result, where
    the loop writes its iteration `i` into slice `i` of that dimension (the
    loops over a batch that `ens-fuse-members` makes), would read the whole
    result again after the loop, from memory. This pass computes one
    partial result per iteration inside the loop, from the slice the
    iteration has just written and which is still in cache, and the
    reduction becomes the combination of those partial results. cnn-wide's
    bias gradients (64 slices of 256 and 128 KB, partial results of 1 and
    2 KB) and its first filter gradient (the same 256 KB slices and each
    example's padded image, partial results of 9 KB) are such reductions;
    when every reduction of a loop's result moves into the loop, the result
    itself is no longer written.

    The loop's result is read directly or through a `tensor.collapse_shape`
    that keeps the first dimension alone. Other inputs must read the loop's
    dimension as one of their dimensions (each iteration then reads its
    slice of them) or not at all, and be computed before the loop, or by
    ops after it that do not read the loop's results: those ops move before
    the loop. The combiner must have a neutral element (the partial results
    start from it), and an iteration's partial result must be at most an
    eighth of its slice: a reduction that shrinks its slices less (a sum
    over the loop's dimension alone, a filter gradient with many channels)
    would write about as much as it reads. The loop's result must be at
    least `min-result-bytes` (the pipeline gives the host core's L2 cache
    size, 1 MiB by default): a smaller one stays in that cache and is read
    back from it after the loop, and the partial results would only add
    work (ens-bench's `cnn`, 147 KB, took 3% longer with them).

    Before:

    ```mlir
    %y = scf.forall (%i) in (64) shared_outs(%o = %e) -> (tensor<64x16x8x8xf32>) {
      %s = linalg.generic ... -> tensor<1x16x8x8xf32>
      scf.forall.in_parallel {
        tensor.parallel_insert_slice %s into %o[%i, 0, 0, 0] [1, 16, 8, 8] [1, 1, 1, 1] : ...
      }
    }
    %db = linalg.generic {iterator_types = ["reduction", "parallel", "reduction", "reduction"]}
        ins(%y : tensor<64x16x8x8xf32>) outs(%zeros : tensor<16xf32>) { addf }
    ```

    After:

    ```mlir
    %y:2 = scf.forall (%i) in (64) shared_outs(%o = %e, %q = %e2) -> (tensor<64x16x8x8xf32>, tensor<64x16xf32>) {
      %s = linalg.generic ... -> tensor<1x16x8x8xf32>
      %p = linalg.generic {iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
          ins(%s : tensor<1x16x8x8xf32>) outs(%fill : tensor<1x16xf32>) { addf }
      scf.forall.in_parallel {
        tensor.parallel_insert_slice %s into %o[%i, 0, 0, 0] [1, 16, 8, 8] [1, 1, 1, 1] : ...
        tensor.parallel_insert_slice %p into %q[%i, 0] [1, 16] [1, 1] : ...
      }
    }
    %db = linalg.generic {iterator_types = ["reduction", "parallel"]}
        ins(%y#1 : tensor<64x16xf32>) outs(%zeros : tensor<16xf32>) { addf }
    ```
  }];
  let options = [
    Option<"minResultBytes", "min-result-bytes", "int64_t", /*default=*/"1048576",
           "The smallest loop result, in bytes, whose reductions move into "
           "the loop: the size of a core's L2 cache, which keeps a smaller "
           "one until the reductions after the loop read it">,
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::tensor::TensorDialect",
  ];
}

def EnsCpuSplitReductions
    : Pass<"ens-cpu-split-reductions", "::mlir::func::FuncOp"> {
  let summary = "Give reductions partial results along the loop a vector "
                "would reduce";
  let description = [{
    A vector that runs along a reduction loop has to be summed across its
    lanes at every step, in order. This pass gives such reductions a
    partial result per lane, or per tap, which `ens-cpu-tile-and-vectorize`
    then vectorizes as elementwise code with the accumulators in registers,
    and a reduction of the partial results after. Three forms, and three
    that give convolutions a whole vector along another loop instead:

    - A reduction over one loop that reads its largest input's contiguous
      innermost dimension (a row sum, a softmax's or a norm's statistics, a
      reduction to a scalar), whose extent is a multiple of the lanes of a
      vector and at least two vectors: upstream's `splitReduction` cuts the
      loop into (steps, lanes) with the lanes parallel and innermost.

    - A convolution whose window is wider than its result, as a filter
      gradient's is (the window is the output gradient's image): where the
      image's innermost dimension is read at `position + tap` and the tap's
      loop is longer than the position's, the tap loop becomes parallel,
      with a partial result per tap. A convolution is a linalg.generic that
      multiplies and accumulates its first input (the image, read through
      sums of loops times constants) and its second (the filter, read
      through loops alone), as EnsToLinalg lowers ens.conv.

    - A reduction over several loops whose vector would run along one of
      them, the innermost dimension of its largest input, of at most four
      vectors' iterations (a bias gradient, summed over the batch and the
      image's rows and columns): that loop becomes parallel, with a partial
      result per iteration, innermost, starting from the neutral element of
      the reduction's combiner (an add's 0, a max's -inf); reductions whose
      combiner has none stay as they are.

    - A filter gradient whose output channels (a parallel loop of the
      result that the image does not read and the output gradient reads as
      a dimension) are a whole number of vectors, where the image reads at
      least 8 input channels: instead of partial results per tap, it reads
      the output gradient and writes its result with the output channels
      innermost, through transposed copies (`linalg.transpose`), and a
      transpose puts the result back. `ens-cpu-tile-and-vectorize` then
      runs the vector along the output channels and the rows along the
      input channels, each row an image element broadcast: the form of a
      matrix product.

    - A forward convolution (or input gradient) whose vector would run
      along image columns fewer than its lanes, read at no stride or
      dilation, the same way, where its output channels are a whole number
      of vectors and a loop of the result that the filter does not read has
      at least 8 iterations: it reads a copy of its filter and writes its
      result with the output channels innermost, so that the vector runs
      along them and the rows along the image's columns (cnn-wide's second
      convolution: 16 output channels of 8-column images). The filter is
      copied once, before the loops that the convolution is in; an
      accumulator of zeros is filled in the new shape, not copied.

    - Such a convolution whose output channels are no whole number of
      vectors (cnn-wide's input gradient: 8), whose rows times columns are,
      and whose accumulator is a fill: its image rows are flattened. A copy
      of the image per column tap, each row as wide as the result's
      (`linalg.copy` of a window), lies end to end, so that result position
      `p = row * columns + column` reads it at `p + columns * row tap +
      rows * columns * column tap`, and the result, a fill of the flat
      shape, is reshaped back. The vector then runs along the positions and
      the rows along the output channels, each a broadcast filter tap. Of
      an image padded with zeros (a `tensor.insert_slice` into zeros, seen
      through an expand_shape and an extract_slice that keep its rows and
      columns whole), the copy is zeros with the windows of the unpadded
      image, so that the padded image need not be made.

    The pass runs before `ens-cpu-tile-and-vectorize`.

    Before (a 3x3 filter gradient over an 8x8 output gradient):

    ```mlir
    %g = linalg.generic {indexing_maps = [
            affine_map<(f, c, i, j, n, y, x) -> (n, c, i + y, j + x)>,
            affine_map<(f, c, i, j, n, y, x) -> (n, f, y, x)>,
            affine_map<(f, c, i, j, n, y, x) -> (f, c, i, j)>],
          iterator_types = ["parallel", "parallel", "parallel", "parallel",
                            "reduction", "reduction", "reduction"]}
        ins(%image, %dy : tensor<4x2x10x10xf32>, tensor<4x8x8x8xf32>)
        outs(%zero : tensor<8x2x3x3xf32>) {...} -> tensor<8x2x3x3xf32>
    ```

    After, a partial sum per tap `x`, then their sum:

    ```mlir
    %p = linalg.generic {indexing_maps = [..., ...,
            affine_map<(f, c, i, j, n, y, x) -> (f, c, i, j, x)>],
          iterator_types = ["parallel", "parallel", "parallel", "parallel",
                            "reduction", "reduction", "parallel"]}
        ins(%image, %dy : ...) outs(%zeros : tensor<8x2x3x3x8xf32>) {...}
    %g = linalg.generic {indexing_maps = [
            affine_map<(f, c, i, j, x) -> (f, c, i, j, x)>,
            affine_map<(f, c, i, j, x) -> (f, c, i, j)>],
          iterator_types = ["parallel", "parallel", "parallel", "parallel",
                            "reduction"]}
        ins(%p : tensor<8x2x3x3x8xf32>) outs(%zero : tensor<8x2x3x3xf32>) {
      ^bb0(%in: f32, %out: f32):
        %s = arith.addf %out, %in : f32
        linalg.yield %s : f32
    } -> tensor<8x2x3x3xf32>
    ```
  }];
  let options = [
    Option<"vectorBytes", "vector-bytes", "unsigned", /*default=*/"16",
           "The width of the target's widest vector registers in bytes">,
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::tensor::TensorDialect",
  ];
}

def EnsCpuTileAndVectorize
    : Pass<"ens-cpu-tile-and-vectorize", "::mlir::func::FuncOp"> {
  let summary = "Tile linalg ops over threads and registers and vectorize them";
  let description = [{
    Cuts every linalg op on tensors with static shapes into register tiles
    and turns each register tile into vector code. The vector loop is the
    innermost dimension of the result for a contraction (each step of the
    reduction is then an outer product) and otherwise the innermost
    dimension of the largest operand.

    A contraction's tile is `r` rows of the result by `v` vectors, chosen
    per op from the target (`vector-bytes`; 32 vector registers with
    64-byte vectors, as AVX-512 has, and 16 otherwise) and from how its
    operands are read: each step of the reduction loads `v` vectors of the
    operand read along the vector loop and broadcasts `r` elements of the
    other into `r * v` FMAs. The tile taken is the one with the fewest loads
    per step over the whole result, counting the tiles of what it leaves
    over, whose `r * v` accumulators, `v` vectors and a broadcast fit in the
    registers (6 rows by 4 vectors for 256x512 with AVX-512; 4 by 3 for
    48x96 with AVX2). Where no operand is read contiguously along the vector
    loop (dX = dY * W^T would read W^T an element at a time), the operand
    that has the vector loop in another dimension is first transposed into
    a copy (`linalg.transpose`, itself tiled and vectorized) that the
    contraction reads as X * W reads W, if the result has at least 16 rows
    to spread the copy over; with fewer, the tile gathers, one vector wide
    and as tall as the registers allow. The rows or columns a
    tile leaves over are split off (`linalg::splitOp`) and tiled on their
    own, so shapes stay static. In a build with `ENS_ENABLE_ASSERTIONS`,
    `-debug-only=ens-cpu-tile-and-vectorize` prints each contraction's
    tile.

    Other ops hold one vector along the vector loop. A reduction across the
    vector loop (a column sum) holds up to 8 vectors side by side instead,
    so that each step reads 8 vectors of a row. A `linalg.transpose` that
    moves its input's innermost dimension also spans a vector's worth of
    that dimension, read whole and transposed in registers, rather than
    gathering an element per lane. An elementwise op whose vector loop is
    narrower than 128 bits (the 2 columns of a pooling window in the max
    pooling adjoint's [rows, window rows, columns, window columns] view of
    its operand) runs its vector along the result's next loop too, where
    every operand reads the two as its two innermost dimensions, or one of
    them alone innermost (broadcast along the other): a tile of 8 x 2 lanes
    on AVX-512 rather than vectors of 2.

    A convolution (a multiply-accumulate whose first input is read at
    `position * stride + tap`, as EnsToLinalg lowers ens.conv) is tiled in
    the same way when a vector along its result's innermost loop reads the
    image contiguously: the rows run along a loop of the result that the
    image does not read (an output channel), and every other loop, the taps
    included, has one iteration. The tile's unit loops that its operands
    read in sums are then dropped, so that it reads through loops alone and
    vectorizes to a `vector.contract`, one outer product per input channel
    and tap, with 8 rows; where it has no image rows to span (one over
    flattened image rows), two vectors side by side if the loop holds them
    and the accumulators fit the registers, so that each broadcast tap
    serves two FMAs. A filter gradient with a partial result per column tap
    (`ens-cpu-split-reductions`) spans its row taps as image rows, which the
    image reads with the output gradient's rows alone, so that each output
    gradient vector serves every row tap. Where the image does not read the result's
    innermost loop and the filter reads it innermost (a filter gradient
    with its output channels innermost, as `ens-cpu-split-reductions`
    leaves it), the vector reads the filter instead and the rows run along
    the longest loop of the result that the filter does not read (an input
    channel), each row an image element broadcast. A strided convolution's
    tile stays scalar. Tiles
    of ops other than contractions divide the loops evenly, so shapes stay
    static; the loops over tiles are `scf.for`, reductions innermost.

    A reduction whose accumulator is a `linalg.fill` that nothing else reads
    takes the fill into its tiles: each register tile writes the constant
    into its slice of the result, in the loops over the parallel tiles and
    before its reduction loops, and starts from it, rather than a pass of
    its own filling the whole result before the tiles read it back (for
    cnn-wide's first convolution, 256 KB per example). A fill that several
    ops read is tiled on its own.

    With more than one thread (`threads`), an op of at least 16384 loop
    iterations outside a loop over members first has its first parallel
    loop tiled into an `scf.forall`, about one chunk per thread. Ops of i1,
    full reductions to a scalar and ops with dynamic shapes stay as they
    are; they become loops later.

    Vectorization is followed by what upstream's
    `vectorize_children_and_apply_patterns` applies: multiplications
    reduced along a dimension become `vector.contract`, and transfers
    through slices read the whole tensor at an offset.

    Before (`vector-bytes=16`: 4 lanes of f32):

    ```mlir
    %r = linalg.matmul ins(%a, %b : tensor<8x16xf32>, tensor<16x8xf32>)
        outs(%fill : tensor<8x8xf32>) -> tensor<8x8xf32>
    ```

    After, with 16 registers: a tile of 6 rows by 2 vectors (12
    accumulators) reducing over 16 steps, and the 2 rows left over split
    off as a tile of their own:

    ```mlir
    %top = tensor.extract_slice %fill[0, 0] [6, 8] [1, 1] : tensor<8x8xf32> to tensor<6x8xf32>
    %t = scf.for %k = %c0 to %c16 step %c1 iter_args(%tile = %top) {
      %va = vector.transfer_read %a[%c0, %k] ... : tensor<8x16xf32>, vector<6x1xf32>
      %vb = vector.transfer_read %b[%k, %c0] ... : tensor<16x8xf32>, vector<1x8xf32>
      %vc = vector.transfer_read %tile[%c0, %c0] ... : tensor<6x8xf32>, vector<6x8xf32>
      %m = vector.contract {...} %va, %vb, %vc
          : vector<6x1xf32>, vector<1x8xf32> into vector<6x8xf32>
      %w = vector.transfer_write %m, %tile[%c0, %c0] ... : vector<6x8xf32>, tensor<6x8xf32>
      scf.yield %w : tensor<6x8xf32>
    }
    %top_done = tensor.insert_slice %t into %fill[0, 0] [6, 8] [1, 1]
    // ... the same for %top_done[6, 0] [2, 8], with vector<2x1xf32> and
    // vector<2x8xf32>.
    ```
  }];
  let options = [
    Option<"threads", "threads", "unsigned", /*default=*/"1",
           "Threads that will run the code: with more than one, large ops "
           "are split into an scf.forall">,
    Option<"vectorBytes", "vector-bytes", "unsigned", /*default=*/"16",
           "The width of the target's widest vector registers in bytes">,
  ];
  let dependentDialects = [
    "::mlir::affine::AffineDialect",
    "::mlir::arith::ArithDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::tensor::TensorDialect",
    "::mlir::vector::VectorDialect",
  ];
}

def EnsCpuHoistTransfers
    : Pass<"ens-cpu-hoist-transfers", "::mlir::func::FuncOp"> {
  let summary = "Hoist loop-invariant vector transfers out of scf.for loops";
  let description = [{
    Keeps the accumulators of reduction loops in registers: where each
    iteration of an `scf.for` reads a vector from a buffer at indices that
    do not change in the loop and writes it back at the end, the read moves
    before the loop, the write after it, and the vector becomes a value the
    loop carries. Runs after bufferization, on memrefs. A write of a vector
    that only gained unit dimensions (a broadcast that prepends ones, then a
    transpose), as the vectorizer writes a convolution's accumulator, first
    writes the vector itself through a map without them, so that it matches
    the read. Transfers through a subview of unit strides and full rank that
    only transfers use (the accumulator of one part of a contraction split
    at a remainder) first read and write the subview's source, at its
    offsets plus their indices, since the hoisting leaves transfers through
    views alone. A hoisted read that follows a write of the same vector
    shape at the same indices (the constant that a register tile filled its
    accumulator with) then takes the written vector, and the write, which
    the write after the loop overwrites, goes (upstream's
    `vector::transferOpflowOpt`).

    Before:

    ```mlir
    scf.for %k = %c0 to %c16 step %c1 {
      %acc = vector.transfer_read %out[%c0, %c0], %zero : memref<8x4xf32>, vector<8x4xf32>
      %r = vector.contract {...} %va, %vb, %acc : ... into vector<8x4xf32>
      vector.transfer_write %r, %out[%c0, %c0] : vector<8x4xf32>, memref<8x4xf32>
    }
    ```

    After:

    ```mlir
    %init = vector.transfer_read %out[%c0, %c0], %zero : memref<8x4xf32>, vector<8x4xf32>
    %sum = scf.for %k = %c0 to %c16 step %c1 iter_args(%acc = %init) -> (vector<8x4xf32>) {
      %r = vector.contract {...} %va, %vb, %acc : ... into vector<8x4xf32>
      scf.yield %r : vector<8x4xf32>
    }
    vector.transfer_write %sum, %out[%c0, %c0] : vector<8x4xf32>, memref<8x4xf32>
    ```
  }];
  let dependentDialects = ["::mlir::affine::AffineDialect"];
}

def EnsCpuLowerVectors : Pass<"ens-cpu-lower-vectors", "::mlir::func::FuncOp"> {
  let summary = "Lower vector ops to 1-D vector ops and FMAs";
  let description = [{
    Lowers vector ops, in stages, to the 1-D vector ops that LLVM turns
    into good code: `vector.contract` to outer products and those to FMAs
    along the rows (a contraction whose two operands both read the lanes,
    each with rows of its own, and whose reduction is one step, as a filter
    gradient's tile of output channels by row taps is: one FMA of the two
    operands' rows per row of the accumulator), n-D transfers to 1-D loads
    and stores, reductions along
    outer dimensions to elementwise arithmetic, transposes to shuffles.
    Tiles whose rows are narrower than 128 bits (an elementwise op's tile
    that runs along two loops, as `ens-cpu-tile-and-vectorize` gives narrow
    innermost dimensions) are computed as 1-D vectors first: their
    contiguous transfers become 1-D loads and stores, and their elementwise
    ops act on the flattened vector, so that LLVM does not compute each
    narrow row on its own. A 1-D read of elements 2 apart (a tap of 2x2
    pooling windows) loads the contiguous run that holds them as two
    vectors, which never reach past the run's last element, and shuffles
    its even elements out, instead of loading an element at a time. Each
    stage is its own bounded rewrite, with no canonicalization mixed
    in: together with these patterns it can rewrite without end.

    Before:

    ```mlir
    %r = vector.contract {indexing_maps = [...], iterator_types =
           ["parallel", "parallel", "reduction"], kind = #vector.kind<add>}
        %a, %b, %acc : vector<2x1xf32>, vector<1x4xf32> into vector<2x4xf32>
    ```

    After, one FMA per row of the result:

    ```mlir
    %b0 = vector.extract %b[0] : vector<4xf32> from vector<1x4xf32>
    %a0 = vector.extract %a[0, 0] : f32 from vector<2x1xf32>
    %s0 = vector.splat %a0 : vector<4xf32>
    %c0 = vector.extract %acc[0] : vector<4xf32> from vector<2x4xf32>
    %r0 = vector.fma %s0, %b0, %c0 : vector<4xf32>
    %t0 = vector.insert %r0, %zero [0] : vector<4xf32> into vector<2x4xf32>
    %a1 = vector.extract %a[1, 0] : f32 from vector<2x1xf32>
    ...
    %r = vector.insert %r1, %t0 [1] : vector<4xf32> into vector<2x4xf32>
    ```
  }];
  let dependentDialects = [
    "::mlir::affine::AffineDialect",
    "::mlir::arith::ArithDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::vector::VectorDialect",
  ];
}

def EnsCpuApproximateTanh
    : Pass<"ens-cpu-approximate-tanh", "::mlir::ModuleOp"> {
  let summary = "Replace f32 tanh with a vectorizable polynomial approximation";
  let description = [{
    Replaces `math.tanh` on f32 (scalars and vectors) with upstream's
    polynomial approximation, a rational function of clamped inputs in
    `arith` ops. The approximation vectorizes; the libm call it replaces
    would be made once per element. Other math ops are left to the
    conversions that follow.

    Before:

    ```mlir
    %t = math.tanh %x : vector<4xf32>
    ```

    After (abridged):

    ```mlir
    %0 = arith.cmpf ult, %x, %bound : vector<4xf32>
    %1 = arith.select %0, %x, %bound : vector<4xi1>, vector<4xf32>
    %2 = arith.cmpf ugt, %1, %minus_bound : vector<4xf32>
    %clamped = arith.select %2, %1, %minus_bound : vector<4xi1>, vector<4xf32>
    %abs = math.absf %x : vector<4xf32>
    %tiny = arith.cmpf olt, %abs, %threshold : vector<4xf32>
    %x2 = arith.mulf %clamped, %clamped : vector<4xf32>
    %p0 = math.fma %x2, %alpha13, %alpha11 : vector<4xf32>
    ...
    %odd = arith.mulf %clamped, %p : vector<4xf32>
    ...
    %ratio = arith.divf %odd, %q : vector<4xf32>
    %t = arith.select %tiny, %clamped, %ratio : vector<4xi1>, vector<4xf32>
    ```
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::math::MathDialect",
    "::mlir::vector::VectorDialect",
  ];
}

def EnsCpuScheduleDynamically
    : Pass<"ens-cpu-schedule-dynamically", "::mlir::ModuleOp"> {
  let summary = "Give OpenMP worksharing loops a dynamic schedule";
  let description = [{
    Hands out the iterations of every `omp.wsloop` one at a time, to
    whichever thread is free: a thread that the system preempts, or that
    gets the slower members of an ensemble, then holds up no one.

    Before:

    ```mlir
    omp.wsloop {
      omp.loop_nest (%i) : index = (%c0) to (%c128) step (%c1) { ... }
    }
    ```

    After:

    ```mlir
    omp.wsloop schedule(dynamic) {
      omp.loop_nest (%i) : index = (%c0) to (%c128) step (%c1) { ... }
    }
    ```
  }];
}

#endif // ENS_BACKEND_CPU_PASSES_TD
