//===- LaunchPlan.cpp - The buffers and launches of a CUDA program --------===//
//
// The placement of a plan's temporaries in the arena, its listing, and
// runs of a plan on host tensors through one of the runtime's runners.
//
//===----------------------------------------------------------------------===//

#include "ens/Backend/Cuda/LaunchPlan.h"

#include "ens/Backend/Liveness.h"
#include "ens/Support/FileSystem.h"
#include "ens/Support/TensorTypes.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::ens;
using namespace mlir::ens::cuda;

/// The alignment of each temporary in the arena, as cuMemAlloc's.
static constexpr int64_t kArenaAlignment = 256;

void cuda::placeArena(LaunchPlan &plan) {
  SmallVector<LiveRange> ranges;
  SmallVector<BufferInfo *> temporaries;
  for (BufferInfo &buffer : plan.buffers)
    if (buffer.kind == BufferKind::Temporary) {
      ranges.push_back({buffer.bytes, ~0u, 0});
      temporaries.push_back(&buffer);
    }
  // Live ranges over the plan's steps, launches and vendor GEMM steps in
  // the order they run.
  unsigned step = 0;
  auto use = [&](int64_t buffer) {
    if (plan.buffers[buffer].kind != BufferKind::Temporary)
      return;
    auto it = llvm::find(temporaries, &plan.buffers[buffer]);
    LiveRange &range = ranges[it - temporaries.begin()];
    range.first = std::min<unsigned>(range.first, step);
    range.last = std::max<unsigned>(range.last, step);
  };
  auto useLaunch = [&](const KernelLaunch &launch) {
    for (const KernelArg &arg : launch.args)
      if (arg.isBuffer)
        use(arg.value);
    ++step;
    return ::ens::runtime::Error::success();
  };
  auto useGemm = [&](const GemmStep &gemm) {
    for (const GemmOperand *operand : {&gemm.a, &gemm.b, &gemm.c})
      use(operand->buffer);
    ++step;
    return ::ens::runtime::Error::success();
  };
  // Neither fails.
  (void)::ens::runtime::runSteps(plan, useLaunch, useGemm);
  // A temporary no launch uses (the result of a contraction whose epilogue
  // consumed it in registers) takes no memory.
  for (auto [range, buffer] : llvm::zip(ranges, temporaries))
    if (range.first > range.last)
      range = {0, 0, 0};
  Placement placement = placeByLiveness(ranges, kArenaAlignment);
  for (auto [buffer, offset] : llvm::zip(temporaries, placement.offsets))
    buffer->arenaOffset = offset;
  plan.arenaBytes = placement.peak;
}

llvm::Expected<std::vector<HostTensor>>
cuda::runOnHostTensors(::ens::runtime::Runner &runner,
                       const CudaProgram &program, ArrayRef<HostTensor> args) {
  if (llvm::Error mismatch = checkArguments(program.type, args))
    return std::move(mismatch);
  // Each tensor in its element type, as the plan's buffers hold it.
  std::vector<std::vector<uint8_t>> argBytes, resultBytes;
  std::vector<const void *> argData;
  std::vector<void *> resultData;
  for (const HostTensor &arg : args) {
    argBytes.emplace_back(arg.getNumElements() * getElementSize(arg.dtype));
    arg.storeTo(argBytes.back().data());
    argData.push_back(argBytes.back().data());
  }
  std::vector<HostTensor> results;
  for (Type type : program.type.getResults()) {
    auto tensor = cast<RankedTensorType>(type);
    results.emplace_back(*getDType(tensor.getElementType()), tensor.getShape());
    resultBytes.emplace_back(results.back().getNumElements() *
                             getElementSize(results.back().dtype));
    resultData.push_back(resultBytes.back().data());
  }
  if (llvm::Error failure = toLlvmError(runner.runOnHost(argData, resultData)))
    return std::move(failure);
  for (auto [result, bytes] : llvm::zip(results, resultBytes))
    result = HostTensor::loadFrom(result.dtype, result.shape, bytes.data());
  return results;
}

std::string cuda::printPlan(const LaunchPlan &plan) {
  std::string text;
  llvm::raw_string_ostream os(text);
  for (auto [i, buffer] : llvm::enumerate(plan.buffers)) {
    os << "buffer " << i << ": "
       << ::ens::runtime::getBufferKindName(buffer.kind);
    if (buffer.kind == BufferKind::Input || buffer.kind == BufferKind::Output)
      os << " " << buffer.index;
    os << ", " << HostTensor(buffer.dtype, buffer.shape).getTypeString() << ", "
       << buffer.bytes << " bytes";
    if (buffer.kind == BufferKind::Temporary)
      os << " at arena offset " << buffer.arenaOffset;
    os << "\n";
  }
  os << "arena " << plan.arenaBytes << " bytes\n";
  auto printLaunch = [&](const KernelLaunch &launch) {
    os << "launch " << plan.kernels[launch.kernel].name << " grid ("
       << launch.grid[0] << ", " << launch.grid[1] << ", " << launch.grid[2]
       << ") block (" << launch.block[0] << ", " << launch.block[1] << ", "
       << launch.block[2] << ") shared " << launch.sharedBytes
       << " bytes, args (";
    for (auto [i, arg] : llvm::enumerate(launch.args))
      os << (i ? ", " : "") << (arg.isBuffer ? "buffer " : "") << arg.value;
    os << ")\n";
    return ::ens::runtime::Error::success();
  };
  auto printGemm = [&](const GemmStep &gemm) {
    os << "gemm " << ::ens::runtime::printGemmStep(gemm) << "\n";
    return ::ens::runtime::Error::success();
  };
  // Neither fails.
  (void)::ens::runtime::runSteps(plan, printLaunch, printGemm);
  return text;
}
