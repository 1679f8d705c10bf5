//===- CudaBackend.h - ens functions as CUDA kernels ------------*- C++ -*-===//
//
// Compiles one function of an ens module to CUDA C++ source and a launch
// plan (a kernel with a block per member for each loop over the members of
// an ensemble, a grid-wide kernel for each other op), compiles the source with
// NVRTC, and runs the plan either on the host (an emulation of the CUDA
// execution model that compiles the same source with the host compiler) or
// on a GPU through the Driver API.
//
//===----------------------------------------------------------------------===//

#ifndef ENS_BACKEND_CUDABACKEND_H
#define ENS_BACKEND_CUDABACKEND_H

#include "ens/Support/HostTensor.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Error.h"

#include <array>
#include <memory>
#include <mutex>
#include <optional>
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
  /// Floating-point operations of one launch.
  int64_t flops = 0;
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
  FunctionType type;
};

/// Generates CUDA source for the function `entry` of `module`, which is left
/// unchanged. The context must have the CPU backend's dialects registered
/// (registerCpuBackendDialects). An op the generator cannot handle yet is
/// reported as an error that names it, and so is a buffer, or a whole
/// plan, larger than `maxBufferBytes` (0: getDefaultMaxBufferBytes()).
llvm::Expected<CudaProgram> generateCuda(ModuleOp module, StringRef entry,
                                         int64_t maxBufferBytes = 0);

/// Whether this build can compile with NVRTC.
bool isNvrtcAvailable();

/// Where compiled kernels came from.
enum class CacheOrigin { Compiled, Memory, Disk };

/// Kernels compiled by NVRTC for one architecture.
struct CompiledCuda {
  std::string arch;
  std::string cubin;
  /// NVRTC's log, with ptxas's register and spill lines for each kernel.
  std::string log;
  CacheOrigin origin = CacheOrigin::Compiled;
};

/// Compiles `source` (named `name` in messages) to CUBIN for `arch`
/// ("sm_90") through the process's kernel cache. A failure carries the name
/// and NVRTC's log.
llvm::Expected<CompiledCuda> compileWithNvrtc(StringRef source, StringRef name,
                                              StringRef arch);

/// Compiles hand-written `source` for `arch` with NVRTC and `options`
/// instead of ens's own (only the toolkit's include directory is added),
/// without the cache: for tools and tests that need other options, such as
/// fused multiply-add on.
llvm::Expected<CompiledCuda>
compileWithNvrtcOptions(StringRef source, StringRef name, StringRef arch,
                        ArrayRef<std::string> options);

/// The directory of ens's on-disk caches: $ENS_CACHE_DIR, else
/// $XDG_CACHE_HOME/ens, else ~/.cache/ens; empty (no disk cache) when none
/// of them can be named. Each cache keeps its entries in a subdirectory of
/// its own ("nvrtc", "emu"). ens creates missing directories with mode 0700
/// and uses existing ones only if they are real directories (not symbolic
/// links), owned by the effective user and writable by no one else:
/// otherwise a compile that would use the cache fails with an error that
/// names the directory. A directory that cannot be created costs only the
/// disk cache.
std::string getCacheDirectory();

/// Compiled kernels by a hash of what determines them (source,
/// architecture, NVRTC options and version, ens version), in memory and on
/// disk with one file per entry. The file is accepted only if it is a
/// regular file of the user's, no larger than a cap, and a whole entry with
/// the right checksum and key; anything else (truncated, corrupted, another
/// key, a link, a FIFO) is ignored and rebuilt, and the new entry replaces
/// it atomically, so concurrent threads and processes never read a partial
/// entry. A directory that cannot be written only costs the disk half.
class KernelCache {
public:
  /// A cache in `directory` (the "nvrtc" subdirectory holds the files), or
  /// in memory only when it is empty.
  explicit KernelCache(std::string directory);

  /// The process's cache, in getCacheDirectory().
  static KernelCache &getDefault();

