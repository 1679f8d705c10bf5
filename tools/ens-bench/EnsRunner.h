//===- EnsRunner.h - ens's implementation of a workload ---------*- C++ -*-===//
//
// Compiles the workload's step (EnsProgram.h) for Target::Cpu through the
// public API and runs it in process on preallocated ens::Tensors passed as
// DLPack: two copies of the state, read from one and written to the other,
// swapped after each step; nothing is allocated or copied per step.
//
//===----------------------------------------------------------------------===//

#ifndef ENS_BENCH_ENSRUNNER_H
#define ENS_BENCH_ENSRUNNER_H

#include "Runner.h"
#include "Workload.h"

#include "ens/ens.h"

#include <array>
#include <memory>

namespace ens_bench {

/// Fills `tensor`, an f32 or i32 (class labels) step argument called `name`,
/// with `values`, which must have its size.
void fillTensor(ens::Tensor &tensor, const std::vector<float> &values,
                const std::string &name);

/// The array `name` of a workload's data.
const Array &findArray(const std::vector<Array> &data, const std::string &name);

class EnsRunner : public StepRunner {
public:
  /// Compiles `workload`'s step in `context` for `threads` threads, loads
  /// `data` (makeData) and runs `checkSteps` steps, recording their losses.
  /// Throws ens::Error.
  EnsRunner(const ens::Context &context, const Workload &workload,
            const std::vector<Array> &data, int threads, int checkSteps);

  /// Seconds spent compiling.
  double compileSeconds() const { return compileSeconds_; }

private:
  void step() override;

  std::unique_ptr<ens::Executable> executable;
  /// The state (parameters and moments) twice: in [current], out [1 - it].
  std::array<std::vector<ens::Tensor>, 2> state;
  /// The shared inputs after the state: step, lr, x, targets.
  std::vector<ens::Tensor> inputs;
  ens::Tensor losses{ens::TensorType{}};
  /// DLPack views and their pointers for each direction of the swap.
  std::array<std::vector<DLTensor>, 2> argViews, resultViews;
  std::array<std::vector<const DLTensor *>, 2> args;
  std::array<std::vector<DLTensor *>, 2> results;
  int current = 0;
  double steps = 0;
  double compileSeconds_ = 0;
};

} // namespace ens_bench

#endif // ENS_BENCH_ENSRUNNER_H
