//===- Executable.cpp - One compiled ens function, on any target ----------===//
//
// What every target shares: the target names and the checks and copies of a
// run on caller-owned memory. compileExecutable, which needs every backend,
// is in CompileExecutable.cpp.
//
//===----------------------------------------------------------------------===//

#include "ens/Backend/Executable.h"
#include "ens/Support/TensorTypes.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::ens;

namespace {
struct TargetInfo {
  Target target;
  const char *name;
};
constexpr TargetInfo kTargets[] = {
    {Target::Interpreter, "interp"},
    {Target::Cpu, "cpu"},
    {Target::CudaEmu, "cuda-emu"},
    {Target::Cuda, "cuda"},
};
} // namespace

StringRef mlir::ens::getTargetName(Target target) {
  for (const TargetInfo &info : kTargets)
    if (info.target == target)
      return info.name;
  return "unknown";
}

llvm::Expected<Target> mlir::ens::parseTarget(StringRef name) {
  for (const TargetInfo &info : kTargets)
    if (name == info.name)
      return info.target;
  return llvm::createStringError(
      llvm::inconvertibleErrorCode(),
      llvm::formatv("unknown target '{0}' (expected interp, cpu, cuda-emu or "
                    "cuda)",
                    name));
}

Executable::~Executable() = default;

/// The bytes of `buffer`.
static std::pair<uintptr_t, uintptr_t> getExtent(const BufferRef &buffer) {
  auto begin = reinterpret_cast<uintptr_t>(buffer.data);
  return {begin,
          begin + getNumElements(buffer.shape) * getElementSize(buffer.dtype)};
}

/// Compiled code writes results while it still reads arguments (and other
/// results), so no result may share memory with another buffer.
static llvm::Error checkSeparate(ArrayRef<BufferRef> args,
                                 ArrayRef<BufferRef> results) {
  for (auto [r, result] : llvm::enumerate(results)) {
    auto [begin, end] = getExtent(result);
    // Copies: C++17 lambdas cannot capture structured bindings (clang).
    auto overlaps = [&, begin = begin, end = end](const BufferRef &other) {
      auto [otherBegin, otherEnd] = getExtent(other);
      return begin < otherEnd && otherBegin < end;
    };
    auto overlapError = [&, r = r](StringRef kind, size_t index) {
      return llvm::createStringError(
          llvm::inconvertibleErrorCode(),
          llvm::formatv("result {0} overlaps {1} {2}: results must be memory "
                        "of their own",
                        r, kind, index));
    };
    for (auto [a, arg] : llvm::enumerate(args))
      if (overlaps(arg))
        return overlapError("argument", a);
    for (auto [o, other] : llvm::enumerate(results.take_front(r)))
      if (overlaps(other))
        return overlapError("result", o);
  }
  return llvm::Error::success();
}

llvm::Expected<std::vector<HostTensor>>
Executable::run(ArrayRef<HostTensor> args) {
  if (llvm::Error error = checkArguments(type, args))
    return std::move(error);
  return runOnHost(args);
}

llvm::Error Executable::run(ArrayRef<BufferRef> args,
                            ArrayRef<BufferRef> results) {
  if (llvm::Error error = checkBuffers("arguments", args, type.getInputs()))
    return error;
  if (llvm::Error error = checkBuffers("results", results, type.getResults()))
    return error;
  if (llvm::Error error = checkSeparate(args, results))
    return error;
  return runInPlace(args, results);
}

llvm::Error Executable::runInPlace(ArrayRef<BufferRef> args,
                                   ArrayRef<BufferRef> results) {
  std::vector<HostTensor> hostArgs;
  for (const BufferRef &arg : args)
    hostArgs.push_back(HostTensor::loadFrom(arg.dtype, arg.shape, arg.data));
  llvm::Expected<std::vector<HostTensor>> values = runOnHost(hostArgs);
  if (!values)
    return values.takeError();
  for (auto [result, value] : llvm::zip_equal(results, *values))
    value.storeTo(result.data);
  return llvm::Error::success();
}
