//===- ens-bench.cpp - Training steps of ens against its peers ------------===//
//
// Usage:
//   ens-bench [--workloads=NAME,...] [--impls=NAME,...] [--threads=N,...]
//             [--repeats=N] [--block-ms=MS] [--warmup-ms=MS]
//             [--settle-ms=MS] [--python=PATH | --no-python]
//             [--torch-peer=PATH] [--peers-dir=DIR] [--seed=N]
//             [--json=FILE] [--list]
//
// Times one full training step (forward, loss, backward, update) of each
// workload (Workload.h) compiled by ens for the CPU against peers measured
// in the same run on the same cores: libtorch in C++ (a loop over members,
// and the members hand-batched with bmm/baddbmm) and, where the Python
// interpreter has them, PyTorch (a loop, torch.func.vmap, torch.compile) and
// JAX (jit(vmap(value_and_grad))). Every implementation starts from the same
// state and data; their first losses are checked against ens's.
//
// Each implementation is set up and warmed up, then they take turns: each
// runs a block of timed steps (after one untimed step), then the machine
// is left to settle (idle OpenMP threads spin for a while), then the next
// one runs; this is repeated --repeats times. The table gives the median,
// min and max milliseconds per step over all timed steps, each peer's
// median divided by ens's, and the GFLOP/s of the median.
//
//===----------------------------------------------------------------------===//

#include "EnsRunner.h"
#include "HeteroRunner.h"
#include "Machine.h"
#include "Peak.h"
#include "PeerRunner.h"
#include "Process.h"
#include "Report.h"
#include "Workload.h"
#include "ens/ens.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <thread>
#include <unistd.h>

using namespace ens_bench;

namespace {

struct Options {
  std::vector<std::string> workloads, impls;
  /// The thread counts to run every workload at; empty for all usable
  /// cores.
  std::vector<int> threadCounts;
  /// The count of the workload being run.
  int threads = 0;
  int repeats = 10;
  double blockMs = 100, warmupMs = 1000, settleMs = 250;
  int checkSteps = 3;
  std::string python = "python3";
  bool noPython = false;
  std::string torchPeer, peersDir = ENS_BENCH_PEERS_DIR;
  uint64_t seed = 1;
  std::string json;
  bool list = false;
  /// Set in the peers' environment over ens-bench's defaults.
  std::map<std::string, std::string> peerEnv;
  /// Where the data and the peers' logs go; kept when given.
  std::string workDir;
};

const char *kUsage = R"(usage: ens-bench [options]
  --workloads=NAME,...  workloads to run (default: all; see --list)
  --impls=NAME,...      peers to run besides ens (default: all), e.g.
                        libtorch-loop,torch-func-vmap,jax-jit-vmap
  --threads=N,...       cores for ens and every peer (default: all usable);
                        with several counts, each workload runs at each in
                        turn, so that the scaling is measured together
  --repeats=N           timed blocks per implementation (default 10)
  --block-ms=MS         a block runs at least 3 steps and MS ms (default 100)
  --warmup-ms=MS        warm-up per implementation (default 1000)
  --settle-ms=MS        idle time between blocks (default 250)
  --python=PATH         interpreter for the Python peers (default python3)
  --no-python           run no Python peer
  --torch-peer=PATH     the libtorch peer (default: next to ens-bench)
  --peers-dir=DIR       the Python peers (default: the source tree's)
  --seed=N              initial state and data (default 1)
  --json=FILE           also write the results as JSON
  --peer-env=KEY=VALUE  set KEY in every peer's environment (repeatable);
                        the defaults set OMP_NUM_THREADS, MKL_NUM_THREADS
                        and OPENBLAS_NUM_THREADS to --threads, except
                        OPENBLAS_NUM_THREADS=1 for libtorch
  --work-dir=DIR        keep the data and the peers' logs in DIR (default:
                        a temporary directory, removed at the end)
  --list                list the workloads and peers, and exit
)";

std::vector<std::string> splitList(const std::string &text) {
  std::vector<std::string> items;
  size_t start = 0;
  while (start <= text.size()) {
    size_t comma = text.find(',', start);
    std::string item = text.substr(start, comma - start);
    if (!item.empty())
      items.push_back(item);
    if (comma == std::string::npos)
      break;
    start = comma + 1;
  }
  return items;
}

double parseNumber(const std::string &option, const std::string &value,
                   double min) {
  char *end = nullptr;
  double number = std::strtod(value.c_str(), &end);
  if (value.empty() || *end != '\0' || !(number >= min))
    throw ens::Error("bad value '" + value + "' for " + option);
  return number;
}

