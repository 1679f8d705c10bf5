// The tiled strategy (--cuda-strategy=tiled, lib/Backend/Cuda/
// TiledKernelEmitter.cpp) at the sizes where its index arithmetic has edges,
// each an ens.vmap of a member function. For each case the interpreter (the
// oracle, which runs the vmap member by member) writes the results, and
// cuda-emu must agree with them under the tiled strategy and, for
// comparison, under the member-per-block and members-per-block strategies
// (the latter's warp reductions add in yet another order, within the same
// tolerances; members-per-block.mlir has its own edges). Inputs come from
// --random-inputs (floats uniform in [-1, 1)); the tolerances are ens-run's
// defaults (1e-5 relative, 1e-6 absolute) except for the block
// reductions (@sum, @rows and @long_k; see @sum).
//
// Where the full model now computes a contraction in FFMA block tiles
// instead (issue #31: @rem, @k_one, @odd, @epilogue, @small and @full;
// @block_edges is there for the block tiles' own edges), the case runs
// twice on cuda-emu under the tiled strategy: as the model picks, and with
// --cuda-block-tiles=false, in the register tiles whose edges it was
// written for, which its plan check then describes.
//
// For each case, one property of the tiled plan (--cuda-plan) is worked out
// by hand from lib/Backend/Cuda/OpPlanning.cpp and Planning.cpp:
// - getBlockCombiner (ReductionBlocks::OwnPerMember): an op with a
//   reduction is a block reduction if the output elements of all members
//   are fewer than 264 * 256 (264 blocks, two per SM of an H100) and it has
//   at least 256 steps, a block's threads. planSplit then splits each element's steps into
//   min(ceil(264 / (members * elements)), steps / 1024) chunks when that is
//   more than one. Every contraction below but @long_k has fewer than 256
//   steps or (@many) 133 * 64 * 72 outputs, so it is computed in points.
// - planTile: the points of a contraction are in tiles over two parallel
//   loops of the member's op: the columns are the loop of the output's
//   innermost dimension; the rows another parallel loop of range >= 2 that
//   one operand follows without the columns and another operand the
//   columns without the rows. Each tile size is min(range, 4); no rows
//   loop (or columns of range < 2): no tile ("points").
// - getBlocksPerMember: the parallel points of the member's op, with each
//   tiled loop counted in tiles (ceil(R / S)), over the threads per block
//   of the phase's launch, rounded up; a block reduction takes a block per
//   output element and chunk. The threads are 256 unless the model finds
//   128 or 64 faster for the launch (settleTiledPlan); the plan
//   then says "B blocks of T threads per member".
// In the member's ops, loop d0 is the member's unit slice of the model axis
// (range 1, so never a tile loop); for a matmul d1 is the rows, d2 the
// columns and d3 the reduction.
//
// Tile t of a loop of range R in tiles of S holds the points t + s *
// ceil(R / S), s < S; a point past R computes R - 1 again and stores
// nothing. Which of these is guarded, per case:
//
// @rem (6x5 @ 5x7, 3 members): 4 divides neither loop: rows ceil(6/4) = 2
//   tiles of points t, t+2, t+4, t+6, and t+6 is out for both tiles;
//   columns ceil(7/4) = 2 tiles, and t+6 is in only for t = 0. 2 * 2 = 4
//   tiles: 1 block per member.
// @one_member (20x12 @ 12x9 -> tanh -> @ 9x5, 1 member): a vmap of size 1
//   is a loop of one iteration (ens-fuse-members' one-member-loops), which
//   each strategy plans: with tiled, two launches of one block for the one
//   member. (With generated kernels only: the second matmul, with no
//   epilogue, would otherwise add the model's choice of a vendor GEMM
//   step.)
// @one_row (1x24 @ 24x300, 4 members): the rows loop d1 has range 1, so no
//   tile: 300 points, ceil(300 / 256) = 2 blocks per member, the second with
//   44 points; the loop over p ends inside the block.
// @k_one (9x1 @ 1x11, 5 members): a reduction loop of range 1; still a
//   contraction, tiled 4x4 (ranges 9 and 11), ceil(9/4) * ceil(11/4) = 9
//   tiles: 1 block per member.
// @odd (37x13 @ 13x29, 7 members): rows 10 tiles (points t + 30 exist only
//   for t < 7), columns 8 tiles (t + 24 only for t < 5): 80 tiles, 1 block.
// @many (64x20 @ 20x72, 133 members, one more than an H100's 132 SMs): 16 *
//   18 = 288 tiles; the model picks 64 threads per block (its estimate is
//   lower than with 256, 2 blocks per member, a grid of 266):
//   ceil(288 / 64) = 5 blocks per member, a grid of 665, the last block of
//   each member with 32 tiles; block b of member m is blockIdx.x = 5m + b.
// @transposed (3 members): x w^T as an einsum "bi,oi->bo"; x (transpose w)
//   with the transpose an op of its own; and an einsum "ib,oi->ob" whose
//   first operand is transposed and whose output is too. Plan: the
//   transpose of w is not folded into the matmul: it is a phase, and its
//   result a temporary of 6 * 13 * 4 = 312 bytes in global memory, the
//   buffer after the 3 arguments (0-2) and the 3 results (3-5): buffer 6.
// @epilogue (67x10 @ 10x61 + bias, tanh; 6 members): the add and tanh are
//   the contraction's fused epilogue, applied per point of the tile inside
//   its store guard; 17 * 16 = 272 tiles: 2 blocks per member.
// @sum (reduce_sum of 64x300 to one value per member, 5 members): with the
//   tiled strategy a reduction is a block reduction when the output
//   elements of all members are fewer than 264 blocks of 256 threads and
//   it has at least 256 steps: 5 * 1 elements, 19200 steps. Its 5 elements
//   would fill 5 blocks of the 264 (two per SM of an H100), so each
//   element's steps split into min(ceil(264 / 5) = 53, 19200 / 1024 = 18)
//   = 18 chunks of at least 4 steps per thread: 18 blocks per member write
//   a share each to a buffer of 5x1x18 shares, the buffer after the
//   argument (0) and the result (1): global buffer 2; a second kernel
//   combines each element's shares. The blocks add in another order than
//   the interpreter: partial sums reach about sqrt(19200 / 3) = 80, and the
//   results differ by up to 1e-4 (seeds 1-8); the absolute tolerance is
//   1e-3, still far below what leaving out one element (|x| about 0.5)
//   would change.
// @rows (reduce_sum over the 5000 columns of 6x5000, 3 members): 3 * 6 =
//   18 elements, 5000 steps: a block reduction planned to split into
//   min(ceil(264 / 18) = 15, 5000 / 1024 = 4) = 4 chunks. The model keeps
//   it whole (each thread has four of its steps' loads in flight, so the
//   second launch costs more than the split saves): a block per element,
//   6 blocks per member; thread t's 20 steps (t < 5000 - 19 * 256 = 136)
//   or 19 run four at a time, the last 3 of 19 one at a time. Tolerance
//   as for @sum.
// @long_k (2x4096 @ 4096x3, then + a 2x3 bias; 4 members): a contraction
//   with 4 * 6 = 24 output elements and 4096 steps is a block reduction,
//   not a tile, and the add is its fused epilogue, which thread 0 of each
//   element's block applies: the contraction's result (temporary 0) stays
//   in registers. It is planned to split into min(ceil(264 / 24) = 11,
//   4096 / 1024 = 4) = 4 chunks, but the model keeps it whole (each thread
//   has four of its 16 steps' loads in flight): a block per element, 6
//   blocks per member, the only phase. Sums reach about sqrt(4096) / 3 = 21:
//   absolute tolerance 1e-4 (the results differ by up to 1e-5, seeds 1-8).
// @small (3x8 @ 8x2, 4 members): both tiled loops shorter than 4: 3x2
//   tiles, 1 tile per member, nothing guarded.
// @full (64x3 @ 3x64, 2 members): 16 * 16 = 256 tiles, exactly one block of
//   256 threads, a tile each, nothing guarded.
//
// RUN: rm -rf %t && mkdir -p %t
//
// RUN: ens-run %s --entry=rem --random-inputs=1 --output-dir=%t/rem
// RUN: ens-run %s --entry=rem --random-inputs=1 --backend=cuda-emu --cuda-strategy=member-per-block --expect=%t/rem/out0.npy
// RUN: ens-run %s --entry=rem --random-inputs=1 --backend=cuda-emu --cuda-strategy=members-per-block --expect=%t/rem/out0.npy
// RUN: ens-run %s --entry=rem --random-inputs=1 --backend=cuda-emu --cuda-strategy=tiled --cuda-block-tiles=false --expect=%t/rem/out0.npy
// RUN: ens-run %s --entry=rem --random-inputs=1 --backend=cuda-emu --cuda-strategy=tiled --expect=%t/rem/out0.npy
// RUN: ens-run %s --entry=rem --cuda-plan --cuda-strategy=tiled --cuda-block-tiles=false | FileCheck %s --check-prefix=REM
// REM: phase 0: kernel k0_tiled, 1 blocks per member, points in 4x4 tiles of d1, d2; ens.einsum
//
// RUN: ens-run %s --entry=one_member --random-inputs=2 --output-dir=%t/one_member
// RUN: ens-run %s --entry=one_member --random-inputs=2 --backend=cuda-emu --cuda-strategy=member-per-block --expect=%t/one_member/out0.npy
// RUN: ens-run %s --entry=one_member --random-inputs=2 --backend=cuda-emu --cuda-strategy=members-per-block --expect=%t/one_member/out0.npy
// RUN: ens-run %s --entry=one_member --random-inputs=2 --backend=cuda-emu --cuda-strategy=tiled --expect=%t/one_member/out0.npy
// RUN: ens-run %s --entry=one_member --cuda-plan --cuda-strategy=tiled --cuda-gemm=generated | FileCheck %s --check-prefix=ONE
// ONE:      loop: tiled, 1 members, 256 threads,
// ONE:        phase 0: kernel k0_tiled, 1 blocks per member, {{.*}} with fused epilogue; ens.einsum, ens.tanh
// ONE-NEXT:   phase 1: kernel k1_tiled, 1 blocks per member, {{.*}}; ens.einsum
// ONE-NOT:  {{.}}
//
// RUN: ens-run %s --entry=one_row --random-inputs=3 --output-dir=%t/one_row
// RUN: ens-run %s --entry=one_row --random-inputs=3 --backend=cuda-emu --cuda-strategy=member-per-block --expect=%t/one_row/out0.npy
// RUN: ens-run %s --entry=one_row --random-inputs=3 --backend=cuda-emu --cuda-strategy=members-per-block --expect=%t/one_row/out0.npy
// RUN: ens-run %s --entry=one_row --random-inputs=3 --backend=cuda-emu --cuda-strategy=tiled --expect=%t/one_row/out0.npy
// RUN: ens-run %s --entry=one_row --cuda-plan --cuda-strategy=tiled | FileCheck %s --check-prefix=ROW
// ROW: phase 0: kernel k0_tiled, 2 blocks per member, points; ens.einsum
//
// RUN: ens-run %s --entry=k_one --random-inputs=4 --output-dir=%t/k_one
// RUN: ens-run %s --entry=k_one --random-inputs=4 --backend=cuda-emu --cuda-strategy=member-per-block --expect=%t/k_one/out0.npy
// RUN: ens-run %s --entry=k_one --random-inputs=4 --backend=cuda-emu --cuda-strategy=members-per-block --expect=%t/k_one/out0.npy
// RUN: ens-run %s --entry=k_one --random-inputs=4 --backend=cuda-emu --cuda-strategy=tiled --cuda-block-tiles=false --expect=%t/k_one/out0.npy
// RUN: ens-run %s --entry=k_one --random-inputs=4 --backend=cuda-emu --cuda-strategy=tiled --expect=%t/k_one/out0.npy
// RUN: ens-run %s --entry=k_one --cuda-plan --cuda-strategy=tiled --cuda-block-tiles=false | FileCheck %s --check-prefix=K1
// K1: phase 0: kernel k0_tiled, 1 blocks per member, points in 4x4 tiles of d1, d2; ens.einsum
//
// RUN: ens-run %s --entry=odd --random-inputs=5 --output-dir=%t/odd
// RUN: ens-run %s --entry=odd --random-inputs=5 --backend=cuda-emu --cuda-strategy=member-per-block --expect=%t/odd/out0.npy
// RUN: ens-run %s --entry=odd --random-inputs=5 --backend=cuda-emu --cuda-strategy=members-per-block --expect=%t/odd/out0.npy
// RUN: ens-run %s --entry=odd --random-inputs=5 --backend=cuda-emu --cuda-strategy=tiled --cuda-block-tiles=false --expect=%t/odd/out0.npy
// RUN: ens-run %s --entry=odd --random-inputs=5 --backend=cuda-emu --cuda-strategy=tiled --expect=%t/odd/out0.npy
// RUN: ens-run %s --entry=odd --cuda-plan --cuda-strategy=tiled --cuda-block-tiles=false | FileCheck %s --check-prefix=ODD
// ODD: phase 0: kernel k0_tiled, 1 blocks per member, points in 4x4 tiles of d1, d2; ens.einsum
//
// RUN: ens-run %s --entry=many --random-inputs=6 --output-dir=%t/many
// RUN: ens-run %s --entry=many --random-inputs=6 --backend=cuda-emu --cuda-strategy=member-per-block --expect=%t/many/out0.npy
// RUN: ens-run %s --entry=many --random-inputs=6 --backend=cuda-emu --cuda-strategy=members-per-block --expect=%t/many/out0.npy
// RUN: ens-run %s --entry=many --random-inputs=6 --backend=cuda-emu --cuda-strategy=tiled --expect=%t/many/out0.npy
// RUN: ens-run %s --entry=many --cuda-plan --cuda-strategy=tiled | FileCheck %s --check-prefix=MANY
// MANY:      loop: tiled, 133 members, 256 threads, 0 bytes of shared memory
// MANY-NEXT:   phase 0: kernel k0_tiled, 5 blocks of 64 threads per member, points in 4x4 tiles of d1, d2, consecutive along d2; ens.einsum
//
// RUN: ens-run %s --entry=transposed --random-inputs=7 --output-dir=%t/transposed
// RUN: ens-run %s --entry=transposed --random-inputs=7 --backend=cuda-emu --cuda-strategy=member-per-block --expect=%t/transposed/out0.npy --expect=%t/transposed/out1.npy --expect=%t/transposed/out2.npy
// RUN: ens-run %s --entry=transposed --random-inputs=7 --backend=cuda-emu --cuda-strategy=members-per-block --expect=%t/transposed/out0.npy --expect=%t/transposed/out1.npy --expect=%t/transposed/out2.npy
// RUN: ens-run %s --entry=transposed --random-inputs=7 --backend=cuda-emu --cuda-strategy=tiled --expect=%t/transposed/out0.npy --expect=%t/transposed/out1.npy --expect=%t/transposed/out2.npy
// RUN: ens-run %s --entry=transposed --cuda-plan --cuda-strategy=tiled | FileCheck %s --check-prefix=TRANS
// TRANS: temporary 0: memref<1x6x13xf32>, 312 bytes, global buffer 6
// TRANS: points; ens.transpose
//
// RUN: ens-run %s --entry=epilogue --random-inputs=8 --output-dir=%t/epilogue
// RUN: ens-run %s --entry=epilogue --random-inputs=8 --backend=cuda-emu --cuda-strategy=member-per-block --expect=%t/epilogue/out0.npy
// RUN: ens-run %s --entry=epilogue --random-inputs=8 --backend=cuda-emu --cuda-strategy=members-per-block --expect=%t/epilogue/out0.npy
// RUN: ens-run %s --entry=epilogue --random-inputs=8 --backend=cuda-emu --cuda-strategy=tiled --cuda-block-tiles=false --expect=%t/epilogue/out0.npy
// RUN: ens-run %s --entry=epilogue --random-inputs=8 --backend=cuda-emu --cuda-strategy=tiled --expect=%t/epilogue/out0.npy
// RUN: ens-run %s --entry=epilogue --cuda-plan --cuda-strategy=tiled --cuda-block-tiles=false | FileCheck %s --check-prefix=EPI
// EPI: phase 0: kernel k0_tiled, 2 blocks per member, points in 4x4 tiles of d1, d2 with fused epilogue; ens.einsum, ens.add, ens.tanh
//
// RUN: ens-run %s --entry=sum --random-inputs=9 --output-dir=%t/sum
// RUN: ens-run %s --entry=sum --random-inputs=9 --backend=cuda-emu --cuda-strategy=member-per-block --atol=1e-3 --expect=%t/sum/out0.npy
// RUN: ens-run %s --entry=sum --random-inputs=9 --backend=cuda-emu --cuda-strategy=members-per-block --atol=1e-3 --expect=%t/sum/out0.npy
// RUN: ens-run %s --entry=sum --random-inputs=9 --backend=cuda-emu --cuda-strategy=tiled --atol=1e-3 --expect=%t/sum/out0.npy
// RUN: ens-run %s --entry=sum --cuda-plan --cuda-strategy=tiled | FileCheck %s --check-prefix=SUM
// SUM: phase 0: kernel k0_tiled, 18 blocks per member, block reduction (arith.addf) in 18 chunks through global buffer 2; ens.reduce_sum
//
// RUN: ens-run %s --entry=rows --random-inputs=10 --output-dir=%t/rows
// RUN: ens-run %s --entry=rows --random-inputs=10 --backend=cuda-emu --cuda-strategy=member-per-block --atol=1e-3 --expect=%t/rows/out0.npy
// RUN: ens-run %s --entry=rows --random-inputs=10 --backend=cuda-emu --cuda-strategy=members-per-block --atol=1e-3 --expect=%t/rows/out0.npy
// RUN: ens-run %s --entry=rows --random-inputs=10 --backend=cuda-emu --cuda-strategy=tiled --atol=1e-3 --expect=%t/rows/out0.npy
// RUN: ens-run %s --entry=rows --cuda-plan --cuda-strategy=tiled | FileCheck %s --check-prefix=ROWS
// ROWS: phase 0: kernel k0_tiled, 6 blocks per member, block reduction (arith.addf); ens.reduce_sum
//
// @split_k (64x2048 @ 2048x640, then + bias and relu; 2 members): 2 * 64
//   * 640 = 81920 output elements, at least 264 * 256, so a contraction in
//   points, 4x4 tiles of d1 (64) and d2 (640): 16 * 160 = 2560 tiles, 10
//   blocks per member, 20 in all: fewer than half an H100 wave (66),
//   through 2048 steps (at least 512), so planSplit splits its one
//   reduction loop into min(ceil(264 / 20), 2048 / 64) = 14 even shares
//   of 147 steps; a chunk is whole iterations of the 4 steps a tile loads
//   at a time (getChunkSteps), no longer than the share, so 144 steps at
//   most: ceil(2048 / 144) = 15 chunks of ceil(2048 / 15) = 137 steps
//   rounded up to 140, the last one 88 (each chunk's rows then start
//   16-byte aligned, 128-bit loads). The performance model keeps the split
//   (its estimates are not checked here): one kernel of 2560 * 15 / 128 =
//   300 blocks of 128 threads per member writes the chunks' partial tiles
//   to a buffer (the first after the arguments and result, 4), and the
//   thread of each tile's last chunk to arrive, counted in buffer 5, adds
//   them per point, in order, and applies the bias and relu. Without
//   that (--cuda-finish-last=false), a first kernel of
//   ceil(2560 * 15 / 256) = 150 blocks per member writes the partial tiles
//   and a second adds them. With K = 512 instead and a second kernel, the
//   model keeps the contraction whole (12.4 us against 13.2 us: the
//   second launch costs more than the blocks gain); finished by the last
//   chunks, it splits it in 8. Both strategies accumulate K = 2048 products in f32
//   (the interpreter in double), so atol is 1e-4: each addition rounds by
//   up to u = 6e-8 times a partial sum of random-signed products, about
//   sqrt(k) / 3 <= 15, and K such errors of random sign add to about
//   sqrt(K) * 6e-8 * 15 = 4e-5. Measured: a few 1e-6 (the default atol
//   1e-6 fails on 912 of the 81920 elements).
// RUN: ens-run %s --entry=split_k --random-inputs=17 --output-dir=%t/split_k
// RUN: ens-run %s --entry=split_k --random-inputs=17 --backend=cuda-emu --cuda-strategy=member-per-block --atol=1e-4 --expect=%t/split_k/out0.npy
// RUN: ens-run %s --entry=split_k --random-inputs=17 --backend=cuda-emu --cuda-strategy=members-per-block --atol=1e-4 --expect=%t/split_k/out0.npy
// RUN: ens-run %s --entry=split_k --random-inputs=17 --backend=cuda-emu --cuda-strategy=tiled --atol=1e-4 --expect=%t/split_k/out0.npy
// RUN: ens-run %s --entry=split_k --random-inputs=17 --backend=cuda-emu --cuda-strategy=tiled --cuda-finish-last=false --atol=1e-4 --expect=%t/split_k/out0.npy
// RUN: ens-run %s --entry=split_k --cuda-plan --cuda-strategy=tiled | FileCheck %s --check-prefix=SPLITK
// SPLITK: phase 0: kernel k0_tiled, 300 blocks of 128 threads per member, points in 4x4 tiles of d1, d2, consecutive along d2 in 15 chunks through global buffer 4, each tile finished by its last chunk (counters in global buffer 5) with fused epilogue; ens.einsum, ens.add, ens.relu
// SPLITK-NOT: phase 1
// RUN: ens-run %s --entry=split_k --cuda-plan --cuda-strategy=tiled --cuda-finish-last=false | FileCheck %s --check-prefix=SPLITK2
// SPLITK2: phase 0: kernel k0_tiled, 150 blocks per member, points in 4x4 tiles of d1, d2, consecutive along d2 in 15 chunks through global buffer 4 with fused epilogue; ens.einsum, ens.add, ens.relu
// SPLITK2-NOT: phase 1
// RUN: ens-run %s --entry=split_k --cuda-strategy=tiled --cuda-dump=%t/split_k_cu --kernel-report=json > /dev/null
// RUN: FileCheck %s --check-prefix=CHUNKS < %t/split_k_cu/split_k.cu
// CHUNKS: ens_index [[K:d[0-9]+]] = c * 140;
// CHUNKS-NEXT: const ens_index [[K]]_end = (c * 140 + 140 < 2048 ? c * 140 + 140 : 2048);
// RUN: ens-run %s --entry=long_k --random-inputs=13 --output-dir=%t/long_k
// RUN: ens-run %s --entry=long_k --random-inputs=13 --backend=cuda-emu --cuda-strategy=member-per-block --atol=1e-4 --expect=%t/long_k/out0.npy
// RUN: ens-run %s --entry=long_k --random-inputs=13 --backend=cuda-emu --cuda-strategy=members-per-block --atol=1e-4 --expect=%t/long_k/out0.npy
// RUN: ens-run %s --entry=long_k --random-inputs=13 --backend=cuda-emu --cuda-strategy=tiled --atol=1e-4 --expect=%t/long_k/out0.npy
// RUN: ens-run %s --entry=long_k --cuda-plan --cuda-strategy=tiled | FileCheck %s --check-prefix=LONGK
// LONGK:      temporary 0: memref<1x2x3xf32>, registers
// LONGK-NEXT: phase 0: kernel k0_tiled, 6 blocks per member, block reduction (arith.addf) with fused epilogue; ens.einsum, ens.add
// LONGK-NOT:  phase 1
//
// RUN: ens-run %s --entry=small --random-inputs=11 --output-dir=%t/small
// RUN: ens-run %s --entry=small --random-inputs=11 --backend=cuda-emu --cuda-strategy=member-per-block --expect=%t/small/out0.npy
// RUN: ens-run %s --entry=small --random-inputs=11 --backend=cuda-emu --cuda-strategy=members-per-block --expect=%t/small/out0.npy
// RUN: ens-run %s --entry=small --random-inputs=11 --backend=cuda-emu --cuda-strategy=tiled --cuda-block-tiles=false --expect=%t/small/out0.npy
// RUN: ens-run %s --entry=small --random-inputs=11 --backend=cuda-emu --cuda-strategy=tiled --expect=%t/small/out0.npy
// RUN: ens-run %s --entry=small --cuda-plan --cuda-strategy=tiled --cuda-block-tiles=false | FileCheck %s --check-prefix=SMALL
// SMALL: phase 0: kernel k0_tiled, 1 blocks per member, points in 3x2 tiles of d1, d2, consecutive along d2; ens.einsum
//
// RUN: ens-run %s --entry=full --random-inputs=12 --output-dir=%t/full
// RUN: ens-run %s --entry=full --random-inputs=12 --backend=cuda-emu --cuda-strategy=member-per-block --expect=%t/full/out0.npy
// RUN: ens-run %s --entry=full --random-inputs=12 --backend=cuda-emu --cuda-strategy=members-per-block --expect=%t/full/out0.npy
// RUN: ens-run %s --entry=full --random-inputs=12 --backend=cuda-emu --cuda-strategy=tiled --cuda-block-tiles=false --expect=%t/full/out0.npy
// RUN: ens-run %s --entry=full --random-inputs=12 --backend=cuda-emu --cuda-strategy=tiled --expect=%t/full/out0.npy
// RUN: ens-run %s --entry=full --cuda-plan --cuda-strategy=tiled --cuda-block-tiles=false | FileCheck %s --check-prefix=FULL
// FULL: phase 0: kernel k0_tiled, 1 blocks per member, points in 4x4 tiles of d1, d2, consecutive along d2; ens.einsum
//
// @block_edges (3 members; x 100x40 shared): y1 = x w (w 40x70), y2 = x
// v^T (v 70x40, read transposed: its elements are consecutive along the
// reduction), y3 = x^T d (d 100x70; x read transposed). Each is at least
// a warp tile (32x32) and the 16 steps staged at a time, so planMma plans
// FFMA block tiles, and the full model keeps them (issue #31;
// config_block_tiles.mlir): with the 64 threads it picks for their one
// launch, 32x64 block tiles, ceil(100/32) * ceil(70/64) = 8 blocks per
// member for y1 and y2; y3's 40 rows take warp tiles of 16x32
// (config_warp_tiles.mlir), 16x64 block tiles, ceil(40/16) * 2 = 6
// blocks per member, where 32x64 would leave 4. No size is a
// multiple of the block tile, and 40 and 100 steps leave a partial stage
// of 8 and 4 steps: the copies past the edges are zeros. The copies of
// each operand walk its contiguous loop, so those of v and of x for y3
// walk the steps. y3 adds 100 products in f32 (the interpreter in
// double): its small results miss the default atol 1e-6 under every
// strategy, member-per-block too (by up to 1.3e-6, seeds 1-4 and 11), so
// atol is 1e-5.
// RUN: ens-run %s --entry=block_edges --random-inputs=11 --output-dir=%t/block_edges
// RUN: ens-run %s --entry=block_edges --random-inputs=11 --backend=cuda-emu --cuda-strategy=member-per-block --atol=1e-5 --expect=%t/block_edges/out0.npy --expect=%t/block_edges/out1.npy --expect=%t/block_edges/out2.npy
// RUN: ens-run %s --entry=block_edges --random-inputs=11 --backend=cuda-emu --cuda-strategy=tiled --atol=1e-5 --expect=%t/block_edges/out0.npy --expect=%t/block_edges/out1.npy --expect=%t/block_edges/out2.npy
// RUN: ens-run %s --entry=block_edges --cuda-plan --cuda-strategy=tiled | FileCheck %s --check-prefix=BLOCK
// BLOCK:      phase 0: kernel k0_tiled from block 0, 8 blocks of 64 threads per member, points in 32x64 block tiles of d1, d2, 32x32 per warp in FFMA (8x4 points per thread, 16 steps at a time in 3 cp.async stages through 19968 bytes of shared memory); ens.einsum
// BLOCK-NEXT: phase 1: kernel k0_tiled from block 24, 8 blocks of 64 threads per member, points in 32x64 block tiles of d1, d2, 32x32 per warp in FFMA (8x4 points per thread, 16 steps at a time in 3 cp.async stages through 19968 bytes of shared memory); ens.einsum
// BLOCK-NEXT: phase 2: kernel k0_tiled from block 48, 6 blocks of 64 threads per member, points in 16x64 block tiles of d1, d2, 16x32 per warp in FFMA (4x4 points per thread, 16 steps at a time in 3 cp.async stages of 16- and 4-byte copies through 16896 bytes of shared memory); ens.einsum

