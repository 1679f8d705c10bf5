//===- ens-replay.cpp - Run an exported ens program -----------------------===//
//
// Runs an artifact written by ens-export through libens-runtime alone: no
// LLVM, no MLIR, so it runs where the compiler is not (the GPU check kit,
// scripts/gpu-kit.sh). It reads the arguments from .npy files, checks the
// results against expected .npy files, writes them, and times runs: wall
// clock on the host, CUDA events on a GPU (docs/runtime.md).
//
//===----------------------------------------------------------------------===//

#include "ens/Runtime/FileIO.h"
#include "ens/Runtime/Npy.h"
#include "ens/Runtime/Program.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <sys/stat.h>

using namespace ens::runtime;

namespace {
const char *const kUsage =
    "usage: ens-replay PROGRAM.ens [--input=a.npy]... [--expect=r.npy]...\n"
    "         [--backend=cpu|cuda|cuda-emu] [--rtol=R] [--atol=A]\n"
    "         [--time=N] [--json] [--output-dir=DIR] [--no-graph]\n"
    "\n"
    "Runs an exported ens program (ens-export) on .npy inputs, one per\n"
    "argument in order. --expect checks the results, in order: same dtype\n"
    "and shape, |got - want| <= atol + rtol * |want| (NaN matches NaN);\n"
    "--expect=- leaves that result unchecked.\n"
    "--time=N times N runs after one untimed run and prints the median, min\n"
    "and max (wall clock on the host; CUDA events around the launches on a\n"
    "GPU). --backend defaults to the artifact's target; cuda-emu runs a\n"
    "cuda artifact's kernels through the CPU emulation (export it with\n"
    "--emulator). --no-graph launches kernels one by one on cuda instead of\n"
    "replaying a CUDA graph.\n";

/// The command line.
struct Options {
  std::string program;
  std::vector<std::string> inputs, expected;
  std::optional<Backend> backend;
  double rtol = 1e-5, atol = 1e-6;
  unsigned times = 0;
  bool json = false, useGraph = true;
  std::string outputDir;
};

int fail(const std::string &message) {
  std::fprintf(stderr, "ens-replay: error: %s\n", message.c_str());
  return 1;
}

/// Parses a number option's value; false if it is not one.
template <typename T> bool parseNumber(const std::string &text, T &value) {
  char *end = nullptr;
  errno = 0;
  if constexpr (std::is_floating_point_v<T>) {
    value = std::strtod(text.c_str(), &end);
  } else {
    if (!text.empty() && text[0] == '-')
      return false;
    unsigned long long parsed = std::strtoull(text.c_str(), &end, 10);
    if (parsed > 1000000000ull)
      return false;
    value = static_cast<T>(parsed);
  }
  return !text.empty() && end && *end == '\0' && errno == 0;
}

Expected<Options> parseOptions(int argc, char **argv) {
  Options options;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    auto value = [&](const char *name, std::string &out) {
      std::string prefix = std::string("--") + name + "=";
      if (arg.compare(0, prefix.size(), prefix) != 0)
        return false;
      out = arg.substr(prefix.size());
      return true;
    };
    std::string text;
    if (value("input", text)) {
      options.inputs.push_back(text);
    } else if (value("expect", text)) {
      options.expected.push_back(text);
    } else if (value("backend", text)) {
      options.backend = parseBackendName(text);
      if (!options.backend)
        return Error("unknown backend '" + text +
                     "' (known: cpu, cuda, cuda-emu)");
    } else if (value("rtol", text) || value("atol", text)) {
      double &tolerance = arg[2] == 'r' ? options.rtol : options.atol;
      if (!parseNumber(text, tolerance) || !(tolerance >= 0))
        return Error("'" + arg + "' needs a tolerance of at least 0");
    } else if (value("time", text)) {
      if (!parseNumber(text, options.times))
        return Error("'" + arg + "' needs a count of runs up to 10^9");
    } else if (value("output-dir", text)) {
      options.outputDir = text;
    } else if (arg == "--json") {
      options.json = true;
    } else if (arg == "--no-graph") {
      options.useGraph = false;
    } else if (arg == "--help" || arg == "-h") {
      return Error("");
    } else if (arg.size() > 1 && arg[0] == '-') {
      return Error("unknown option '" + arg + "'");
    } else if (options.program.empty()) {
      options.program = arg;
    } else {
      return Error("give one program; '" + arg + "' is a second");
    }
  }
  if (options.program.empty())
    return Error("no program given");
  return options;
}

/// Checks result `index`, raw `data` of `spec`, against the .npy at `path`.
Error checkExpected(const Options &options, size_t index,
                    const TensorSpec &spec, const std::string &data,
                    const std::string &path) {
  Expected<std::string> bytes = readRegularFile(path);
  if (!bytes)
    return bytes.takeError();
  Expected<NpyArray> want = parseNpyArray(*bytes, path);
  if (!want)
    return want.takeError();
  if (want->dtype != spec.dtype || want->shape != spec.shape)
    return Error("result " + std::to_string(index) + " is a " +
                 spec.getTypeString() + "; " + path + " holds a " +
                 TensorSpec{"", want->dtype, want->shape}.getTypeString());
  int64_t count = static_cast<int64_t>(data.size() / getDTypeBytes(spec.dtype));
  for (int64_t i = 0; i < count; ++i) {
    double got = loadElement(data.data(), spec.dtype, i);
    double expect = loadElement(want->data.data(), spec.dtype, i);
    if (std::isnan(got) && std::isnan(expect))
      continue;
    if (!(std::fabs(got - expect) <=
          options.atol + options.rtol * std::fabs(expect))) {
      char message[256];
      std::snprintf(message, sizeof(message),
                    "result %zu differs from %s at element %lld: got %.9g, "
                    "expected %.9g (atol %g, rtol %g)",
                    index, path.c_str(), static_cast<long long>(i), got, expect,
                    options.atol, options.rtol);
      return Error(message);
    }
  }
  return Error::success();
}

