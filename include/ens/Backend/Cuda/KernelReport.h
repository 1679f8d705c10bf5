//===- KernelReport.h - What each kernel of a program costs -----*- C++ -*-===//
//
// The kernel report that `ens-run --kernel-report` prints.
//
//===----------------------------------------------------------------------===//

#ifndef ENS_BACKEND_CUDA_KERNELREPORT_H
#define ENS_BACKEND_CUDA_KERNELREPORT_H

#include "ens/Backend/Cuda/LaunchPlan.h"
#include "ens/Backend/Cuda/Nvrtc.h"

#include <string>

namespace mlir::ens::cuda {

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

} // namespace mlir::ens::cuda

#endif // ENS_BACKEND_CUDA_KERNELREPORT_H
