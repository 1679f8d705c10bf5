//===- InitAllPasses.h - Passes ens tools register --------------*- C++ -*-===//

#ifndef ENS_INITALLPASSES_H
#define ENS_INITALLPASSES_H

#include "ens/Backend/Cpu/Passes.h"
#include "ens/Backend/Cuda/Passes.h"
#include "ens/Bufferization/Passes.h"
#include "ens/Conversion/Passes.h"
#include "ens/Dialect/Ens/Transforms/Passes.h"
#include "ens/Fusion/Passes.h"
#include "mlir/Transforms/Passes.h"

namespace mlir::ens {

/// Registers every ens pass and pipeline, and the upstream passes ens
/// pipelines use, but the upstream inliner: ens-inline runs it within a
/// bound on the ops inlining makes.
inline void registerAllPasses() {
  registerEnsPasses();
  registerEnsFrontPipeline();
  registerEnsConversionPasses();
  registerEnsFusionPasses();
  registerEnsBufferizationPasses();
  registerEnsCpuPasses();
  registerEnsCpuPipeline();
  registerEnsCudaPasses();
  registerEnsCudaPipeline();
  mlir::registerCanonicalizerPass();
  mlir::registerCSEPass();
  mlir::registerSymbolDCEPass();
}

} // namespace mlir::ens

#endif // ENS_INITALLPASSES_H
