//===- KernelConfig.h - The GPU decisions behind a kernel -------*- C++ -*-===//
//
// The decisions the CUDA backend takes for each kernel of a loop over the
// members of an ensemble, as plain data: how the members are shared out
// (the strategy), threads per block, where each temporary of a member lives,
// and per op of the loop body how the block computes it, which operands it
// stages in shared memory and whether an epilogue runs in registers.
// Planning fills a KernelConfig; emission only reads it, and
// `ens-run --cuda-plan` prints it (docs/cuda.md, "The launch plan").
//
//===----------------------------------------------------------------------===//

#ifndef ENS_BACKEND_CUDA_KERNELCONFIG_H
#define ENS_BACKEND_CUDA_KERNELCONFIG_H

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace mlir::ens::cuda {

struct CudaProgram;

/// How a loop over the members of an ensemble is shared out on the GPU.
enum class Strategy {
  /// One block per member: the block runs the ops of the loop body one
  /// after another, separated by barriers, and its threads share out the
  /// output elements of each op.
  MemberPerBlock,
  /// Each op of the loop body its own blocks of a launch, which share out
  /// the points of every member: a member spreads over as many blocks as
  /// its points fill. Independent ops share a launch, side by side. Temporaries
  /// live in global memory, one slice per member,
  /// and a contraction gives each thread a register tile of points.
  Tiled,
  /// Several members per block, a warp each: warp w of block b computes
  /// member b * P + w (P members per block), running the ops of the loop
  /// body one after another, separated by __syncwarp(), its lanes sharing
  /// out the output elements of each op. Each member's temporaries live in
  /// its own slice of the block's shared memory. For very many tiny
  /// members, which leave most threads of a block per member idle.
  MembersPerBlock,
};

/// The name of `strategy` ("member-per-block"), as `--cuda-strategy` takes
/// it and plans print it.
StringRef stringifyStrategy(Strategy strategy);

/// Every strategy, in the order of their names in messages.
ArrayRef<Strategy> getAllStrategies();

/// The strategy that code generation uses for every loop over members, or
/// none: then the performance model picks one per loop.
using StrategyChoice = std::optional<Strategy>;

/// The choice that `--cuda-strategy=NAME` and ExecutableOptions name:
/// "auto" (or empty) for the model's pick, or a strategy; none if `name`
/// is neither.
std::optional<StrategyChoice> parseStrategyChoice(StringRef name);

/// The names `parseStrategyChoice` takes, separated by ", ", for messages.
std::string getStrategyNames();

/// Who computes a contraction that is a plain (batched) matrix product
/// (docs/cuda.md, "Vendor GEMM steps"): `--cuda-gemm=NAME` and
/// ExecutableOptions name it.
enum class GemmChoice {
  /// The performance model: the vendor GEMM where its estimate is lower.
  Auto,
  /// Always the generated kernels.
  Generated,
  /// Always the vendor GEMM (cuBLAS), where the contraction is one.
  Cublas,
};

/// The choice that `--cuda-gemm=NAME` names ("auto" or empty, "generated",
/// "cublas"); none if `name` is none of them.
std::optional<GemmChoice> parseGemmChoice(StringRef name);

/// The names `parseGemmChoice` takes, separated by ", ", for messages.
std::string getGemmChoiceNames();

/// How a contraction's products are computed on the GPU
/// (`--gpu-precision`, ExecutableOptions::cuda.codegen.precision).
enum class Precision {
  /// FP32 fused multiply-adds (the default).
  F32,
  /// TF32 tensor cores: each operand rounded to 10 mantissa bits, the
  /// products accumulated in f32.
  Tf32,
  /// Three TF32 tensor-core products per product (3xTF32): each operand
  /// split into two TF32 numbers, about f32's accuracy.
  Tf32x3,
};

/// The name of `precision` ("tf32"), as `--gpu-precision` takes it.
StringRef stringifyPrecision(Precision precision);

/// The precision that `--gpu-precision=NAME` names: "f32" (or empty),
/// "tf32" or "3xtf32"; none for another name.
std::optional<Precision> parsePrecision(StringRef name);

/// The names `parsePrecision` takes, separated by ", ", for messages.
std::string getPrecisionNames();

/// The name of `gemm` ("cublas"), as `--cuda-gemm` takes it.
StringRef stringifyGemmChoice(GemmChoice gemm);

/// How the CUDA code generator decides what a user may choose: the
/// strategy of every loop over members, who computes matrix products, and
/// at what precision. One struct from the command line or the C++ API to
/// generateCuda, parsed once from the names users write
/// (parseCodegenOptions).
struct CodegenOptions {
  /// None: the performance model picks per loop.
  StrategyChoice strategy;
  GemmChoice gemm = GemmChoice::Auto;
  Precision precision = Precision::F32;
};

/// The options that `--cuda-strategy`, `--cuda-gemm` and `--gpu-precision`
/// name (each empty for its default), or an error for the first unknown
/// name, listing the known ones and, with `nameFlags`, naming its flag.
llvm::Expected<CodegenOptions> parseCodegenOptions(StringRef strategy,
                                                   StringRef gemm,
                                                   StringRef precision,
                                                   bool nameFlags = false);

/// Where a temporary of one member lives while its kernel runs.
enum class MemorySpace {
  /// The block's dynamic shared memory.
  Shared,
  /// A plan buffer in global memory with one slice per member.
  Global,
  /// Nowhere: the result of a contraction that its fused epilogue consumes
  /// in registers.
  Registers,
};

/// A temporary (an allocation of the loop body) of one member.
struct TemporaryConfig {
  /// Its type as MLIR prints it ("memref<256x32xf32>").
  std::string type;
  /// Bytes of one member's temporary in memory; 0 when nothing uses it or
  /// it lives in registers.
  int64_t bytes = 0;
  MemorySpace space = MemorySpace::Shared;
  /// In shared memory: its byte offset in the block's dynamic shared memory.
  /// In global memory: the plan buffer that holds it.
  int64_t location = 0;
  /// In shared memory: whether its rows are swizzled (planSwizzle): the
  /// 16-byte piece c of row r is stored at piece c ^ (r % 8) of the row.
  bool swizzled = false;
};

/// An operand that an op copies from global into shared memory before it
/// reads it, since it reads each element many times.
struct StagedOperand {
  /// The operand number in the op.
  unsigned operand = 0;
  int64_t bytes = 0;
  /// Its byte offset in the block's dynamic shared memory.
  int64_t offset = 0;
};

/// The points of a contraction that one thread computes together: a tile
/// over two parallel loops of the op, whose operands' elements it loads
/// once per reduction step for all the points that read them. Empty: one
/// point at a time.
struct TileConfig {
  /// The two loops (positions among the op's loops): the rows, then the
  /// columns, which vary fastest among the threads of a warp.
  SmallVector<unsigned, 2> loops;
  /// Points per thread along each of `loops`.
  SmallVector<int64_t, 2> sizes;
  /// Whether a thread's points along each of `loops` are consecutive (point
  /// s of tile t at t * size + s), so that an operand it reads along that
  /// loop at unit stride takes one 64- or 128-bit access for them, rather
  /// than a tile count apart (t + s * tiles, each point next to the
  /// neighbouring threads' points). Empty: neither.
  SmallVector<bool, 2> consecutive;
  /// The reduction steps a thread loads before their FMAs, together in
  /// flight (the unrolled step loop).
  int64_t unroll = 4;

  bool empty() const { return loops.empty(); }
  /// Whether the points along `loops[k]` are consecutive.
  bool isConsecutive(unsigned k) const {
    return k < consecutive.size() && consecutive[k];
  }
};

/// A contraction's points that the warps of a block compute together from
/// block tiles of both operands staged in shared memory a few reduction
/// steps at a time (a cp.async pipeline), with the tiled strategy: each
/// block a block tile of the rows and columns of its `TileConfig`, each
/// warp a warp tile of it, on TF32 tensor cores (mma.sync m16n8k8) or, in
/// FP32, in FFMA, each thread a register micro-tile of the warp tile.
struct MmaConfig {
  /// F32: FFMA (block tiles if `warpRows` is set, else register tiles of
  /// the thread's own loads); TF32 or 3xTF32: tensor cores.
  Precision precision = Precision::F32;
  /// The points of a warp's tile along the rows and the columns: on tensor
  /// cores multiples of 16 and 8 (mma.sync's m and n); in FFMA multiples of
  /// 16 and 32 (4 x 8 threads, each 4 consecutive points at a time).
  int64_t warpRows = 0, warpCols = 0;
  /// The reduction steps staged in shared memory at a time (on tensor
  /// cores a multiple of mma.sync's k, 8).
  int64_t stepsStaged = 0;
  /// The shared-memory stages of the cp.async pipeline: while the warps
  /// multiply the steps of one, the copies of the next `stages - 1` are in
  /// flight (1: each stage's copies are waited for before its products).
  int64_t stages = 1;
  /// The words (4-byte elements) each cp.async copies of a's and of b's
  /// block tile: 4 (16 bytes) where planBlockTileCopies proved every copy's
  /// words consecutive and 16-byte aligned in global memory and in the
  /// stage, else 1.
  std::array<int64_t, 2> copyWords = {1, 1};
  /// On tensor cores, whether a's stage holds each step's rows
  /// consecutively, as the operand's rows are in memory (a transposed
  /// operand: a weight gradient's xᵀ), rather than each row's steps. (In
  /// FFMA a's stage always holds each step's rows: its micro-tiles read 4
  /// consecutive rows of a step; see stagesAByRows.)
  bool aByStepsOnTensorCores = false;
  /// On tensor cores, whether b's stage holds each column's steps
  /// consecutively, as the operand's steps are in memory (a transposed
  /// operand: Wᵀ in dX = dY Wᵀ), rather than each step's columns; in FFMA
  /// never.
  bool bByColumnsOnTensorCores = false;
  /// When the program asks for tensor cores and the contraction computes
  /// in FFMA register tiles instead: why.
  std::string fallback;

  /// Whether the warps compute on tensor cores.
  bool enabled() const { return precision != Precision::F32; }
  /// Whether the block stages block tiles in shared memory (on tensor
  /// cores or in FFMA).
  bool blockTiled() const { return warpRows > 0; }
  /// Whether a's stage holds each row's steps consecutively rather than
  /// each step's rows.
  bool stagesAByRows() const { return enabled() && !aByStepsOnTensorCores; }
  /// Whether b's stage holds each column's steps consecutively rather than
  /// each step's columns.
  bool stagesBByColumns() const { return enabled() && bByColumnsOnTensorCores; }
};

/// In FFMA block tiles, a warp's threads along the rows and the columns of
/// its warp tile.
inline constexpr int64_t kFfmaThreadRows = 4, kFfmaThreadCols = 8;

/// The points (rows, columns) of the block tile of `mma` in blocks of
/// `threads`: the block's warps side by side along the columns, in two
/// rows of warps where there are at least four.
std::pair<int64_t, int64_t> getMmaBlockTile(const MmaConfig &mma,
                                            unsigned threads);

/// Where a block of `threads` stages `mma`'s operands in its dynamic shared
/// memory: each of `mma.stages` stages of `stageFloats` floats holds a's
/// block tile, then b's (at `offsetB` floats). a holds the block tile's
/// rows of `strideA` floats (the staged steps and a padding; tensor cores
/// unless MmaConfig::aByStepsOnTensorCores), or the staged steps of
/// `strideA` floats (the rows and a padding); b holds the staged steps of
/// `strideB` floats (the columns and a padding), or on tensor cores with
/// MmaConfig::bByColumnsOnTensorCores the block tile's columns of
/// `strideB` floats (the staged steps and a padding). `bytes` in all.
struct MmaStaging {
  int64_t strideA, strideB, offsetB, stageFloats, bytes;
  /// Whether a's stage holds each row's steps consecutively rather than
  /// each step's rows, and b's each column's rather than each step's
  /// columns.
  bool aByRows, bByCols;
};
MmaStaging getMmaStaging(const MmaConfig &mma, unsigned threads);

/// How a block computes one op of the loop body.
enum class PhaseKind {
  /// Each thread computes whole output elements in turn.
  Points,
  /// The block walks the output elements together: each thread combines a
  /// share of an element's reduction steps, and the block combines the
  /// shares (ens_block_reduce).
  BlockReduction,
  /// Thread 0 runs an scf.for nest alone, in order.
  Serial,
  /// With the tiled strategy, a contraction that the vendor's strided
  /// batched GEMM computes for all members in one call: a step of the plan
  /// (LaunchPlan::gemms) instead of a kernel.
  VendorGemm,
};

/// One op of the loop body, which the block computes between two barriers.
struct PhaseConfig {
  /// The ens ops it computes, with those of a fused epilogue.
  std::string sourceOps;
  PhaseKind kind = PhaseKind::Points;
  /// For a block reduction: the op that combines two partial results
  /// ("arith.addf").
  std::string combiner;
  /// For a block reduction with the member-per-block strategy: each warp
  /// takes whole output elements, its lanes combining shares of an
  /// element's steps with shuffles, and the block's warps take different
  /// elements at once, with no barrier between elements.
  bool byWarps = false;
  /// For a block reduction with the tiled strategy that reads its inputs
  /// contiguously along its output elements and not along its steps (a
  /// column sum): each warp's lanes take 32 consecutive output elements,
  /// the block's warps share their steps, and the warps' shares combine
  /// through shared memory, so that a warp's loads are coalesced.
  bool lanesAlongOutputs = false;
  /// Whether the elementwise op after this contraction runs on its
  /// accumulators in registers, so that the contraction's result never
  /// reaches memory.
  bool fusedEpilogue = false;
  llvm::SmallVector<StagedOperand, 2> staged;
  /// Whether the phase stages its operand number `operand`.
  bool isStaged(unsigned operand) const {
    return llvm::any_of(staged, [&](const StagedOperand &copy) {
      return copy.operand == operand;
    });
  }
  /// With the tiled strategy: the position in the launch plan of the
  /// phase's kernel (for a vendor GEMM, of its step among the plan's GEMM
  /// steps), and how many blocks each member takes.
  unsigned kernel = 0;
  int64_t blocksPerMember = 1;
  /// With the tiled strategy: the threads of each of those blocks, those of
  /// every block of the phase's launch, which the performance model picks
  /// per launch (fewer threads give a small phase more blocks, and so more
  /// SMs); 1 for a serial phase.
  unsigned threads = 0;
  /// With the tiled strategy: the launch of the loop, counted from 0, that
  /// runs the phase, and the first of its blocks in that launch's grid.
  /// Phases that share a launch touch no global buffer that another of
  /// them writes, so they run side by side, each in its own blocks.
  unsigned launch = 0;
  int64_t firstBlock = 0;
  /// The points each thread computes together.
  TileConfig tile;
  /// Whether the warps compute the points of `tile`'s loops on tensor
  /// cores instead.
  MmaConfig mma;
  /// With the tiled strategy, a block reduction, or a contraction in
  /// register tiles, whose blocks are too few to fill the GPU splits each
  /// output element's steps into `chunks` (1: no split). Each chunk's
  /// partial result goes to plan buffer `partials` (members x elements x
  /// chunks, in the order the phase's kernels choose), and a second kernel,
  /// the next in the plan, combines the chunks of each element (and applies
  /// a contraction's fused epilogue). With `finishLast` (a contraction in
  /// register tiles), there is no second kernel: the thread whose chunk of
  /// a tile is the last to arrive, as counted in plan buffer `counters`
  /// (an i32 a tile of every member, zero before the kernel and after it),
  /// adds the tile's chunks in order and applies the epilogue.
  ///
  /// With the member-per-block strategy, a contraction in register tiles
  /// fewer than the block's threads splits its one reduction into `chunks`
  /// within the block instead: chunk c of tile q is thread c * tiles + q,
  /// the partial results of the points other chunks finish go to shared
  /// memory at byte `partials`, and after one barrier the thread of chunk
  /// c adds up the c-th share of its tile's points in chunk order and
  /// applies the epilogue to them (planBlockSplit).
  int64_t chunks = 1;
  int64_t partials = 0;
  bool finishLast = false;
  int64_t counters = 0;
};

/// The performance model's pick between generated kernels and a vendor
/// GEMM step for a contraction that is a matrix product (--cuda-gemm=auto).
struct GemmDecision {
  /// The ens ops of the contraction.
  std::string sourceOps;
  /// The estimates on the target GPU, in microseconds, of the generated kernels
  /// and of the step.
  double generatedUs = 0, gemmUs = 0;
  bool vendor = false;
};

/// The decisions behind the kernel of one loop over members.
struct KernelConfig {
  /// The kernel's position in the launch plan (with the tiled strategy, the
  /// first phase's kernel).
  unsigned kernel = 0;
  /// The first of the kernel's blocks that compute the loop's members: 0,
  /// unless the kernel runs other, independent loops over members in the
  /// blocks before (the groups of a heterogeneous ensemble share launches).
  int64_t firstBlock = 0;
  Strategy strategy = Strategy::MemberPerBlock;
  /// The loop's trip count.
  int64_t members = 0;
  unsigned threadsPerBlock = 0;
  /// The width of the kernels' index arithmetic and loop counters
  /// (`ens_index` in their source): 32 bits where the plan proves that
  /// every index they compute fits (planIndexBits), else 64.
  unsigned indexBits = 64;
  /// Dynamic shared memory per block: the temporaries, then the operands
  /// that the op staging most stages.
  int64_t sharedBytes = 0;
  /// In the order of their allocations in the loop body.
  std::vector<TemporaryConfig> temporaries;
  /// In the order the block runs them.
  std::vector<PhaseConfig> phases;
  /// With the members-per-block strategy: the members each block computes
  /// (the last block computes what is left), the threads of each (a warp),
  /// and the bytes of its slice of the block's dynamic shared memory
  /// (`sharedBytes` is `membersPerBlock` slices). The performance model
  /// picks `membersPerBlock`.
  int64_t membersPerBlock = 1;
  unsigned threadsPerMember = 0;
  int64_t sharedBytesPerMember = 0;
  /// When the performance model picked the strategy: each strategy's
  /// estimate of the loop's kernels on the target GPU, in microseconds, in the
  /// order of Strategy.
  std::vector<double> estimatesUs;
};

/// The configs of `program` in the stable text form that
/// `ens-run --cuda-plan` prints (docs/cuda.md describes it).
std::string printKernelConfigs(const CudaProgram &program);

} // namespace mlir::ens::cuda

#endif // ENS_BACKEND_CUDA_KERNELCONFIG_H
