//===- LaunchPlan.h - Buffers and launches of a CUDA program ----*- C++ -*-===//
//
// What the CUDA backend makes of a function: CUDA C++ source and a launch
// plan, plain data that both executors (the emulator and the GPU runtime)
// run as it is.
//
//===----------------------------------------------------------------------===//

#ifndef ENS_BACKEND_CUDA_LAUNCHPLAN_H
#define ENS_BACKEND_CUDA_LAUNCHPLAN_H

#include "ens/Backend/Cuda/KernelConfig.h"
#include "ens/Support/HostTensor.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace mlir::ens::cuda {

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

/// One buffer of the launch plan: dense row-major memory.
struct BufferInfo {
  BufferKind kind;
  /// The argument or result number for inputs and outputs.
  unsigned index = 0;
  DType dtype;
  llvm::SmallVector<int64_t, 4> shape;
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

  /// Places the temporaries in the arena by their live ranges over the
  /// launches, setting their offsets and the arena's size.
  void placeArena();

  /// Device memory a call needs at its peak: arguments, results, constants
  /// and the arena.
  int64_t getPeakDeviceBytes() const;

  /// The results of a call, read from the bytes that `bytesOf` gives for
  /// each output buffer.
  std::vector<HostTensor>
  readResults(unsigned numResults,
              llvm::function_ref<const void *(size_t buffer)> bytesOf) const;

  /// A readable listing of the plan.
  std::string print() const;
};

/// A function as CUDA source and its launch plan.
struct CudaProgram {
  std::string source;
  LaunchPlan plan;
  /// The decisions behind each kernel of a loop over members, in the order
  /// of their kernels.
  std::vector<KernelConfig> configs;
  FunctionType type;
};

} // namespace mlir::ens::cuda

#endif // ENS_BACKEND_CUDA_LAUNCHPLAN_H
