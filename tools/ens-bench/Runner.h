//===- Runner.h - One implementation of a workload --------------*- C++ -*-===//
//
// ens-bench alternates between implementations of the same workload: ens in
// process (EnsRunner) and each peer in its own process (PeerRunner). Each
// is set up (and compiled) once, runs a few checked steps from the shared
// initial state, is warmed up, and then runs timed blocks of steps when
// asked, so that ens and the peers take turns: A B A B.
//
//===----------------------------------------------------------------------===//

#ifndef ENS_BENCH_RUNNER_H
#define ENS_BENCH_RUNNER_H

#include <string>
#include <vector>

namespace ens_bench {

/// What an implementation says about itself.
struct RunnerInfo {
  /// "ens", "libtorch-loop", "torch-func-vmap", ...
  std::string impl;
  bool available = false;
  /// Why it is unavailable.
  std::string reason;
  /// The framework and its version, e.g. "torch 2.5.1".
  std::string version;
  /// What computes the contractions, e.g. "OpenBLAS 0.3.21 (pthread)".
  std::string blas;
  /// How the step is written, in a few words.
  std::string notes;
  /// Whether this is ens itself written another way (hetero's separate and
  /// padded programs, ens.torch's program), which the summary compares with
  /// ens apart from the peers.
  bool ensVariant = false;
  /// The threads it runs on.
  int threads = 0;
  /// The losses of its first steps from the initial state, one vector per
  /// step (one loss per member).
  std::vector<std::vector<double>> checkLosses;
};

/// How long a block of timed steps runs.
struct BlockSpec {
  /// At least this many steps, and at least this long.
  int minSteps = 3;
  double minMs = 100;
  /// At most this many steps.
  int maxSteps = 2000;
};

/// One implementation, ready to run steps.
class Runner {
public:
  virtual ~Runner() = default;
  const RunnerInfo &info() const { return info_; }
  /// Runs untimed steps: at least `minSteps`, for at least `minMs`.
  virtual void warmup(int minSteps, double minMs) = 0;
  /// Runs one untimed step, then times steps one by one as `spec` says and
  /// returns the milliseconds of each.
  virtual std::vector<double> block(const BlockSpec &spec) = 0;

protected:
  RunnerInfo info_;
};

/// An implementation that runs its steps in this process: warm-up and
/// blocks call step() and time each call.
class StepRunner : public Runner {
public:
  void warmup(int minSteps, double minMs) final;
  std::vector<double> block(const BlockSpec &spec) final;

protected:
  /// One training step.
  virtual void step() = 0;
};

} // namespace ens_bench

#endif // ENS_BENCH_RUNNER_H
