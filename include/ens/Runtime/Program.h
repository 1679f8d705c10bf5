//===- Program.h - Running exported ens programs ----------------*- C++ -*-===//
//
// The C++ interface of libens-runtime: an artifact loaded for a backend
// and run on caller memory. The C interface (ens/ens_runtime.h) wraps it.
//
//===----------------------------------------------------------------------===//

#ifndef ENS_RUNTIME_PROGRAM_H
#define ENS_RUNTIME_PROGRAM_H

#include "ens/Runtime/Artifact.h"

#include <dlpack/dlpack.h>

#include <memory>
#include <mutex>
#include <string_view>
#include <vector>

namespace ens::runtime {

/// Where a loaded program runs.
enum class Backend {
  /// The host CPU: a cpu artifact's code.
  Cpu,
  /// The first GPU, through the CUDA driver (libcuda.so.1, loaded at run
  /// time): a cuda artifact's CUBIN for the device's architecture, else its
  /// PTX.
  Cuda,
  /// The host CPU running a cuda artifact's kernels through ens's
  /// emulation of the CUDA execution model (its emulator section).
  CudaEmu,
};

/// "cpu", "cuda" or "cuda-emu".
const char *getBackendName(Backend backend);
/// The backend named `name` (see getBackendName).
std::optional<Backend> parseBackendName(std::string_view name);

class Runner;

/// How to load a program.
struct LoadOptions {
  /// On cuda: capture the launches into a CUDA graph on the first call and
  /// replay it while the buffers stay where they were.
  bool useGraph = true;
};

/// An artifact loaded for one backend. Calls from several threads take
/// turns, as ens::Executable's do.
class Program {
public:
  /// Loads `artifact` to run on `backend`, which must suit its target; the
  /// error says why it cannot.
  static Expected<std::unique_ptr<Program>>
  load(Artifact artifact, Backend backend, const LoadOptions &options = {});
  ~Program();

  const Artifact &getArtifact() const { return artifact; }
  const Signature &getSignature() const { return artifact.signature; }
  Backend getBackend() const { return backend; }

  /// Runs on host memory: `args[i]` holds argument i, and `results[i]`
  /// receives result i, dense and row-major in the signature's types.
  Error runOnHost(const std::vector<const void *> &args,
                  const std::vector<void *> &results);

  /// Runs on DLPack tensors of the signature's types, compact and
  /// row-major. On the cpu and cuda-emu backends they are host tensors
  /// (kDLCPU). On cuda they may be device tensors (kDLCUDA, read and
  /// written in place on `stream`, a CUstream; null for the program's own),
  /// or host tensors, copied in and out. The call returns when the results
  /// are written. Results must not overlap each other or the arguments.
  Error run(const std::vector<const DLTensor *> &args,
            const std::vector<const DLTensor *> &results,
            void *stream = nullptr);

  /// Runs `times` calls on the host data `args`, after one untimed call,
  /// and gives the seconds of each: wall clock on the host, and on a GPU
  /// the time between CUDA events around each call's launches (the data
  /// stays on the device). The last call's results are in `results`.
  Expected<std::vector<double>> time(const std::vector<const void *> &args,
                                     const std::vector<void *> &results,
                                     unsigned times);

private:
  Program(Artifact artifact, Backend backend, std::unique_ptr<Runner> runner);

  Artifact artifact;
  Backend backend;
  std::unique_ptr<Runner> runner;
  std::mutex mutex;
};

} // namespace ens::runtime

#endif // ENS_RUNTIME_PROGRAM_H
