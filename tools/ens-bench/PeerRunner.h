//===- PeerRunner.h - A peer implementation in its own process --*- C++ -*-===//
//
// A peer is a program (tools/ens-bench/torch-peer, or a Python script under
// peers/) that implements a workload's step in another framework. It is
// started with the workload on its command line,
//
//   PEER --impl=NAME --model=mlp|tensordot --members=.. --groups=.. --in=..
//        --hidden=.. --out=.. --batch=.. --lr=.. --data=DIR --threads=N
//        --check-steps=K
//
// loads the initial state from DIR (Workload.h), sets up, runs K steps and
// prints ONE line of JSON:
//
//   {"event": "ready", "impl": .., "version": .., "blas": .., "notes": ..,
//    "threads": N, "losses": [[losses of step 1], ...]}
//   {"event": "unavailable", "reason": ..}        (and exits)
//
// Then it answers commands on its standard input, one line each:
//
//   warmup MIN_STEPS MIN_MS            -> {"event": "warmup"}
//   block MIN_STEPS MIN_MS MAX_STEPS   -> {"event": "block", "ms": [..]}
//   quit                               -> exits
//
// A block runs one untimed step and then times steps one by one until it
// has run at least MIN_STEPS for at least MIN_MS (at most MAX_STEPS).
// Anything a peer prints on standard error goes to a log file.
//
//===----------------------------------------------------------------------===//

#ifndef ENS_BENCH_PEERRUNNER_H
#define ENS_BENCH_PEERRUNNER_H

#include "Process.h"
#include "Runner.h"
#include "Workload.h"

#include <map>
#include <memory>

namespace ens_bench {

/// How to start one peer implementation.
struct PeerSpec {
  /// Its name in the table, e.g. "torch-func-vmap".
  std::string impl;
  /// The program and its first arguments, e.g. {python, script}.
  std::vector<std::string> command;
  /// What it is called on its own command line (--impl=...).
  std::string peerImpl;
  /// Set in its environment over ens-bench's defaults.
  std::map<std::string, std::string> env;
  /// Whether it runs ens's own code (ens.torch), which the summary compares
  /// with ens apart from the peers (ImplInfo::ensVariant).
  bool ensVariant = false;
};

class PeerRunner : public Runner {
public:
  /// Starts the peer and waits until it is ready or says it cannot run.
  /// Never throws for a peer that fails: it is then unavailable, with the
  /// end of its log as the reason.
  PeerRunner(const PeerSpec &spec, const Workload &workload,
             const std::string &dataDir, int threads, int checkSteps,
             const std::map<std::string, std::string> &env,
             const std::string &logPath);
  ~PeerRunner() override;

  void warmup(int minSteps, double minMs) override;
  std::vector<double> block(const BlockSpec &spec) override;

private:
  /// Reads the peer's next line as JSON with "event" equal to `event`, or
  /// throws ens::Error with what went wrong.
  std::string expect(const std::string &event);
  /// Why the peer stopped: its exit status and the end of its log.
  std::string whyItStopped();

  std::unique_ptr<Process> process;
  std::string logPath;
};

} // namespace ens_bench

#endif // ENS_BENCH_PEERRUNNER_H
