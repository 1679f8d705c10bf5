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
  /// Whether its threads synchronize (__syncthreads).
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
  /// Bytes of global memory one launch reads and writes: each buffer it
  /// reads counted once, and each buffer it writes counted once.
  int64_t bytesRead = 0, bytesWritten = 0;
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

/// The buffers of a function and the kernels to launch, in order.
struct LaunchPlan {
  std::vector<BufferInfo> buffers;
  std::vector<KernelInfo> kernels;
  std::vector<KernelLaunch> launches;
  /// The bytes of the one allocation that holds every temporary, placed by
  /// liveness over the launches: temporaries that no launch uses at the
  /// same time share memory.
  int64_t arenaBytes = 0;

  /// Device memory a call needs at its peak: arguments, results, constants
  /// and the arena.
  int64_t getPeakDeviceBytes() const;
};

/// Checks that `plan` can run as `signature` says, whoever made it: one
/// input buffer per argument and one output per result, of their types;
/// buffer sizes that match their types; temporaries inside the arena;
/// launches of known kernels with nonzero grids and blocks, and with as
/// many arguments as the kernel has parameters, each a known buffer where
/// the parameter is a pointer. The message names what is wrong.
Error verifyPlan(const LaunchPlan &plan, const Signature &signature);

} // namespace ens::runtime

#endif // ENS_RUNTIME_PLAN_H