Options parseOptions(int argc, char **argv) {
  Options options;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      std::cout << kUsage;
      std::exit(0);
    }
    if (arg == "--no-python") {
      options.noPython = true;
      continue;
    }
    if (arg == "--list") {
      options.list = true;
      continue;
    }
    size_t eq = arg.find('=');
    if (arg.rfind("--", 0) != 0 || eq == std::string::npos)
      throw ens::Error("unknown argument '" + arg + "' (see --help)");
    std::string key = arg.substr(0, eq), value = arg.substr(eq + 1);
    if (key == "--workloads")
      options.workloads = splitList(value);
    else if (key == "--impls")
      options.impls = splitList(value);
    else if (key == "--threads") {
      options.threadCounts.clear();
      for (const std::string &count : splitList(value))
        options.threadCounts.push_back(
            static_cast<int>(parseNumber(key, count, 1)));
      if (options.threadCounts.empty())
        throw ens::Error("--threads takes one count or more");
    } else if (key == "--repeats")
      options.repeats = static_cast<int>(parseNumber(key, value, 1));
    else if (key == "--block-ms")
      options.blockMs = parseNumber(key, value, 0);
    else if (key == "--warmup-ms")
      options.warmupMs = parseNumber(key, value, 0);
    else if (key == "--settle-ms")
      options.settleMs = parseNumber(key, value, 0);
    else if (key == "--python")
      options.python = value;
    else if (key == "--torch-peer")
      options.torchPeer = value;
    else if (key == "--peers-dir")
      options.peersDir = value;
    else if (key == "--seed")
      options.seed = static_cast<uint64_t>(parseNumber(key, value, 0));
    else if (key == "--json")
      options.json = value;
    else if (key == "--work-dir")
      options.workDir = value;
    else if (key == "--peer-env") {
      size_t split = value.find('=');
      if (split == 0 || split == std::string::npos)
        throw ens::Error("--peer-env takes KEY=VALUE, not '" + value + "'");
      options.peerEnv[value.substr(0, split)] = value.substr(split + 1);
    } else
      throw ens::Error("unknown option '" + key + "' (see --help)");
  }
  return options;
}

/// The directory of this executable.
std::string ownDirectory() {
  std::error_code error;
  std::filesystem::path self =
      std::filesystem::read_symlink("/proc/self/exe", error);
  return error ? "." : self.parent_path().string();
}

/// A peer program, or why it cannot run.
struct PeerProgram {
  std::vector<std::string> command;
  std::string unavailable;
  std::map<std::string, std::string> env;
  /// Whether it runs ens's own code (PeerSpec::ensVariant).
  bool ensVariant = false;
};

/// The peers that apply to `workload`, in the table's order.
std::vector<std::pair<PeerSpec, std::string>>
peersFor(const Workload &workload, const PeerProgram &libtorch,
         const PeerProgram &torch, const PeerProgram &jax,
         const PeerProgram &ensTorch) {
  bool members = workload.kind != Workload::Kind::Tensordot;
  std::vector<std::pair<PeerSpec, std::string>> peers;
  auto add = [&](const std::string &impl, const PeerProgram &program,
                 const std::string &peerImpl) {
    peers.push_back(
        {{impl, program.command, peerImpl, program.env, program.ensVariant},
         program.unavailable});
  };
  // A heterogeneous ensemble has no stacked form: the peers loop over the
  // models; ens.torch groups them.
  if (workload.kind == Workload::Kind::Hetero) {
    add("libtorch-loop", libtorch, "loop");
    add("torch-loop", torch, "loop");
    add("ens-torch", ensTorch, "train-step");
    return peers;
  }
  // A loop over members has nothing to loop over for one model.
  if (members)
    add("libtorch-loop", libtorch, "loop");
  add(members ? "libtorch-bmm" : "libtorch-batched", libtorch, "bmm");
  if (members)
    add("torch-loop", torch, "loop");
  add("torch-func-vmap", torch, "vmap");
  add("torch-compile", torch, "compile");
  add("jax-jit-vmap", jax, "jit-vmap");
  // ens's own Python path (ens.torch), beside its C++ path.
  if (members)
    add("ens-torch", ensTorch, "train-step");
  return peers;
}

