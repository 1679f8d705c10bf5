//===- HeteroRunner.h - ens's implementations of Hetero ---------*- C++ -*-===//
//
// A heterogeneous ensemble (Workload::Kind::Hetero, issue #30) compiled by
// ens three ways, each run in process as EnsRunner runs a step (two copies
// of the state, swapped after each step):
//
//   OneProgram  one program, one ens.vmap per architecture side by side
//               (Module::groups);
//   Separate    each architecture's own program, run one after another;
//   Padded      one homogeneous program of all members padded to the
//               widest architecture, masked to their own.
//
// The losses of every mode list the members architecture by architecture.
//
//===----------------------------------------------------------------------===//

#ifndef ENS_BENCH_HETERORUNNER_H
#define ENS_BENCH_HETERORUNNER_H

#include "Runner.h"
#include "Workload.h"

#include "ens/ens.h"

#include <array>
#include <memory>

namespace ens_bench {

class HeteroRunner : public StepRunner {
public:
  enum class Mode { OneProgram, Separate, Padded };

  /// Compiles `workload`'s step in `mode` for `threads` threads, loads
  /// `data` (makeData) and runs `checkSteps` steps, recording their losses.
  /// Throws ens::Error.
  HeteroRunner(const ens::Context &context, const Workload &workload,
               const std::vector<Array> &data, int threads, int checkSteps,
               Mode mode);

  /// Seconds spent compiling.
  double compileSeconds() const { return compileSeconds_; }

private:
  /// One compiled program and its DLPack views for each direction of the
  /// swap: in [from], out [1 - from].
  struct Program {
    std::unique_ptr<ens::Executable> executable;
    std::array<std::vector<DLTensor>, 2> argViews, resultViews;
    std::array<std::vector<const DLTensor *>, 2> args;
    std::array<std::vector<DLTensor *>, 2> results;
  };

  /// Compiles `function` of `module` as a new Program.
  Program &compile(const ens::Module &module, const std::string &function,
                   int threads);
  /// Sets `program`'s views for direction `from`: `args` and `results`.
  static void bind(Program &program, int from,
                   const std::vector<ens::Tensor *> &args,
                   const std::vector<ens::Tensor *> &results);
  /// Allocates the state, both copies, of the types `types`.
  void allocateState(const std::vector<ens::TensorType> &types);
  /// Fills the state for OneProgram and Separate, and the padded state,
  /// masks and gates for Padded, from `data`.
  void loadState(const Workload &workload, const std::vector<Array> &data);
  void loadPaddedState(const Workload &workload,
                       const std::vector<Array> &data);
  void step() override;

  Mode mode;
  std::vector<Program> programs;
  /// The state (parameters and moments): in [current], out [1 - it]. For
  /// OneProgram and Separate, architecture k's from offsets[k].
  std::array<std::vector<ens::Tensor>, 2> state;
  std::vector<size_t> offsets;
  /// The shared inputs: step, lr, x, targets.
  std::vector<ens::Tensor> inputs;
  /// Padded: the masks of the parameters and the gates of the layers.
  std::vector<ens::Tensor> masks;
  /// The losses of each architecture (Padded: of all members).
  std::vector<ens::Tensor> losses;
  int current = 0;
  double steps = 0;
  double compileSeconds_ = 0;
};

} // namespace ens_bench

#endif // ENS_BENCH_HETERORUNNER_H