func.func @rem_member(%x: tensor<6x5xf32>, %w: tensor<5x7xf32>) -> tensor<6x7xf32> {
  %y = ens.matmul %x, %w : tensor<6x5xf32>, tensor<5x7xf32> -> tensor<6x7xf32>
  return %y : tensor<6x7xf32>
}
func.func @rem(%x: tensor<6x5xf32>, %w: tensor<3x5x7xf32>) -> tensor<3x6x7xf32> {
  %y = ens.vmap @rem_member(%x, %w) {in_axes = array<i64: -1, 0>, out_axes = array<i64: 0>, size = 3 : i64}
      : (tensor<6x5xf32>, tensor<3x5x7xf32>) -> tensor<3x6x7xf32>
  return %y : tensor<3x6x7xf32>
}

func.func @one_member_member(%x: tensor<20x12xf32>, %w1: tensor<12x9xf32>, %w2: tensor<9x5xf32>) -> tensor<20x5xf32> {
  %a = ens.matmul %x, %w1 : tensor<20x12xf32>, tensor<12x9xf32> -> tensor<20x9xf32>
  %h = ens.tanh %a : tensor<20x9xf32>
  %y = ens.matmul %h, %w2 : tensor<20x9xf32>, tensor<9x5xf32> -> tensor<20x5xf32>
  return %y : tensor<20x5xf32>
}
func.func @one_member(%x: tensor<20x12xf32>, %w1: tensor<1x12x9xf32>, %w2: tensor<1x9x5xf32>) -> tensor<1x20x5xf32> {
  %y = ens.vmap @one_member_member(%x, %w1, %w2) {in_axes = array<i64: -1, 0, 0>, out_axes = array<i64: 0>, size = 1 : i64}
      : (tensor<20x12xf32>, tensor<1x12x9xf32>, tensor<1x9x5xf32>) -> tensor<1x20x5xf32>
  return %y : tensor<1x20x5xf32>
}

