//===- EmulatedKernelTest.h - Hand-written kernels, emulated ----*- C++ -*-===//
//
// A fixture that runs one hand-written CUDA kernel, with the device
// prelude's helpers, on the CPU emulation of the CUDA execution model:
// for tests of the emulation header's versions of those helpers against
// references that know nothing of the emulation.
//
//===----------------------------------------------------------------------===//

#ifndef ENS_UNITTESTS_CUDA_EMULATEDKERNELTEST_H
#define ENS_UNITTESTS_CUDA_EMULATEDKERNELTEST_H

#include "ens/Backend/Cuda/Emulator.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/MLIRContext.h"

#include <gtest/gtest.h>

namespace mlir::ens::cuda {

class EmulatedKernelTest : public ::testing::Test {
protected:
  /// A program of one kernel `name` from `source` with f32 buffers of
  /// `shapes`, the last the output, launched with one block of `threads`.
  CudaProgram makeProgram(StringRef source, StringRef name,
                          ArrayRef<SmallVector<int64_t>> shapes,
                          unsigned threads) {
    Builder builder(&context);
    CudaProgram program;
    program.source = source.str();
    SmallVector<Type> inputs;
    KernelInfo kernel;
    kernel.name = name.str();
    kernel.usesBarriers = true;
    KernelLaunch launch;
    launch.kernel = 0;
    launch.block = {threads, 1, 1};
    for (auto [i, shape] : llvm::enumerate(shapes)) {
      bool output = i + 1 == shapes.size();
      BufferInfo buffer;
      buffer.kind = output ? BufferKind::Output : BufferKind::Input;
      buffer.index = output ? 0 : i;
      buffer.dtype = DType::F32;
      buffer.shape.assign(shape.begin(), shape.end());
      buffer.bytes = 4;
      for (int64_t size : shape)
        buffer.bytes *= size;
      program.plan.buffers.push_back(buffer);
      kernel.paramTypes.push_back("float *");
      launch.args.push_back({true, static_cast<int64_t>(i)});
      if (!output)
        inputs.push_back(RankedTensorType::get(shape, builder.getF32Type()));
    }
    program.type = builder.getFunctionType(
        inputs, RankedTensorType::get(shapes.back(), builder.getF32Type()));
    program.plan.kernels.push_back(kernel);
    program.plan.launches.push_back(launch);
    program.source += getPlanKernelDefinition(program.plan);
    return program;
  }

  /// Runs `program` on the emulator with `args`; returns the message of the
  /// error that stops it, or "" if it runs.
  std::string runForError(CudaProgram program, ArrayRef<HostTensor> args) {
    llvm::Expected<std::unique_ptr<EmulatedExecutable>> executable =
        EmulatedExecutable::compile(std::move(program));
    if (!executable)
      return llvm::toString(executable.takeError());
    llvm::Expected<std::vector<HostTensor>> results = (*executable)->run(args);
    return results ? "" : llvm::toString(results.takeError());
  }

  /// Runs `program` on the emulator with `args`; returns its result.
  std::vector<double> run(CudaProgram program, ArrayRef<HostTensor> args) {
    llvm::Expected<std::unique_ptr<EmulatedExecutable>> executable =
        EmulatedExecutable::compile(std::move(program));
    if (!executable) {
      ADD_FAILURE() << llvm::toString(executable.takeError());
      return {};
    }
    llvm::Expected<std::vector<HostTensor>> results = (*executable)->run(args);
    if (!results) {
      ADD_FAILURE() << llvm::toString(results.takeError());
      return {};
    }
    return (*results)[0].values;
  }

  MLIRContext context;
};

} // namespace mlir::ens::cuda

#endif // ENS_UNITTESTS_CUDA_EMULATEDKERNELTEST_H
