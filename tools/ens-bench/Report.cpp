//===- Report.cpp - The results of a benchmark run ------------------------===//
//
// Statistics, the table and the JSON of a run.
//
//===----------------------------------------------------------------------===//

#include "Report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>

using namespace ens_bench;
using nlohmann::json;

double ImplResult::median() const {
  std::vector<double> sorted = samples;
  std::sort(sorted.begin(), sorted.end());
  size_t n = sorted.size();
  return n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
}

double ImplResult::min() const {
  return *std::min_element(samples.begin(), samples.end());
}

double ImplResult::max() const {
  return *std::max_element(samples.begin(), samples.end());
}

const ImplResult *WorkloadResult::ens() const {
  for (const ImplResult &impl : impls)
    if (impl.info.impl == "ens" && impl.measured())
      return &impl;
  return nullptr;
}

void ens_bench::checkLosses(ImplResult &impl, const ImplResult &ens) {
  const auto &mine = impl.info.checkLosses, &theirs = ens.info.checkLosses;
  if (mine.empty() || mine.size() != theirs.size())
    return;
  double worst = 0;
  for (size_t step = 0; step < mine.size(); ++step) {
    if (mine[step].size() != theirs[step].size()) {
      impl.lossDifference = INFINITY;
      return;
    }
    for (size_t i = 0; i < mine[step].size(); ++i) {
      double scale = std::max(1.0, std::fabs(theirs[step][i]));
      double difference = std::fabs(mine[step][i] - theirs[step][i]) / scale;
      worst = std::isnan(difference) ? INFINITY : std::max(worst, difference);
    }
  }
  impl.lossDifference = worst;
}

namespace {
std::string format(const char *spec, double value) {
  char text[64];
  std::snprintf(text, sizeof(text), spec, value);
  return text;
}

/// Milliseconds with three significant digits or more.
std::string milliseconds(double ms) {
  return format(ms >= 100  ? "%.1f"
                : ms >= 10 ? "%.2f"
                : ms >= 1  ? "%.3f"
                           : "%.4f",
                ms);
}

std::string lossCell(const ImplResult &impl) {
  if (impl.info.impl == "ens")
    return "reference";
  if (!impl.lossDifference)
    return "-";
  return format("%.1e", *impl.lossDifference) +
         (*impl.lossDifference <= kLossTolerance ? " ok" : " MISMATCH");
}
} // namespace

void ens_bench::printTable(std::ostream &os,
                           const std::vector<WorkloadResult> &results) {
  char line[256];
  std::snprintf(line, sizeof(line),
                "%-15s %-17s %3s %10s %10s %10s %9s %9s %6s  %s\n", "workload",
                "implementation", "thr", "median ms", "min ms", "max ms",
                "peer/ens", "GFLOP/s", "% peak", "loss check");
  os << line << std::string(std::string(line).size() - 1, '-') << "\n";
  for (const WorkloadResult &result : results) {
    const ImplResult *ens = result.ens();
    for (const ImplResult &impl : result.impls) {
      if (!impl.measured()) {
        std::string why =
            impl.failure.empty() ? impl.info.reason : impl.failure;
        if (why.size() > 90)
          why = why.substr(0, 87) + "...";
        std::snprintf(line, sizeof(line), "%-15s %-17s %3d unavailable: %s\n",
                      result.workload.name.c_str(), impl.info.impl.c_str(),
                      result.threads, why.c_str());
        os << line;
        continue;
      }
      double median = impl.median();
      std::string ratio = ens ? format("%.2fx", median / ens->median()) : "-";
      double gflops = result.workload.flopsPerStep() / (median * 1e6);
      std::string percent =
          result.peakGflops > 0
              ? format("%.1f", 100 * gflops / result.peakGflops)
              : "-";
      std::snprintf(line, sizeof(line),
                    "%-15s %-17s %3d %10s %10s %10s %9s %9s %6s  %s\n",
                    result.workload.name.c_str(), impl.info.impl.c_str(),
                    result.threads, milliseconds(median).c_str(),
                    milliseconds(impl.min()).c_str(),
                    milliseconds(impl.max()).c_str(), ratio.c_str(),
                    format(gflops >= 10 ? "%.1f" : "%.3f", gflops).c_str(),
                    percent.c_str(), lossCell(impl).c_str());
      os << line;
    }
  }
}

void ens_bench::printImplementations(
    std::ostream &os, const std::vector<WorkloadResult> &results) {
  std::set<std::pair<std::string, int>> seen;
  for (const WorkloadResult &result : results)
    for (const ImplResult &impl : result.impls) {
      if (!impl.info.available ||
          !seen.insert({impl.info.impl, impl.info.threads}).second)
        continue;
      os << "  " << impl.info.impl << ": " << impl.info.version << "; "
         << impl.info.threads << " threads; contractions by " << impl.info.blas
         << "\n";
    }
}

json ens_bench::toJson(const RunSettings &settings,
                       const std::vector<WorkloadResult> &results) {
  json root;
  root["machine"] = {{"cpu", settings.cpu},
                     {"system", settings.system},
                     {"online_cores", settings.onlineCores},
                     {"fp32_peak_isa", settings.peakIsa}};
  root["settings"] = {{"threads", settings.threads},
                      {"repeats", settings.repeats},
                      {"block_ms", settings.blockMs},
                      {"warmup_ms", settings.warmupMs},
                      {"settle_ms", settings.settleMs},
                      {"check_steps", settings.checkSteps},
                      {"seed", settings.seed},
                      {"loss_tolerance", settings.lossTolerance}};
  root["flop_formula"] =
      "3 x sum over contractions of 2*M*N*K (forward once, backward twice), "
      "times the members";
  json workloads = json::array();
  for (const WorkloadResult &result : results) {
    const ImplResult *ens = result.ens();
    json w;
    w["name"] = result.workload.name;
    w["threads"] = result.threads;
    w["fp32_peak_gflops"] = result.peakGflops;
    w["description"] = result.workload.description;
    w["flops_per_step"] = result.workload.flopsPerStep();
    w["parameters"] = result.workload.peerArguments();
    w["ens_compile_seconds"] = result.ensCompileSeconds;
    json impls = json::array();
    for (const ImplResult &impl : result.impls) {
      json entry = {
          {"impl", impl.info.impl},       {"available", impl.measured()},
          {"version", impl.info.version}, {"blas", impl.info.blas},
          {"notes", impl.info.notes},     {"threads", impl.info.threads}};
      if (!impl.measured()) {
        entry["reason"] =
            impl.failure.empty() ? impl.info.reason : impl.failure;
      } else {
        double median = impl.median();
        entry["median_ms"] = median;
        entry["min_ms"] = impl.min();
        entry["max_ms"] = impl.max();
        entry["samples"] = impl.samples.size();
        entry["gflops"] = result.workload.flopsPerStep() / (median * 1e6);
        if (result.peakGflops > 0)
          entry["percent_of_peak"] =
              100 * entry["gflops"].get<double>() / result.peakGflops;
        if (ens)
          entry["ratio_to_ens"] = median / ens->median();
        entry["samples_ms"] = impl.samples;
      }
      if (impl.lossDifference) {
        entry["loss_difference"] = std::isfinite(*impl.lossDifference)
                                       ? json(*impl.lossDifference)
                                       : json("inf");
        entry["loss_ok"] = *impl.lossDifference <= kLossTolerance;
      }
      impls.push_back(entry);
    }
    w["results"] = impls;
    workloads.push_back(w);
  }
  root["workloads"] = workloads;
  return root;
}