func.func @one_row_member(%x: tensor<1x24xf32>, %w: tensor<24x300xf32>) -> tensor<1x300xf32> {
  %y = ens.matmul %x, %w : tensor<1x24xf32>, tensor<24x300xf32> -> tensor<1x300xf32>
  return %y : tensor<1x300xf32>
}
func.func @one_row(%x: tensor<1x24xf32>, %w: tensor<4x24x300xf32>) -> tensor<4x1x300xf32> {
  %y = ens.vmap @one_row_member(%x, %w) {in_axes = array<i64: -1, 0>, out_axes = array<i64: 0>, size = 4 : i64}
      : (tensor<1x24xf32>, tensor<4x24x300xf32>) -> tensor<4x1x300xf32>
  return %y : tensor<4x1x300xf32>
}

func.func @k_one_member(%x: tensor<9x1xf32>, %w: tensor<1x11xf32>) -> tensor<9x11xf32> {
  %y = ens.matmul %x, %w : tensor<9x1xf32>, tensor<1x11xf32> -> tensor<9x11xf32>
  return %y : tensor<9x11xf32>
}
func.func @k_one(%x: tensor<9x1xf32>, %w: tensor<5x1x11xf32>) -> tensor<5x9x11xf32> {
  %y = ens.vmap @k_one_member(%x, %w) {in_axes = array<i64: -1, 0>, out_axes = array<i64: 0>, size = 5 : i64}
      : (tensor<9x1xf32>, tensor<5x1x11xf32>) -> tensor<5x9x11xf32>
  return %y : tensor<5x9x11xf32>
}

