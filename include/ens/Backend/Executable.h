//===- Executable.h - One compiled ens function, on any target --*- C++ -*-===//
//
// The one interface through which the tools and the C++ API compile and run
// a function: compileExecutable picks the implementation for a target (the
// interpreter, the CPU JIT, the CPU emulation of the CUDA kernels, or a GPU)
// and every implementation runs on host tensors and on caller-owned memory.
//
//===----------------------------------------------------------------------===//

#ifndef ENS_BACKEND_EXECUTABLE_H
#define ENS_BACKEND_EXECUTABLE_H

#include "ens/Backend/Cuda/KernelConfig.h"
#include "ens/Support/HostTensor.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mlir::ens {

/// Where a compiled function runs.
enum class Target {
  /// The reference interpreter.
  Interpreter,
  /// Native code JIT-compiled through LLVM.
  Cpu,
  /// The CUDA kernels, emulated on the host CPU.
  CudaEmu,
  /// The CUDA kernels on the first GPU.
  Cuda,
};

/// The name of `target` as the tools spell it: "interp", "cpu", "cuda-emu"
/// or "cuda".
llvm::StringRef getTargetName(Target target);
/// The target named `name` (see getTargetName), or an error listing the
/// names.
llvm::Expected<Target> parseTarget(llvm::StringRef name);

/// How to compile, for every target; each target reads the parts it has.
struct ExecutableOptions {
  /// For the compiled targets: the largest buffer compiled code may
  /// allocate, and the most a CUDA launch plan may take in all; 0 means
  /// getDefaultMaxBufferBytes(). A larger program is refused at compile
  /// time.
  int64_t maxBufferBytes = 0;

  /// For Target::Cpu.
  struct CpuPart {
    /// The threads that run the compiled code; 0 means one per core (see
    /// CpuOptions).
    int threads = 0;
  } cpu;

  /// For Target::CudaEmu and Target::Cuda.
  struct CudaPart {
    /// Where to write the CUDA source, the launch plan and NVRTC's logs for
    /// sm_80 and sm_90; empty for nowhere.
    std::string dumpDirectory;
    /// For CudaEmu: also compile the source with NVRTC for sm_80 and sm_90,
    /// where NVRTC is available, so that the emulated kernels are known to
    /// be CUDA for the architectures ens supports.
    bool checkWithNvrtc = false;
    /// For Cuda: capture the launches into a CUDA graph and replay it.
    bool useGraph = false;
    /// How kernels share out loops over members, who computes matrix
    /// products and at what precision: parsed once from their names where
    /// users give them (cuda::parseCodegenOptions).
    cuda::CodegenOptions codegen;
  } cuda;
};

/// A function compiled for one target.
class Executable {
public:
  virtual ~Executable();

  Target getTarget() const { return target; }
  /// The compiled function's type: its argument and result tensor types.
  FunctionType getType() const { return type; }
  /// The threads the code runs on.
  virtual unsigned getNumThreads() const { return 1; }

  /// Runs the function on `args`; an argument that does not match the
  /// signature is an error that names it.
  llvm::Expected<std::vector<HostTensor>> run(llvm::ArrayRef<HostTensor> args);

  /// Runs the function on caller-owned memory: reads `args` and writes
  /// `results`. Their number and types must match the signature, and no
  /// result may overlap another buffer; otherwise the error says which
  /// buffer is wrong.
  llvm::Error run(llvm::ArrayRef<BufferRef> args,
                  llvm::ArrayRef<BufferRef> results);

protected:
  Executable(Target target, FunctionType type) : target(target), type(type) {}

  /// Runs on arguments already checked against the signature.
  virtual llvm::Expected<std::vector<HostTensor>>
  runOnHost(llvm::ArrayRef<HostTensor> args) = 0;

  /// Runs on buffers already checked against the signature. By default,
  /// through host-tensor copies of them.
  virtual llvm::Error runInPlace(llvm::ArrayRef<BufferRef> args,
                                 llvm::ArrayRef<BufferRef> results);

private:
  Target target;
  FunctionType type;
};

/// Compiles the function `entry` of `module`, which is left unchanged, for
/// `target`. The module's context must have the CPU backend's dialects
/// registered (registerCpuBackendDialects) for every target but the
/// interpreter. Errors say why the function cannot run there.
llvm::Expected<std::unique_ptr<Executable>>
compileExecutable(ModuleOp module, llvm::StringRef entry, Target target,
                  const ExecutableOptions &options = {});

/// The implementations, one in each backend's library; compileExecutable
/// chooses among them.
llvm::Expected<std::unique_ptr<Executable>>
compileInterpreterExecutable(ModuleOp module, llvm::StringRef entry);
llvm::Expected<std::unique_ptr<Executable>>
compileCpuExecutable(ModuleOp module, llvm::StringRef entry,
                     const ExecutableOptions &options);
/// For Target::CudaEmu and Target::Cuda.
llvm::Expected<std::unique_ptr<Executable>>
compileCudaExecutable(ModuleOp module, llvm::StringRef entry, Target target,
                      const ExecutableOptions &options);

} // namespace mlir::ens

#endif // ENS_BACKEND_EXECUTABLE_H