/// The Python peer `script` run by `python` if it can import `module`.
PeerProgram pythonPeer(const Options &options, const std::string &module,
                       const std::string &script) {
  if (options.noPython)
    return {{}, "--no-python"};
  int status = runQuietly({options.python, "-c", "import " + module});
  if (status < 0 || status == 127)
    return {{}, options.python + " not found"};
  if (status != 0)
    return {{}, options.python + " cannot import " + module};
  std::string path = options.peersDir + "/" + script;
  if (access(path.c_str(), R_OK) != 0)
    return {{}, path + " not found"};
  return {{options.python, path}, ""};
}

/// Runs `body` on every runner still active, marking one that fails.
template <typename Fn>
void forEachActive(std::vector<std::unique_ptr<Runner>> &runners,
                   WorkloadResult &result, double settleMs, Fn body) {
  for (size_t i = 0; i < runners.size(); ++i) {
    ImplResult &impl = result.impls[i];
    if (!runners[i] || !impl.failure.empty())
      continue;
    try {
      body(*runners[i], impl);
    } catch (const std::exception &error) {
      impl.failure = error.what();
      std::cerr << "  " << impl.info.impl << " failed: " << error.what()
                << "\n";
      if (i == 0)
        throw ens::Error("ens failed on " + result.workload.name + ": " +
                         error.what());
    }
    std::this_thread::sleep_for(
        std::chrono::duration<double, std::milli>(settleMs));
  }
}

WorkloadResult runWorkload(const ens::Context &context,
                           const Workload &workload, const Options &options,
                           const std::set<std::string> &wanted,
                           const PeerProgram &libtorch,
                           const PeerProgram &torch, const PeerProgram &jax,
                           const PeerProgram &ensTorch,
                           const std::string &workDir) {
  std::cerr << "[" << workload.name << ", " << options.threads << " threads] "
            << workload.description << "\n";
  std::string dataDir = workDir + "/" + workload.name;
  std::filesystem::create_directories(dataDir);
  std::vector<Array> data = makeData(workload, options.seed);
  writeData(data, dataDir);

  WorkloadResult result;
  result.workload = workload;
  result.threads = options.threads;
  std::vector<std::unique_ptr<Runner>> runners;
  if (workload.kind == Workload::Kind::Hetero) {
    // ens's one program, then ens's other ways of running the ensemble.
    for (HeteroRunner::Mode mode :
         {HeteroRunner::Mode::OneProgram, HeteroRunner::Mode::Separate,
          HeteroRunner::Mode::Padded}) {
      auto ens = std::make_unique<HeteroRunner>(
          context, workload, data, options.threads, options.checkSteps, mode);
      std::cerr << "  " << ens->info().impl << ": compiled in "
                << ens->compileSeconds() << " s\n";
      if (mode == HeteroRunner::Mode::OneProgram)
        result.ensCompileSeconds = ens->compileSeconds();
      else if (!wanted.empty() && !wanted.count(ens->info().impl))
        continue;
      result.impls.push_back({ens->info(), {}, "", std::nullopt});
      runners.push_back(std::move(ens));
    }
  } else {
    auto ens = std::make_unique<EnsRunner>(context, workload, data,
                                           options.threads, options.checkSteps);
    result.ensCompileSeconds = ens->compileSeconds();
    std::cerr << "  ens: compiled in " << ens->compileSeconds() << " s\n";
    result.impls.push_back({ens->info(), {}, "", std::nullopt});
    runners.push_back(std::move(ens));
  }

  std::map<std::string, std::string> env;
  for (const char *name :
       {"OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS"})
    env[name] = std::to_string(options.threads);
  env["JAX_PLATFORMS"] = "cpu";
  env["PYTHONUNBUFFERED"] = "1";
  env["TF_CPP_MIN_LOG_LEVEL"] = "2";
  for (auto &[spec, unavailable] :
       peersFor(workload, libtorch, torch, jax, ensTorch)) {
    if (!wanted.empty() && !wanted.count(spec.impl))
      continue;
    std::map<std::string, std::string> peerEnv = env;
    for (const auto &[key, value] : spec.env)
      peerEnv[key] = value;
    for (const auto &[key, value] : options.peerEnv)
      peerEnv[key] = value;
    std::unique_ptr<Runner> peer;
    RunnerInfo info;
    if (unavailable.empty()) {
      std::cerr << "  " << spec.impl << ": starting\n";
      peer = std::make_unique<PeerRunner>(
          spec, workload, dataDir, options.threads, options.checkSteps, peerEnv,
          dataDir + "/" + spec.impl + ".log");
      info = peer->info();
    } else {
      info.impl = spec.impl;
      info.reason = unavailable;
    }
    if (!info.available) {
      std::cerr << "  " << spec.impl << ": unavailable (" << info.reason
                << ")\n";
      peer.reset();
    }
    result.impls.push_back({info, {}, "", std::nullopt});
    runners.push_back(std::move(peer));
  }

  for (size_t i = 1; i < result.impls.size(); ++i) {
    ImplResult &impl = result.impls[i];
    if (!impl.info.available)
      continue;
    checkLosses(impl, result.impls[0]);
    if (impl.lossDifference && *impl.lossDifference > kLossTolerance)
      std::cerr << "  warning: " << impl.info.impl
                << "'s first losses differ from ens's by "
                << *impl.lossDifference << " (relative), more than "
                << kLossTolerance << "\n";
  }

  std::cerr << "  warming up\n";
  forEachActive(runners, result, options.settleMs,
                [&](Runner &runner, ImplResult &) {
                  runner.warmup(3, options.warmupMs);
                });
  BlockSpec spec;
  spec.minMs = options.blockMs;
  for (int round = 0; round < options.repeats; ++round) {
    std::cerr << "  round " << round + 1 << "/" << options.repeats << "\r"
              << std::flush;
    forEachActive(runners, result, options.settleMs,
                  [&](Runner &runner, ImplResult &impl) {
                    std::vector<double> times = runner.block(spec);
                    impl.samples.insert(impl.samples.end(), times.begin(),
                                        times.end());
                  });
  }
  std::cerr << "\n";
  return result;
}