  /// The kernels of `source` for `arch`, compiled by NVRTC on a miss.
  llvm::Expected<CompiledCuda> compile(StringRef source, StringRef name,
                                       StringRef arch);

  /// The entry for `key`, made by `compiler` on a miss. Failures are not
  /// cached. A cache directory that is not private is an error.
  llvm::Expected<CompiledCuda>
  getOrCompile(StringRef key,
               llvm::function_ref<llvm::Expected<CompiledCuda>()> compiler);

  /// The file of the entry for `key`.
  std::string getEntryPath(StringRef key) const;

private:
  std::string directory;
  std::mutex mutex;
  llvm::StringMap<CompiledCuda> entries;
};

/// The kernel report of `program` as a table: per kernel its launch, FLOPs
/// and bytes of global memory read and written, then the totals against the
/// minimum traffic (every argument read once, every result written once).
/// With `compiled`, also registers and spills from ptxas and the blocks per
/// SM of a reference device of its architecture.
std::string formatKernelReport(const CudaProgram &program,
                               const CompiledCuda *compiled);

/// The same report as JSON.
std::string formatKernelReportJson(const CudaProgram &program,
                                   const CompiledCuda *compiled);

/// A function compiled for the CPU emulation of the CUDA execution model:
/// the same source built by the host compiler, kernels run block by block
/// and thread by thread.
class EmulatedExecutable {
public:
  /// Builds `program`'s source with the host compiler ($ENS_HOST_CXX, else
  /// c++) and loads it. The shared object is cached in the "emu"
  /// subdirectory of `cacheDirectory` (see getCacheDirectory) by a hash of
  /// everything that determines it; a cached object is loaded only after
  /// its checksum, key and owner are verified, and otherwise rebuilt.
  static llvm::Expected<std::unique_ptr<EmulatedExecutable>>
  compile(CudaProgram program, StringRef cacheDirectory = getCacheDirectory());
  ~EmulatedExecutable();

  /// Runs the launch plan on `args`, which must match the signature.
  llvm::Expected<std::vector<HostTensor>> run(ArrayRef<HostTensor> args);

  const CudaProgram &getProgram() const { return program; }

private:
  EmulatedExecutable(CudaProgram program, void *library,
                     std::vector<void *> launchers);

  CudaProgram program;
  void *library;
  /// One entry per kernel: void (const unsigned *grid, const unsigned
  /// *block, unsigned sharedBytes, void **params).
  std::vector<void *> launchers;
};

/// Loads and initializes the CUDA driver (once per process). Without a
/// driver or a device, an error that starts "no CUDA device: " and says
/// which ("cannot load libcuda.so.1", "the driver finds no device").
llvm::Error loadCudaDriver();

/// How a function runs on a GPU.
struct DeviceOptions {
  /// Capture the launches of the first call into a CUDA graph and replay
  /// it on every call.
  bool useGraph = false;
};

/// A function compiled for the first GPU of this machine: its launch plan
/// run through the CUDA Driver API, with kernels NVRTC-compiled for the
/// device's architecture. Arguments, results and constants have device
/// allocations of their own and the temporaries one arena, all held as
/// long as the executable; a call copies the arguments in, launches the
/// kernels on the executable's stream (or replays their graph), copies the
/// results out and waits. Calls from several threads take turns.
class DeviceExecutable {
public:
  static llvm::Expected<std::unique_ptr<DeviceExecutable>>
  compile(CudaProgram program, DeviceOptions options = {});
  ~DeviceExecutable();

  /// Runs the launch plan on `args`, which must match the signature.
  llvm::Expected<std::vector<HostTensor>> run(ArrayRef<HostTensor> args);

  const CudaProgram &getProgram() const;

private:
  struct Impl;
  explicit DeviceExecutable(std::unique_ptr<Impl> impl);

  std::unique_ptr<Impl> impl;
  std::mutex mutex;
};

} // namespace mlir::ens::cuda

#endif // ENS_BACKEND_CUDABACKEND_H
