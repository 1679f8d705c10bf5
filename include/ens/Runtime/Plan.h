//===- Plan.h - What an ens program is made of, as plain data --*- C++ -*-===//
//
// The element types, the signature and the CUDA launch plan of a compiled
// function. The compiler builds them (lib/Backend/Cuda) and the runtime
// runs them; both use these definitions, which need nothing but the C++
// standard library.
//
//===----------------------------------------------------------------------===//

#ifndef ENS_RUNTIME_PLAN_H
#define ENS_RUNTIME_PLAN_H

#include "ens/Runtime/Error.h"

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ens::runtime {

/// The element types of ens tensors.
enum class DType { F16, BF16, F32, F64, I32, I1 };

/// The name used in MLIR types: "f32", "i1", ...
const char *getDTypeSpelling(DType dtype);
/// Parses a name produced by getDTypeSpelling.
std::optional<DType> parseDTypeSpelling(std::string_view name);
/// The bytes of one element in memory laid out as in C: f32 as float, f64
/// as double, i32 as int32_t, 16-bit floats as their bits, i1 as one byte.
size_t getDTypeBytes(DType dtype);

/// The bytes of a dense tensor of `dtype` and `shape`, or nothing when a
/// dimension is negative or the product overflows int64_t.
std::optional<int64_t> getDenseBytes(DType dtype,
                                     const std::vector<int64_t> &shape);

/// Element `i` of dense memory `data` of `dtype` (laid out as
/// getDTypeBytes says) as a double, which holds every value exactly: i1 as
/// 0 or 1, a NaN of any payload as a NaN.
double loadElement(const void *data, DType dtype, int64_t i);

/// A tensor of a signature: its element type, shape, and name where the
/// program gives one.
struct TensorSpec {
  std::string name;
  DType dtype = DType::F32;
  std::vector<int64_t> shape;

  /// The MLIR spelling of its type, e.g. "tensor<2x3xf32>".
  std::string getTypeString() const;
};

/// The arguments and results of a compiled function.
struct Signature {
  std::vector<TensorSpec> args, results;
};

/// What a buffer of the launch plan holds.
enum class BufferKind {
  /// Argument `index` of the function, read only.
  Input,
  /// Result `index` of the function.
  Output,
  /// An intermediate the plan allocates.
  Temporary,
  /// A constant, initialized from `init` before the first kernel.
  Constant,
};

/// "input", "output", "temporary" or "constant".
const char *getBufferKindName(BufferKind kind);
/// The kind named `name` (see getBufferKindName).
std::optional<BufferKind> parseBufferKindName(std::string_view name);

/// One buffer of the launch plan: dense row-major memory.
struct BufferInfo {
  BufferKind kind;
  /// The argument or result number for inputs and outputs.
  unsigned index = 0;
  DType dtype;
  std::vector<int64_t> shape;
  int64_t bytes = 0;
  /// The bytes of a constant.
  std::vector<uint8_t> init;
  /// Where a temporary starts in the plan's arena.
  int64_t arenaOffset = 0;
};

/// An argument of a kernel launch: a buffer's base address or a scalar.
struct KernelArg {
  bool isBuffer;
  /// A buffer id, or the value of a `long long` scalar.
  int64_t value;
};

/// One kernel of the generated source.
struct KernelInfo {
  std::string name;
  /// The C++ type of each parameter, in order ("float *", "long long").
  std::vector<std::string> paramTypes;
  /// The ens ops the kernel computes, for messages.
  std::string sourceOps;
  /// Whether its threads synchronize (__syncthreads, __syncwarp).
  bool usesBarriers = false;
  /// Floating-point operations of one launch, and the share of them done
  /// by fused multiply-adds (fmaf, two each).
  int64_t flops = 0, fmaFlops = 0;
  /// Of `flops`, those of contractions on TF32 tensor cores, and the
  /// tensor-core products per product: 1, or 3 with 3xTF32.
  int64_t tensorFlops = 0;
  int tensorPasses = 1;
  /// Bytes of global memory that each thread loads together, before it
  /// uses any of them, in its innermost loop: the operands of a register
  /// tile's step; one element when unknown.
  int64_t bytesInFlightPerThread = 4;
  /// Round trips to global memory that each thread waits for one after
  /// another: a kernel whose phases are separated by barriers waits for
  /// each phase's loads before the next phase starts; 1 otherwise.
  int64_t dependentLoadsPerThread = 1;
  /// Bytes of global memory one launch reads and writes: each buffer it
  /// reads counted once, and each buffer it writes counted once.
  int64_t bytesRead = 0, bytesWritten = 0;

  /// What the performance model counts of one launch from the plan and the
  /// kernel's phases (lib/Backend/Cuda/PhaseCounts.cpp): warp instructions
  /// issued, of them the FP32 ones and the global and shared loads and
  /// stores; bytes through the L1/shared-memory data path in 128-byte
  /// wavefronts; bytes fetched from L2 (each block's footprint, so
  /// re-reads by other blocks included); barriers per block; the share of the
  /// lanes of issuing warps that work; the round trips each thread waits
  /// for one after another, and of them those that hit in L2. All 0 where
  /// the kernel is not counted: the model then falls back to its FLOPs,
  /// traffic and dependentLoadsPerThread.
  double warpInstructions = 0, fp32WarpInstructions = 0, memoryInstructions = 0,
         wavefrontBytes = 0, l2Bytes = 0;
  int64_t countedDependentLoadsPerThread = 0, l2DependentLoadsPerThread = 0;
  int64_t barriersPerBlock = 0;
  double activeLaneShare = 0;
  /// The loop a thread spends most steps in, per phase in the order of the
  /// kernel's source: warp load and store instructions (global and shared),
  /// FFMAs and instructions of one iteration (docs/cuda.md, "Performance
  /// model"; ens-sass --json reports the same of the CUBIN); the round trips
  /// to global memory that one iteration's loads make one after another, as
  /// the model charges them in its dependent loads (ens-sass's global load
  /// rounds), and the iterations a thread runs, over which it charges them.
  struct HotLoop {
    int64_t loads = 0, stores = 0, ffma = 0, instructions = 0;
    int64_t loadRounds = 0, iterations = 0;
  };
  std::vector<HotLoop> hotLoops;
};

/// One launch: the kernel and its grid, block and arguments.
struct KernelLaunch {
  unsigned kernel;
  std::array<unsigned, 3> grid = {1, 1, 1};
  std::array<unsigned, 3> block = {1, 1, 1};
  /// Bytes of dynamic shared memory per block.
  unsigned sharedBytes = 0;
  std::vector<KernelArg> args;
};

/// One matrix operand of a vendor GEMM step, in BLAS's column-major terms:
/// the buffer, the element where the first batch's matrix starts, the
/// leading dimension (elements from one column to the next) and the
/// elements from one batch's matrix to the next (0: every batch shares it).
struct GemmOperand {
  int64_t buffer = 0;
  int64_t offset = 0;
  int64_t ld = 1;
  int64_t stride = 0;
};

/// A step of the plan that a vendor GEMM computes instead of a kernel, with
/// the semantics of cublasSgemmStridedBatched: for each batch i < batch,
/// C_i = alpha op(A_i) op(B_i) + beta C_i, where op(X) is X or its
/// transpose, op(A_i) is m x k, op(B_i) k x n and C_i m x n, all f32 and
/// column-major; with beta 0, C is written without being read.
struct GemmStep {
  /// The step runs after this many of the plan's launches, before the next.
  size_t after = 0;
  bool transA = false, transB = false;
  int64_t m = 0, n = 0, k = 0, batch = 1;
  float alpha = 1, beta = 0;
  GemmOperand a, b, c;
  /// The ens ops it computes, for messages.
  std::string sourceOps;
};

/// The stable one-line text of `gemm` that plan listings and
/// `ens-run --cuda-plan` print: every BLAS parameter.
std::string printGemmStep(const GemmStep &gemm);

/// Computes `gemm` on the host, plainly, with exactly the semantics of
/// GemmStep: `a`, `b` and `c` are the bases of its buffers, to which the
/// operands' offsets are added. The emulator runs vendor GEMM steps with it.
void runHostGemm(const GemmStep &gemm, const float *a, const float *b,
                 float *c);

/// The buffers of a function and the kernels to launch, in order.
struct LaunchPlan {
  std::vector<BufferInfo> buffers;
  std::vector<KernelInfo> kernels;
  std::vector<KernelLaunch> launches;
  /// The vendor GEMM steps, in the order they run, each between two
  /// launches (GemmStep::after).
  std::vector<GemmStep> gemms;
  /// The bytes of the one allocation that holds every temporary, placed by
  /// liveness over the launches: temporaries that no launch uses at the
  /// same time share memory.
  int64_t arenaBytes = 0;

  /// Device memory a call needs at its peak: arguments, results, constants
  /// and the arena.
  int64_t getPeakDeviceBytes() const;
};

/// Runs the steps of `plan` in their order: `launch` for each launch and
/// `gemm` for each vendor GEMM step; stops at the first failure.
Error runSteps(const LaunchPlan &plan,
               const std::function<Error(const KernelLaunch &)> &launch,
               const std::function<Error(const GemmStep &)> &gemm);

/// Checks the vendor GEMM steps of `plan`: in order with the launches, on
/// f32 buffers, with sizes and leading dimensions BLAS accepts (within
/// int), every element they address inside its buffer, and C a result or a
/// temporary. The runners check this before they run a plan, so that a
/// wrong step is an error, never a stray access. The message names what is
/// wrong.
Error verifyGemmSteps(const LaunchPlan &plan);

/// Checks that `plan` can run as `signature` says, whoever made it: one
/// input buffer per argument and one output per result, of their types;
/// buffer sizes that match their types; temporaries inside the arena;
/// launches of known kernels with nonzero grids and blocks, and with as
/// many arguments as the kernel has parameters, each a known buffer where
/// the parameter is a pointer; and its vendor GEMM steps
/// (verifyGemmSteps). The message names what is wrong.
Error verifyPlan(const LaunchPlan &plan, const Signature &signature);

/// The name of an empty kernel through which generated CUDA source states
/// the plan it was written for: "ens_plan_" and 16 hex digits of a hash of
/// everything in `plan` that the kernels rely on (buffers, kernels'
/// parameters, launches' grids, blocks, shared memory and arguments, vendor
/// GEMM steps; not the constants' bytes). An artifact's plan is metadata
/// that could be edited apart from its code; a runner looks this kernel up
/// in the code and refuses a plan whose name it does not find, since a
/// grid or a buffer other than the one the kernels index would make them
/// read and write out of bounds.
std::string getPlanKernelName(const LaunchPlan &plan);

/// The CUDA source of that kernel, a line to append to the kernels of
/// `plan` once it is complete.
std::string getPlanKernelDefinition(const LaunchPlan &plan);

/// Error unless `hasKernel(getPlanKernelName(plan))`: the message says that
/// the plan and the code disagree.
Error checkPlanMatchesCode(
    const LaunchPlan &plan,
    const std::function<bool(const std::string &)> &hasKernel);

/// The arguments and results of `signature` as MLIR types,
/// "(tensor<2x3xf32>, tensor<f32>) -> (tensor<f32>)", without names.
std::string getSignatureString(const Signature &signature);

} // namespace ens::runtime

#endif // ENS_RUNTIME_PLAN_H
