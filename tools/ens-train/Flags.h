//===- Flags.h - The command line of ens-train ------------------*- C++ -*-===//
//
// ens-train's flags (LLVM command-line options), the parsers that turn a
// malformed value into one error line, and the settings they make,
// adopted from a checkpoint when resuming.
//
//===----------------------------------------------------------------------===//

#ifndef ENS_TRAIN_FLAGS_H
#define ENS_TRAIN_FLAGS_H

#include "ens/Train/Checkpoint.h"
#include "ens/Train/Settings.h"

#include "ens/ens.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/CommandLine.h"

#include <string>
#include <type_traits>
#include <vector>

namespace ens_train {

using namespace ens::train;

namespace cl = llvm::cl;

/// The category of ens-train's own options, which --help lists.
extern llvm::cl::OptionCategory category;

/// The first malformed option value, reported by main as one line (LLVM's
/// own parsers print their complaints themselves).
extern std::string badOptionValue;

/// cl::parser<T> for numbers, which records a malformed value instead of
/// printing it.
template <typename T> class NumberParser : public cl::parser<T> {
public:
  using cl::parser<T>::parser;

  bool parse(cl::Option &option, llvm::StringRef name, llvm::StringRef arg,
             T &value) {
    bool bad;
    if constexpr (std::is_floating_point_v<T>) {
      double number;
      bad = arg.getAsDouble(number);
      value = number;
    } else {
      bad = arg.getAsInteger(10, value);
    }
    if (bad && badOptionValue.empty())
      badOptionValue =
          "--" + name.str() + "=" + arg.str() + " is not " +
          (std::is_floating_point_v<T> ? "a number" : "a whole number >= 0");
    return bad;
  }
};

/// The counts of --members, one or one per --model.
extern std::vector<unsigned> memberCounts;

/// cl::parser for --members: a count, or counts separated by commas, which
/// it keeps in memberCounts (the option's value is the first).
class MemberCountsParser : public cl::parser<unsigned> {
public:
  using cl::parser<unsigned>::parser;

  bool parse(cl::Option &option, llvm::StringRef name, llvm::StringRef arg,
             unsigned &value) {
    llvm::SmallVector<llvm::StringRef> parts;
    arg.split(parts, ',');
    memberCounts.clear();
    for (llvm::StringRef part : parts) {
      if (part.getAsInteger(10, value)) {
        if (badOptionValue.empty())
          badOptionValue = "--" + name.str() + "=" + arg.str() +
                           " is not a whole number >= 0 or a list of them "
                           "separated by commas";
        return true;
      }
      memberCounts.push_back(value);
    }
    value = memberCounts.front();
    return false;
  }
};

/// The backends --backend names, and how the summary names them.
struct Backend {
  const char *name;
  ens::Target target;
  const char *description;
};
inline constexpr Backend kBackends[] = {
    {"cpu", ens::Target::Cpu, "cpu"},
    {"cuda", ens::Target::Cuda, "GPU"},
    {"cuda-emu", ens::Target::CudaEmu, "emulated GPU"},
    {"interp", ens::Target::Interpreter, "interpreter"}};

/// The backend `name` names (a valid --backend value).
const Backend &getBackend(llvm::StringRef name);

/// cl::parser for --backend, which records an unknown name.
class BackendParser : public cl::parser<std::string> {
public:
  using cl::parser<std::string>::parser;

  bool parse(cl::Option &option, llvm::StringRef name, llvm::StringRef arg,
             std::string &value) {
    value = arg.str();
    if (llvm::any_of(kBackends, [&](const Backend &backend) {
          return arg == backend.name;
        }))
      return false;
    if (badOptionValue.empty())
      badOptionValue = "--" + name.str() + "=" + arg.str() +
                       " is not a backend (cpu, cuda, cuda-emu or interp)";
    return true;
  }
};

// Every flag; Flags.cpp defines each with its description.
extern cl::list<std::string> modelPath;
extern cl::opt<std::string> taskName;
extern cl::opt<unsigned, false, NumberParser<unsigned>> ensembles;
extern cl::opt<unsigned, false, MemberCountsParser> members;
extern cl::opt<unsigned, false, NumberParser<unsigned>> steps;
extern cl::opt<unsigned, false, NumberParser<unsigned>> epochs;
extern cl::opt<unsigned, false, NumberParser<unsigned>> batchSize;
extern cl::opt<std::string> shuffleName;
extern cl::opt<bool> dropLast;
extern cl::opt<bool> bootstrap;
extern cl::opt<double, false, NumberParser<double>> learningRate;
extern cl::opt<double, false, NumberParser<double>> lrMin;
extern cl::opt<double, false, NumberParser<double>> lrMax;
extern cl::opt<double, false, NumberParser<double>> beta1;
extern cl::opt<double, false, NumberParser<double>> beta2;
extern cl::opt<double, false, NumberParser<double>> epsilon;
extern cl::opt<double, false, NumberParser<double>> weightDecay;
extern cl::opt<unsigned long long, false, NumberParser<unsigned long long>>
    seed;
extern cl::opt<std::string> dataPath;
extern cl::opt<unsigned, false, NumberParser<unsigned>> targetColumns;
extern cl::opt<bool> csvHeader;
extern cl::opt<std::string> validationPath;
extern cl::opt<double, false, NumberParser<double>> validationSplit;
extern cl::opt<unsigned, false, NumberParser<unsigned>> patience;
extern cl::opt<bool> dataParallel;
extern cl::opt<bool> allowNonFinite;
extern cl::opt<std::string, false, BackendParser> backendName;
extern cl::opt<std::string> initFrom;
extern cl::opt<unsigned, false, NumberParser<unsigned>> threads;
extern cl::opt<std::string> plotPath;
extern cl::opt<std::string> checkpointDir;
extern cl::opt<unsigned, false, NumberParser<unsigned>> checkpointEvery;
extern cl::opt<std::string> resumeDir;
extern cl::opt<bool> printLosses;
extern cl::opt<std::string> outPath;
extern cl::opt<bool> emitIr;

/// The settings from the flags, checked.
Settings settingsFromFlags();

/// Takes the settings of `checkpoint`, found in `directory`: a flag given
/// explicitly must agree with the checkpoint's value.
void adoptCheckpoint(Settings &settings, const Checkpoint &checkpoint,
                     const std::string &directory);

} // namespace ens_train

#endif // ENS_TRAIN_FLAGS_H