/// One line per workload and thread count: how ens compares with its
/// fastest peer, and a line for each of ens's other forms of the step; then,
/// for a workload run at several counts, how ens's step scaled between each two
/// of them.
void printSummary(std::ostream &os,
                  const std::vector<WorkloadResult> &results) {
  char line[256];
  for (const WorkloadResult &result : results) {
    const ImplResult *ens = result.ens();
    const ImplResult *best = nullptr;
    for (const ImplResult &impl : result.impls)
      if (&impl != ens && !impl.info.ensVariant && impl.measured() &&
          (!best || impl.median() < best->median()))
        best = &impl;
    if (!ens || !best) {
      os << "  " << result.workload.name << " (" << result.threads
         << " threads): no peer measured\n";
    } else {
      double ratio = best->median() / ens->median();
      std::snprintf(line, sizeof(line),
                    "  %s (%d threads): fastest peer %s at %.2fx ens's time "
                    "(%s)\n",
                    result.workload.name.c_str(), result.threads,
                    best->info.impl.c_str(), ratio,
                    ratio > 1 ? "ens ahead" : "ens BEHIND");
      os << line;
    }
    if (!ens || !ens->measured())
      continue;
    for (const ImplResult &impl : result.impls)
      if (impl.info.ensVariant && impl.measured()) {
        std::snprintf(line, sizeof(line),
                      "  %s (%d threads): %s at %.2fx ens's time\n",
                      result.workload.name.c_str(), result.threads,
                      impl.info.impl.c_str(), impl.median() / ens->median());
        os << line;
      }
  }
  for (size_t i = 0; i < results.size(); ++i)
    for (size_t j = i + 1; j < results.size(); ++j) {
      const ImplResult *first = results[i].ens(), *other = results[j].ens();
      if (results[j].workload.name != results[i].workload.name || !first ||
          !other || !first->measured() || !other->measured())
        continue;
      std::snprintf(line, sizeof(line),
                    "  %s: ens's step %.2fx faster on %d threads than on %d\n",
                    results[i].workload.name.c_str(),
                    first->median() / other->median(), results[j].threads,
                    results[i].threads);
      os << line;
    }
}