func.func @odd_member(%x: tensor<37x13xf32>, %w: tensor<13x29xf32>) -> tensor<37x29xf32> {
  %y = ens.matmul %x, %w : tensor<37x13xf32>, tensor<13x29xf32> -> tensor<37x29xf32>
  return %y : tensor<37x29xf32>
}
func.func @odd(%x: tensor<37x13xf32>, %w: tensor<7x13x29xf32>) -> tensor<7x37x29xf32> {
  %y = ens.vmap @odd_member(%x, %w) {in_axes = array<i64: -1, 0>, out_axes = array<i64: 0>, size = 7 : i64}
      : (tensor<37x13xf32>, tensor<7x13x29xf32>) -> tensor<7x37x29xf32>
  return %y : tensor<7x37x29xf32>
}

func.func @many_member(%x: tensor<64x20xf32>, %w: tensor<20x72xf32>) -> tensor<64x72xf32> {
  %y = ens.matmul %x, %w : tensor<64x20xf32>, tensor<20x72xf32> -> tensor<64x72xf32>
  return %y : tensor<64x72xf32>
}
func.func @many(%x: tensor<64x20xf32>, %w: tensor<133x20x72xf32>) -> tensor<133x64x72xf32> {
  %y = ens.vmap @many_member(%x, %w) {in_axes = array<i64: -1, 0>, out_axes = array<i64: 0>, size = 133 : i64}
      : (tensor<64x20xf32>, tensor<133x20x72xf32>) -> tensor<133x64x72xf32>
  return %y : tensor<133x64x72xf32>
}

