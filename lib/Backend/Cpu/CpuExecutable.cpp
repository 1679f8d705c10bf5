//===- CpuExecutable.cpp - The CPU backend as an Executable ---------------===//
//
// The cpu target of compileExecutable. It runs on caller-owned memory in
// place, without the copies the other targets make.
//
//===----------------------------------------------------------------------===//

#include "ens/Backend/CpuBackend.h"
#include "ens/Backend/Executable.h"

using namespace mlir;
using namespace mlir::ens;

namespace {
class CpuAdaptor final : public Executable {
public:
  explicit CpuAdaptor(std::unique_ptr<CpuExecutable> executable)
      : Executable(Target::Cpu, executable->getType()),
        compiled(std::move(executable)) {}

  unsigned getNumThreads() const override { return compiled->getNumThreads(); }

protected:
  llvm::Expected<std::vector<HostTensor>>
  runOnHost(ArrayRef<HostTensor> args) override {
    return compiled->run(args);
  }

  llvm::Error runInPlace(ArrayRef<BufferRef> args,
                         ArrayRef<BufferRef> results) override {
    return compiled->run(args, results);
  }

private:
  std::unique_ptr<CpuExecutable> compiled;
};
} // namespace

llvm::Expected<std::unique_ptr<Executable>>
mlir::ens::compileCpuExecutable(ModuleOp module, StringRef entry,
                                const ExecutableOptions &options) {
  CpuOptions cpuOptions;
  cpuOptions.threads = options.cpu.threads;
  cpuOptions.maxBufferBytes = options.maxBufferBytes;
  llvm::Expected<std::unique_ptr<CpuExecutable>> compiled =
      CpuExecutable::compile(module, entry, cpuOptions);
  if (!compiled)
    return compiled.takeError();
  return std::make_unique<CpuAdaptor>(std::move(*compiled));
}
