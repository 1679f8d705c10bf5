//===- LaunchPlan.h - Buffers and launches of a CUDA program ----*- C++ -*-===//
//
// What the CUDA backend makes of a function: CUDA C++ source and a launch
// plan, plain data that the runtime's runners (the emulator and the GPU)
// run as it is, in this process or from an exported artifact.
//
//===----------------------------------------------------------------------===//

#ifndef ENS_BACKEND_CUDA_LAUNCHPLAN_H
#define ENS_BACKEND_CUDA_LAUNCHPLAN_H

#include "ens/Backend/Cuda/KernelConfig.h"
#include "ens/Runtime/Plan.h"
#include "ens/Runtime/Runner.h"
#include "ens/Support/HostTensor.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/Support/Error.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace mlir::ens::cuda {

// The plan's data is the runtime's (ens/Runtime/Plan.h), which runs it.
using ::ens::runtime::BufferInfo;
using ::ens::runtime::BufferKind;
using ::ens::runtime::GemmOperand;
using ::ens::runtime::GemmStep;
using ::ens::runtime::KernelArg;
using ::ens::runtime::KernelInfo;
using ::ens::runtime::KernelLaunch;
using ::ens::runtime::LaunchPlan;

/// Places the temporaries of `plan` in the arena by their live ranges over
/// the launches, setting their offsets and the arena's size.
void placeArena(LaunchPlan &plan);

/// A readable listing of `plan`.
std::string printPlan(const LaunchPlan &plan);

/// One of the independent phases that a kernel runs side by side: its own
/// work, and the number of blocks of the grid that run it. The performance
/// model estimates a launch of such a kernel from them.
struct KernelSection {
  KernelInfo info;
  int64_t blocks = 0;
};

/// A function as CUDA source and its launch plan.
struct CudaProgram {
  std::string source;
  LaunchPlan plan;
  /// The decisions behind each kernel of a loop over members, in the order
  /// of their kernels.
  std::vector<KernelConfig> configs;
  /// For each kernel of the plan, in order: the sections it runs in the
  /// order of their blocks, if it runs several; otherwise none.
  std::vector<std::vector<KernelSection>> sections;

  /// The sections of kernel `kernel`; none for a plan made without them.
  ArrayRef<KernelSection> getSections(unsigned kernel) const {
    if (kernel < sections.size())
      return sections[kernel];
    return {};
  }
  /// The performance model's picks for the contractions a vendor GEMM
  /// could compute, in the order they were written; none where
  /// `--cuda-gemm` forced the choice.
  std::vector<GemmDecision> gemmDecisions;
  FunctionType type;
  /// The GPU whose estimates the decisions weighed, as the plan's text
  /// names it ("H100").
  std::string targetName = "H100";
};

/// Runs `program` through `runner` on host tensors, which must match its
/// signature.
llvm::Expected<std::vector<HostTensor>>
runOnHostTensors(::ens::runtime::Runner &runner, const CudaProgram &program,
                 ArrayRef<HostTensor> args);

} // namespace mlir::ens::cuda

#endif // ENS_BACKEND_CUDA_LAUNCHPLAN_H
