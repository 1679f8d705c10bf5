//===- Executable.cpp - One compiled ens function, on any target ----------===//
//
// What every target shares: the target names and the checks and copies of a
// run on caller-owned memory. compileExecutable, which needs every backend,
// is in CompileExecutable.cpp.
//
//===----------------------------------------------------------------------===//

#include "ens/Backend/Executable.h"
#include "ens/Runtime/Overlap.h"
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
static ::ens::runtime::ByteRange getExtent(const BufferRef &buffer) {
  auto begin = reinterpret_cast<uintptr_t>(buffer.data);
  return {begin,
          begin + getNumElements(buffer.shape) * getElementSize(buffer.dtype)};
}

/// Compiled code writes results while it still reads arguments (and other
/// results), so no result may share memory with another buffer.
static llvm::Error checkSeparate(ArrayRef<BufferRef> args,
                                 ArrayRef<BufferRef> results) {
  std::vector<::ens::runtime::ByteRange> ranges;
  for (const BufferRef &buffer : llvm::concat<const BufferRef>(args, results))
    ranges.push_back(getExtent(buffer));
  auto overlap = ::ens::runtime::findResultOverlap(ranges, args.size());
  if (!overlap)
    return llvm::Error::success();
  auto [result, other] = *overlap;
  bool isArg = other < args.size();
  return llvm::createStringError(
      llvm::inconvertibleErrorCode(),
      llvm::formatv("result {0} overlaps {1} {2}: results must be memory "
                    "of their own",
                    result - args.size(), isArg ? "argument" : "result",
                    isArg ? other : other - args.size()));
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