func.func @transposed_member(%x: tensor<10x6xf32>, %w: tensor<13x6xf32>, %v: tensor<6x10xf32>)
    -> (tensor<10x13xf32>, tensor<10x13xf32>, tensor<13x10xf32>) {
  %a = ens.einsum %x, %w {spec = "bi,oi->bo"} : tensor<10x6xf32>, tensor<13x6xf32> -> tensor<10x13xf32>
  %wt = ens.transpose %w {permutation = array<i64: 1, 0>} : tensor<13x6xf32> -> tensor<6x13xf32>
  %b = ens.matmul %x, %wt : tensor<10x6xf32>, tensor<6x13xf32> -> tensor<10x13xf32>
  %c = ens.einsum %v, %w {spec = "ib,oi->ob"} : tensor<6x10xf32>, tensor<13x6xf32> -> tensor<13x10xf32>
  return %a, %b, %c : tensor<10x13xf32>, tensor<10x13xf32>, tensor<13x10xf32>
}
func.func @transposed(%x: tensor<10x6xf32>, %w: tensor<3x13x6xf32>, %v: tensor<3x6x10xf32>)
    -> (tensor<3x10x13xf32>, tensor<3x10x13xf32>, tensor<3x13x10xf32>) {
  %a, %b, %c = ens.vmap @transposed_member(%x, %w, %v) {in_axes = array<i64: -1, 0, 0>, out_axes = array<i64: 0, 0, 0>, size = 3 : i64}
      : (tensor<10x6xf32>, tensor<3x13x6xf32>, tensor<3x6x10xf32>) -> (tensor<3x10x13xf32>, tensor<3x10x13xf32>, tensor<3x13x10xf32>)
  return %a, %b, %c : tensor<3x10x13xf32>, tensor<3x10x13xf32>, tensor<3x13x10xf32>
}

