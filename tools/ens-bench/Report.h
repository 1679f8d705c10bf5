//===- Report.h - The results of a benchmark run ----------------*- C++ -*-===//
//
// Per (workload, implementation): the per-step times of every timed block,
// their median, min and max, the ratio of a peer's median to ens's, the
// GFLOP/s that median achieves (Workload::flopsPerStep), and whether its
// first losses agree with ens's. Printed as a table and saved as JSON.
//
//===----------------------------------------------------------------------===//

#ifndef ENS_BENCH_REPORT_H
#define ENS_BENCH_REPORT_H

#include "Runner.h"
#include "Workload.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <ostream>

namespace ens_bench {

/// One implementation of one workload.
struct ImplResult {
  RunnerInfo info;
  /// Milliseconds of every timed step.
  std::vector<double> samples;
  /// Why it stopped during the run, if it did.
  std::string failure;
  /// The largest difference of its first losses from ens's, relative to
  /// max(1, |ens's|), when both have them.
  std::optional<double> lossDifference;

  bool measured() const { return info.available && !samples.empty(); }
  double median() const;
  double min() const;
  double max() const;
};

struct WorkloadResult {
  Workload workload;
  /// The cores ens and every peer ran on.
  int threads = 1;
  /// The FP32 peak measured on those cores (Peak.h), GFLOP/s; 0 if none.
  double peakGflops = 0;
  double ensCompileSeconds = 0;
  /// ens first.
  std::vector<ImplResult> impls;

  const ImplResult *ens() const;
};

/// How the run was made, for the header and the JSON.
struct RunSettings {
  std::string cpu, system;
  int onlineCores = 0, repeats = 0, checkSteps = 0;
  /// The thread counts the workloads ran at, each on as many cores.
  std::vector<int> threads;
  double blockMs = 0, warmupMs = 0, settleMs = 0;
  uint64_t seed = 0;
  double lossTolerance = 0;
  /// The instructions of the FMA loop that measured the peaks (Peak.h).
  std::string peakIsa;
};

/// The loss-check tolerance: |peer - ens| <= tolerance * max(1, |ens|).
constexpr double kLossTolerance = 1e-4;

/// Compares `impl`'s first losses with `ens`'s, filling lossDifference.
void checkLosses(ImplResult &impl, const ImplResult &ens);

/// Prints the table of `results`, each rate also as a percentage of the
/// peak measured on its cores.
void printTable(std::ostream &os, const std::vector<WorkloadResult> &results);
/// Prints which framework, version and BLAS each implementation used.
void printImplementations(std::ostream &os,
                          const std::vector<WorkloadResult> &results);

/// Everything as JSON.
nlohmann::json toJson(const RunSettings &settings,
                      const std::vector<WorkloadResult> &results);

} // namespace ens_bench

#endif // ENS_BENCH_REPORT_H