double percentile(std::vector<double> values, double fraction) {
  std::sort(values.begin(), values.end());
  return values[static_cast<size_t>(fraction * (values.size() - 1) + 0.5)];
}

int replay(const Options &options) {
  Expected<Artifact> artifact = readArtifact(options.program);
  if (!artifact)
    return fail(artifact.takeError().getMessage());
  Backend backend = options.backend.value_or(
      artifact->target == ArtifactTarget::Cpu ? Backend::Cpu : Backend::Cuda);
  LoadOptions loadOptions;
  loadOptions.useGraph = options.useGraph;
  Expected<std::unique_ptr<Program>> program =
      Program::load(std::move(*artifact), backend, loadOptions);
  if (!program)
    return fail(program.takeError().getMessage());
  const Signature &signature = (*program)->getSignature();
  if (options.inputs.size() != signature.args.size())
    return fail("@" + (*program)->getArtifact().entry + " takes " +
                std::to_string(signature.args.size()) + " arguments; " +
                std::to_string(options.inputs.size()) +
                " --input files are given (one per argument, in order)");
  if (!options.expected.empty() &&
      options.expected.size() != signature.results.size())
    return fail("@" + (*program)->getArtifact().entry + " gives " +
                std::to_string(signature.results.size()) +
                " results; --expect names " +
                std::to_string(options.expected.size()) + " files");

  std::vector<std::string> files;
  std::vector<const void *> args;
  for (size_t i = 0; i < options.inputs.size(); ++i) {
    Expected<std::string> bytes = readRegularFile(options.inputs[i]);
    if (!bytes)
      return fail(bytes.takeError().getMessage());
    files.push_back(std::move(*bytes));
  }
  for (size_t i = 0; i < files.size(); ++i) {
    Expected<NpyArray> array = parseNpyArray(files[i], options.inputs[i]);
    if (!array)
      return fail(array.takeError().getMessage());
    const TensorSpec &spec = signature.args[i];
    if (array->dtype != spec.dtype || array->shape != spec.shape)
      return fail("argument " + std::to_string(i) + " is a " +
                  spec.getTypeString() + "; " + options.inputs[i] +
                  " holds a " +
                  TensorSpec{"", array->dtype, array->shape}.getTypeString());
    args.push_back(array->data.data());
  }
  std::vector<std::string> resultData;
  std::vector<void *> results;
  for (const TensorSpec &spec : signature.results)
    resultData.emplace_back(*getDenseBytes(spec.dtype, spec.shape), '\0');
  for (std::string &data : resultData)
    results.push_back(data.data());

  std::vector<double> seconds;
  if (options.times) {
    Expected<std::vector<double>> timed =
        (*program)->time(args, results, options.times);
    if (!timed)
      return fail(timed.takeError().getMessage());
    seconds = std::move(*timed);
  } else if (Error failure = (*program)->runOnHost(args, results)) {
    return fail(failure.getMessage());
  }

  for (size_t i = 0; i < options.expected.size(); ++i) {
    if (options.expected[i] == "-")
      continue;
    if (Error failure = checkExpected(options, i, signature.results[i],
                                      resultData[i], options.expected[i]))
      return fail(failure.getMessage());
  }
  if (!options.outputDir.empty()) {
    if (::mkdir(options.outputDir.c_str(), 0777) != 0 && errno != EEXIST)
      return fail("cannot create '" + options.outputDir +
                  "': " + std::strerror(errno));
    for (size_t i = 0; i < resultData.size(); ++i) {
      const TensorSpec &spec = signature.results[i];
      Expected<std::string> bytes =
          serializeNpyArray(spec.dtype, spec.shape, resultData[i]);
      if (!bytes)
        return fail(bytes.takeError().getMessage());
      std::string path =
          options.outputDir + "/out" + std::to_string(i) + ".npy";
      if (Error failure = writeFileAtomically(path, *bytes))
        return fail(failure.getMessage());
    }
  }

  const char *backendName = getBackendName(backend);
  const std::string &entry = (*program)->getArtifact().entry;
  bool checked = !options.expected.empty();
  if (options.json) {
    std::printf("{\"program\": \"%s\", \"entry\": \"%s\", \"backend\": "
                "\"%s\", \"checked\": %s",
                options.program.c_str(), entry.c_str(), backendName,
                checked ? "true" : "false");
    if (!seconds.empty())
      std::printf(", \"runs\": %zu, \"median_s\": %.9g, \"min_s\": %.9g, "
                  "\"max_s\": %.9g",
                  seconds.size(), percentile(seconds, 0.5),
                  percentile(seconds, 0), percentile(seconds, 1));
    std::printf("}\n");
    return 0;
  }
  std::printf("%s: @%s on %s%s\n", options.program.c_str(), entry.c_str(),
              backendName, checked ? ": results match the expected files" : "");
  if (!seconds.empty())
    std::printf("time over %zu runs: median %.3f us, min %.3f us, max %.3f "
                "us\n",
                seconds.size(), percentile(seconds, 0.5) * 1e6,
                percentile(seconds, 0) * 1e6, percentile(seconds, 1) * 1e6);
  return 0;
}
} // namespace

int main(int argc, char **argv) {
  Expected<Options> options = parseOptions(argc, argv);
  if (!options) {
    Error failure = options.takeError();
    if (failure.getMessage().empty()) {
      std::fputs(kUsage, stdout);
      return 0;
    }
    std::fputs(kUsage, stderr);
    return fail(failure.getMessage());
  }
  return replay(*options);
}