func.func @epilogue_member(%x: tensor<67x10xf32>, %w: tensor<10x61xf32>, %b: tensor<61xf32>) -> tensor<67x61xf32> {
  %a = ens.matmul %x, %w : tensor<67x10xf32>, tensor<10x61xf32> -> tensor<67x61xf32>
  %bb = ens.broadcast_in_dim %b {dims = array<i64: 1>} : tensor<61xf32> -> tensor<67x61xf32>
  %s = ens.add %a, %bb : tensor<67x61xf32>
  %h = ens.tanh %s : tensor<67x61xf32>
  return %h : tensor<67x61xf32>
}
func.func @epilogue(%x: tensor<67x10xf32>, %w: tensor<6x10x61xf32>, %b: tensor<6x61xf32>) -> tensor<6x67x61xf32> {
  %y = ens.vmap @epilogue_member(%x, %w, %b) {in_axes = array<i64: -1, 0, 0>, out_axes = array<i64: 0>, size = 6 : i64}
      : (tensor<67x10xf32>, tensor<6x10x61xf32>, tensor<6x61xf32>) -> tensor<6x67x61xf32>
  return %y : tensor<6x67x61xf32>
}

func.func @sum_member(%x: tensor<64x300xf32>) -> tensor<f32> {
  %r = ens.reduce_sum %x {dims = array<i64: 0, 1>} : tensor<64x300xf32> -> tensor<f32>
  return %r : tensor<f32>
}
func.func @sum(%x: tensor<5x64x300xf32>) -> tensor<5xf32> {
  %r = ens.vmap @sum_member(%x) {in_axes = array<i64: 0>, out_axes = array<i64: 0>, size = 5 : i64}
      : (tensor<5x64x300xf32>) -> tensor<5xf32>
  return %r : tensor<5xf32>
}