int run(int argc, char **argv) {
  Options options = parseOptions(argc, argv);
  std::vector<Workload> all = defaultWorkloads();
  if (options.list) {
    for (const Workload &workload : all)
      std::cout << workload.name << ": " << workload.description << " ("
                << workload.flopsPerStep() << " FLOP per step)\n";
    std::cout << "peers: libtorch-loop libtorch-bmm (libtorch-batched) "
                 "torch-loop torch-func-vmap torch-compile jax-jit-vmap "
                 "ens-torch; for hetero also ens-separate ens-padded\n";
    return 0;
  }
  std::vector<Workload> workloads;
  for (const Workload &workload : all)
    if (options.workloads.empty() ||
        std::find(options.workloads.begin(), options.workloads.end(),
                  workload.name) != options.workloads.end())
      workloads.push_back(workload);
  for (const std::string &name : options.workloads)
    if (std::none_of(all.begin(), all.end(),
                     [&](const Workload &w) { return w.name == name; }))
      throw ens::Error("unknown workload '" + name + "' (see --list)");

  if (options.threadCounts.empty())
    options.threadCounts = {usableCores()};

  RunSettings settings;
  settings.cpu = cpuModel();
  settings.system = systemName();
  settings.onlineCores = onlineCores();
  settings.threads = options.threadCounts;
  settings.repeats = options.repeats;
  settings.blockMs = options.blockMs;
  settings.warmupMs = options.warmupMs;
  settings.settleMs = options.settleMs;
  settings.checkSteps = options.checkSteps;
  settings.seed = options.seed;
  settings.lossTolerance = kLossTolerance;
  std::cout << "ens-bench: " << settings.cpu << ", " << settings.onlineCores
            << " cores online; " << settings.system << "\n";
  // Each count runs on as many cores: before anything starts a thread, so
  // that ens's threads, and every peer (JAX and MKL size their pools by the
  // cores they see), stay on them.
  std::map<int, double> peaks;
  for (int threads : options.threadCounts) {
    restrictToCores(threads);
    MeasuredPeak peak = measureFp32Peak(threads);
    peaks[threads] = peak.gflops;
    settings.peakIsa = peak.isa;
    std::cout << "measured FP32 peak on " << threads
              << " threads: " << static_cast<int>(peak.gflops + 0.5)
              << " GFLOP/s (" << peak.isa << " loop, 12 accumulators)\n";
  }

  PeerProgram libtorch;
  std::string torchPeer = options.torchPeer.empty()
                              ? ownDirectory() + "/torch-peer"
                              : options.torchPeer;
  if (access(torchPeer.c_str(), X_OK) == 0) {
    libtorch.command = {torchPeer};
    // libtorch runs its own OpenMP threads; OpenBLAS's pthreads on top of
    // them oversubscribe the cores (up to 8x slower steps measured), so
    // its BLAS calls run on the calling thread.
    libtorch.env["OPENBLAS_NUM_THREADS"] = "1";
  } else
    libtorch.unavailable =
        "ens-bench was built without libtorch (no " + torchPeer + ")";
  PeerProgram torch = pythonPeer(options, "torch", "torch_peer.py");
  PeerProgram jax = pythonPeer(options, "jax", "jax_peer.py");
  // The ens package this build made (python/), which the peer imports.
  PeerProgram ensTorch = pythonPeer(options, "torch", "ens_torch_peer.py");
  ensTorch.env["ENS_PYTHON_PATH"] = ownDirectory() + "/../python";
  // ens.torch runs ens's own code: the summary compares it with ens apart
  // from the frameworks ens is measured against.
  ensTorch.ensVariant = true;
  std::set<std::string> wanted(options.impls.begin(), options.impls.end());

  std::string workDir = options.workDir;
  char pattern[] = "/tmp/ens-bench-XXXXXX";
  if (workDir.empty() && !mkdtemp(pattern))
    throw ens::Error("cannot create a directory under /tmp");
  struct Cleanup {
    std::string dir;
    ~Cleanup() {
      std::error_code ignored;
      if (!dir.empty())
        std::filesystem::remove_all(dir, ignored);
    }
  } cleanup{workDir.empty() ? pattern : ""};
  if (workDir.empty())
    workDir = pattern;

  ens::Context context;
  std::vector<WorkloadResult> results;
  for (const Workload &workload : workloads)
    for (int threads : options.threadCounts) {
      restrictToCores(threads);
      options.threads = threads;
      results.push_back(runWorkload(context, workload, options, wanted,
                                    libtorch, torch, jax, ensTorch, workDir));
      results.back().peakGflops = peaks[threads];
    }

  std::cout << "\n";
  printTable(std::cout, results);
  std::cout << "\nimplementations:\n";
  printImplementations(std::cout, results);
  std::cout << "\nsummary:\n";
  printSummary(std::cout, results);
  std::cout << "\nGFLOP/s count 2*M*N*K per contraction, once forward and "
               "twice backward, for every member.\n";
  if (!options.json.empty()) {
    std::ofstream file(options.json);
    file << toJson(settings, results).dump(2) << "\n";
    if (!file)
      throw ens::Error("cannot write " + options.json);
    std::cout << "wrote " << options.json << "\n";
  }
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  try {
    return run(argc, argv);
  } catch (const ens::Error &error) {
    // ens-bench's own failures and the C++ API's alike.
    std::cerr << "ens-bench: error: " << error.what() << "\n";
  }
  return 1;
}
