//===- ScheduleDynamically.cpp - Dynamic OpenMP schedules -----------------===//
//
// Gives OpenMP worksharing loops a dynamic schedule
// (ens-cpu-schedule-dynamically).
//
//===----------------------------------------------------------------------===//

#include "ens/Backend/Cpu/Passes.h"

#include "mlir/Dialect/OpenMP/OpenMPDialect.h"

namespace mlir::ens {
#define GEN_PASS_DEF_ENSCPUSCHEDULEDYNAMICALLY
#include "ens/Backend/Cpu/Passes.h.inc"
} // namespace mlir::ens

using namespace mlir;
using namespace mlir::ens;

namespace {
/// Iterations go one at a time to whichever thread is free: a thread that
/// the system preempts, or that gets the slower members, then holds up no
/// one.
struct ScheduleDynamicallyPass
    : ens::impl::EnsCpuScheduleDynamicallyBase<ScheduleDynamicallyPass> {
  void runOnOperation() override {
    getOperation().walk([](omp::WsloopOp loop) {
      loop.setScheduleVal(omp::ClauseScheduleKind::Dynamic);
    });
  }
};
} // namespace