func.func @rows_member(%x: tensor<6x5000xf32>) -> tensor<6xf32> {
  %r = ens.reduce_sum %x {dims = array<i64: 1>} : tensor<6x5000xf32> -> tensor<6xf32>
  return %r : tensor<6xf32>
}
func.func @rows(%x: tensor<3x6x5000xf32>) -> tensor<3x6xf32> {
  %r = ens.vmap @rows_member(%x) {in_axes = array<i64: 0>, out_axes = array<i64: 0>, size = 3 : i64}
      : (tensor<3x6x5000xf32>) -> tensor<3x6xf32>
  return %r : tensor<3x6xf32>
}

func.func @long_k_member(%x: tensor<2x4096xf32>, %w: tensor<4096x3xf32>, %b: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %a = ens.matmul %x, %w : tensor<2x4096xf32>, tensor<4096x3xf32> -> tensor<2x3xf32>
  %y = ens.add %a, %b : tensor<2x3xf32>
  return %y : tensor<2x3xf32>
}
func.func @long_k(%x: tensor<2x4096xf32>, %w: tensor<4x4096x3xf32>, %b: tensor<4x2x3xf32>) -> tensor<4x2x3xf32> {
  %y = ens.vmap @long_k_member(%x, %w, %b) {in_axes = array<i64: -1, 0, 0>, out_axes = array<i64: 0>, size = 4 : i64}
      : (tensor<2x4096xf32>, tensor<4x4096x3xf32>, tensor<4x2x3xf32>) -> tensor<4x2x3xf32>
  return %y : tensor<4x2x3xf32>
}

func.func @small_member(%x: tensor<3x8xf32>, %w: tensor<8x2xf32>) -> tensor<3x2xf32> {
  %y = ens.matmul %x, %w : tensor<3x8xf32>, tensor<8x2xf32> -> tensor<3x2xf32>
  return %y : tensor<3x2xf32>
}
func.func @small(%x: tensor<3x8xf32>, %w: tensor<4x8x2xf32>) -> tensor<4x3x2xf32> {
  %y = ens.vmap @small_member(%x, %w) {in_axes = array<i64: -1, 0>, out_axes = array<i64: 0>, size = 4 : i64}
      : (tensor<3x8xf32>, tensor<4x8x2xf32>) -> tensor<4x3x2xf32>
  return %y : tensor<4x3x2xf32>
}

func.func @full_member(%x: tensor<64x3xf32>, %w: tensor<3x64xf32>) -> tensor<64x64xf32> {
  %y = ens.matmul %x, %w : tensor<64x3xf32>, tensor<3x64xf32> -> tensor<64x64xf32>
  return %y : tensor<64x64xf32>
}
func.func @full(%x: tensor<64x3xf32>, %w: tensor<2x3x64xf32>) -> tensor<2x64x64xf32> {
  %y = ens.vmap @full_member(%x, %w) {in_axes = array<i64: -1, 0>, out_axes = array<i64: 0>, size = 2 : i64}
      : (tensor<64x3xf32>, tensor<2x3x64xf32>) -> tensor<2x64x64xf32>
  return %y : tensor<2x64x64xf32>
}

func.func @split_k_member(%x: tensor<64x2048xf32>, %w: tensor<2048x640xf32>, %b: tensor<640xf32>) -> tensor<64x640xf32> {
  %a = ens.matmul %x, %w : tensor<64x2048xf32>, tensor<2048x640xf32> -> tensor<64x640xf32>
  %bb = ens.broadcast_in_dim %b {dims = array<i64: 1>} : tensor<640xf32> -> tensor<64x640xf32>
  %s = ens.add %a, %bb : tensor<64x640xf32>
  %y = ens.relu %s : tensor<64x640xf32>
  return %y : tensor<64x640xf32>
}
func.func @split_k(%x: tensor<64x2048xf32>, %w: tensor<2x2048x640xf32>, %b: tensor<2x640xf32>) -> tensor<2x64x640xf32> {
  %y = ens.vmap @split_k_member(%x, %w, %b) {in_axes = array<i64: -1, 0, 0>, out_axes = array<i64: 0>, size = 2 : i64}
      : (tensor<64x2048xf32>, tensor<2x2048x640xf32>, tensor<2x640xf32>) -> tensor<2x64x640xf32>
  return %y : tensor<2x64x640xf32>
}
func.func @block_edges_member(%x: tensor<100x40xf32>, %w: tensor<40x70xf32>, %v: tensor<70x40xf32>, %d: tensor<100x70xf32>) -> (tensor<100x70xf32>, tensor<100x70xf32>, tensor<40x70xf32>) {
  %y1 = ens.einsum %x, %w {spec = "bi,io->bo"} : tensor<100x40xf32>, tensor<40x70xf32> -> tensor<100x70xf32>
  %y2 = ens.einsum %x, %v {spec = "bi,oi->bo"} : tensor<100x40xf32>, tensor<70x40xf32> -> tensor<100x70xf32>
  %y3 = ens.einsum %x, %d {spec = "bi,bo->io"} : tensor<100x40xf32>, tensor<100x70xf32> -> tensor<40x70xf32>
  return %y1, %y2, %y3 : tensor<100x70xf32>, tensor<100x70xf32>, tensor<40x70xf32>
}
func.func @block_edges(%x: tensor<100x40xf32>, %w: tensor<3x40x70xf32>, %v: tensor<3x70x40xf32>, %d: tensor<3x100x70xf32>) -> (tensor<3x100x70xf32>, tensor<3x100x70xf32>, tensor<3x40x70xf32>) {
  %y1, %y2, %y3 = ens.vmap @block_edges_member(%x, %w, %v, %d) {in_axes = array<i64: -1, 0, 0, 0>, out_axes = array<i64: 0, 0, 0>, size = 3 : i64}
      : (tensor<100x40xf32>, tensor<3x40x70xf32>, tensor<3x70x40xf32>, tensor<3x100x70xf32>) -> (tensor<3x100x70xf32>, tensor<3x100x70xf32>, tensor<3x40x70xf32>)
  return %y1, %y2, %y3 : tensor<3x100x70xf32>, tensor<3x100x70xf32>, tensor<3x40x70xf32>
}
