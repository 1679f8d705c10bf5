//===- Flags.cpp - The command line of ens-train --------------------------===//

#include "Flags.h"

#include "ens/Train/Failure.h"
#include "ens/Train/Files.h"

#include "ens/Support/SourceLimits.h"

using namespace ens_train;
using ens::train::Failure;
using nlohmann::json;

namespace ens_train {

cl::OptionCategory category("ens-train options");
std::string badOptionValue;

const Backend &getBackend(llvm::StringRef name) {
  for (const Backend &backend : kBackends)
    if (name == backend.name)
      return backend;
  return kBackends[0];
}

cl::list<std::string>
    modelPath("model",
              cl::desc("The one-member model: @forward(x, params...) -> "
                       "predictions, and optionally @loss(x, params..., "
                       "targets) -> tensor<f32> (default: examples/mlp.mlir, "
                       "built in); given several times, a heterogeneous "
                       "ensemble of a group of members per model, trained "
                       "in one program"),
              cl::value_desc("file.mlir"), cl::cat(category));
cl::opt<std::string> taskName(
    "task",
    cl::desc("regress (the default: the targets are y's columns, the loss "
             "without @loss the mean squared error) or classify (y holds "
             "integer class labels, @forward returns logits, the loss "
             "without @loss is softmax cross-entropy)"),
    cl::value_desc("regress|classify"), cl::init("regress"), cl::cat(category));
cl::opt<unsigned, false, NumberParser<unsigned>> ensembles(
    "ensembles",
    cl::desc("Train this many independent ensembles of --members each, all "
             "in one program: ensemble k on the k-th group of the data's "
             "target columns (default 1)"),
    cl::init(1), cl::cat(category));
std::vector<unsigned> memberCounts;
cl::opt<unsigned, false, MemberCountsParser>
    members("members",
            cl::desc("Members of the ensemble (default 128); with several "
                     "--model, one count for each (N1,N2,...) or one for "
                     "all"),
            cl::init(128), cl::cat(category));
cl::opt<unsigned, false, NumberParser<unsigned>>
    steps("steps", cl::desc("Training steps (batches) to run (default 300)"),
          cl::init(300), cl::cat(category));
cl::opt<unsigned, false, NumberParser<unsigned>>
    epochs("epochs",
           cl::desc("Train this many passes over the data instead of --steps: "
                    "ceil(N / B) batches each for N rows in batches of B (the "
                    "last one partial), floor(N / B) with --drop-last"),
           cl::cat(category));
cl::opt<unsigned, false, NumberParser<unsigned>> batchSize(
    "batch-size",
    cl::desc("Rows per step: any number for a model that leaves its batch "
             "open (`?`), where it is needed; otherwise the model's batch "
             "size, the default"),
    cl::cat(category));
cl::opt<std::string> shuffleName(
    "shuffle",
    cl::desc("How each epoch orders the rows: none (the default), shared "
             "(one permutation for all members) or member (one per member)"),
    cl::value_desc("none|shared|member"), cl::init("none"), cl::cat(category));
cl::opt<bool> dropLast(
    "drop-last",
    cl::desc("Leave out the last batch of an epoch when it is partial (always "
             "so for a model written for one batch size)"),
    cl::cat(category));
cl::opt<bool> bootstrap(
    "bootstrap",
    cl::desc("Each member trains on its own resample of the data, drawn "
             "with replacement (bagging)"),
    cl::cat(category));
cl::opt<double, false, NumberParser<double>>
    learningRate("lr",
                 cl::desc("One learning rate for every member (instead of "
                          "--lr-min/--lr-max)"),
                 cl::cat(category));
cl::opt<double, false, NumberParser<double>>
    lrMin("lr-min",
          cl::desc("The first member's learning rate; the "
                   "others are log-spaced up to --lr-max "
                   "(default 1e-3)"),
          cl::init(1e-3), cl::cat(category));
cl::opt<double, false, NumberParser<double>>
    lrMax("lr-max", cl::desc("The last member's learning rate (default 1e-2)"),
          cl::init(1e-2), cl::cat(category));
cl::opt<double, false, NumberParser<double>>
    beta1("beta1", cl::desc("Adam's beta1 (default 0.9)"), cl::init(0.9),
          cl::cat(category));
cl::opt<double, false, NumberParser<double>>
    beta2("beta2", cl::desc("Adam's beta2 (default 0.999)"), cl::init(0.999),
          cl::cat(category));
cl::opt<double, false, NumberParser<double>>
    epsilon("eps", cl::desc("Adam's epsilon (default 1e-8)"), cl::init(1e-8),
            cl::cat(category));
cl::opt<double, false, NumberParser<double>>
    weightDecay("weight-decay",
                cl::desc("Decoupled weight decay (AdamW; default 0)"),
                cl::init(0.0), cl::cat(category));
cl::opt<unsigned long long, false, NumberParser<unsigned long long>>
    seed("seed",
         cl::desc("Seeds the initialisation (one key for all members), the "
                  "shuffles, the bootstrap samples and the built-in data "
                  "(default 0)"),
         cl::init(0), cl::cat(category));
cl::opt<std::string> dataPath(
    "data",
    cl::desc("Train on this data instead of the built-in problem: .npy "
             "[N, F+T], .npz with x [N, F] and y [N, T], or .csv with F+T "
             "columns, where T is the model's O outputs (or 1 label for "
             "--task=classify) times --ensembles"),
    cl::value_desc("file"), cl::cat(category));
cl::opt<unsigned, false, NumberParser<unsigned>> targetColumns(
    "targets",
    cl::desc("The number of target columns at the end of each row of the "
             "data, checked against the model (its outputs, or one label, "
             "times --ensembles)"),
    cl::cat(category));
cl::opt<bool> csvHeader(
    "header",
    cl::desc("The first line of a .csv file is a header (otherwise a first "
             "line that is not numeric is taken as one)"),
    cl::cat(category));
cl::opt<std::string> validationPath(
    "val",
    cl::desc("Validate on this data (the formats of --data) after every "
             "epoch"),
    cl::value_desc("file"), cl::cat(category));
cl::opt<double, false, NumberParser<double>> validationSplit(
    "val-split",
    cl::desc("Validate on this share of --data's rows, drawn from --seed, "
             "and train on the others"),
    cl::init(0.0), cl::cat(category));
cl::opt<unsigned, false, NumberParser<unsigned>> patience(
    "patience",
    cl::desc("Stop a member after this many epochs without a lower "
             "validation loss, and give it back its best epoch's parameters "
             "at the end (default 0: never stop)"),
    cl::cat(category));
cl::opt<bool> dataParallel(
    "data-parallel",
    cl::desc("Under mpirun: every process trains every member on its part "
             "of each batch, and the gradients are averaged each step "
             "(instead of sharing the members out)"),
    cl::cat(category));
cl::opt<bool> allowNonFinite(
    "allow-nonfinite",
    cl::desc("Train on --data even where it holds NaN or infinities "
             "(otherwise an error names the first)"),
    cl::cat(category));
cl::opt<std::string, false, BackendParser> backendName(
    "backend",
    cl::desc("Where the programs run: cpu (native code JIT-compiled through "
             "LLVM, the default), cuda (a GPU, through NVRTC and the CUDA "
             "driver), cuda-emu (the same CUDA source emulated on the CPU, "
             "slow) or interp (the reference interpreter, slow)"),
    cl::value_desc("cpu|cuda|cuda-emu|interp"), cl::init("cpu"),
    cl::cat(category));
cl::opt<std::string> initFrom(
    "init-from",
    cl::desc("Start from these weights instead of the model's initialisers: "
             "a .npz with one array per parameter, named as the model names "
             "it, of the member's shape (all members start from it) or "
             "stacked [members, ...]"),
    cl::value_desc("file.npz"), cl::cat(category));
// Not "threads": libLLVM registers an option of that name (ens-run's is
// --cpu-threads too).
cl::opt<unsigned, false, NumberParser<unsigned>> threads(
    "cpu-threads",
    cl::desc("Threads the cpu backend runs on (default 0: one per core)"),
    cl::init(0), cl::cat(category));
cl::opt<std::string> plotPath(
    "plot",
    cl::desc("Write the plot here (default ens-train.svg; empty: none)"),
    cl::value_desc("file.svg"), cl::init("ens-train.svg"), cl::cat(category));
cl::opt<std::string> checkpointDir(
    "checkpoint",
    cl::desc("Write checkpoints to this directory, each a generation "
             "committed atomically (default when resuming: the --resume "
             "directory)"),
    cl::value_desc("dir"), cl::cat(category));
cl::opt<unsigned, false, NumberParser<unsigned>> checkpointEvery(
    "checkpoint-every",
    cl::desc("Steps between checkpoints (default 100); 0 writes one only "
             "at the end"),
    cl::init(100), cl::cat(category));
cl::opt<std::string> resumeDir(
    "resume",
    cl::desc("Continue from the checkpoint in this directory, exactly; "
             "--steps (or --epochs) more are run"),
    cl::value_desc("dir"), cl::cat(category));
cl::opt<bool>
    printLosses("print-losses",
                cl::desc("Print each member's learning rate and final loss"),
                cl::cat(category));
cl::opt<std::string>
    outPath("out",
            cl::desc("ens-train predict: write the predictions here (.npz "
                     "with mean, std and members, or .csv)"),
            cl::value_desc("file.npz|file.csv"), cl::cat(category));
cl::opt<bool> emitIr("emit-ir",
                     cl::desc("Print the generated program and exit"),
                     cl::cat(category));

//===----------------------------------------------------------------------===//
// Settings
//===----------------------------------------------------------------------===//

/// Adopts a checkpoint's value of a setting; a flag given explicitly must
/// agree with it.
template <typename T, typename Option>
static void adopt(T &setting, const T &saved, const Option &option,
                  const std::string &directory, const std::string &flag) {
  if (option.getNumOccurrences() && !(setting == saved))
    throw Failure("--" + flag + " does not match the checkpoint in " +
                  directory + " (" + json(saved).dump() +
                  "); leave it out when resuming");
  setting = saved;
}

/// The settings from the flags, checked.
Settings settingsFromFlags() {
  Settings settings;
  settings.model = modelPath.empty() ? std::string() : modelPath.front();
  std::optional<Task> task = parseTask(taskName);
  if (!task)
    throw Failure("--task=" + taskName + " is not regress or classify");
  settings.task = *task;
  settings.members = members;
  settings.ensembles = ensembles;
  settings.seed = seed;
  settings.data = dataPath;
  settings.lrMin = lrMin;
  settings.lrMax = lrMax;
  if (learningRate.getNumOccurrences()) {
    if (lrMin.getNumOccurrences() || lrMax.getNumOccurrences())
      throw Failure("give either --lr or --lr-min/--lr-max, not both");
    settings.lrMin = settings.lrMax = learningRate;
  }
  settings.adam = {beta1, beta2, epsilon, weightDecay};
  std::optional<Shuffle> shuffle = parseShuffle(shuffleName);
  if (!shuffle)
    throw Failure("--shuffle=" + shuffleName +
                  " is not none, shared or member");
  settings.batching = {batchSize, *shuffle, bootstrap, dropLast};
  settings.validationData = validationPath;
  settings.validationSplit = validationSplit;
  settings.patience = patience;
  if (epochs.getNumOccurrences() && steps.getNumOccurrences())
    throw Failure("give either --epochs or --steps, not both");
  checkSettings(settings, SettingsSource::Flags);
  return settings;
}

/// Takes the settings of `checkpoint`, found in `directory`.
void adoptCheckpoint(Settings &settings, const Checkpoint &checkpoint,
                     const std::string &directory) {
  Settings saved;
  try {
    saved = readSettings(checkpoint.manifest);
  } catch (const Failure &failure) {
    throw Failure("cannot resume from " + directory + ": " +
                  checkpoint.manifestPath() + ": " + failure.what());
  }
  if (!modelPath.getNumOccurrences()) {
    settings.model = saved.model;
  } else if (!saved.modelText.empty() &&
             readInputFile(settings.model, "model",
                           mlir::ens::kMaxSourceBytes) != saved.modelText) {
    throw Failure("--model " + settings.model +
                  " is not the model the checkpoint in " + directory +
                  " was trained with; leave it out to resume with the "
                  "checkpoint's own copy");
  }
  settings.modelText = saved.modelText;
  if (dataPath.getNumOccurrences() &&
      (settings.data.empty() ? "" : absolutePath(settings.data)) != saved.data)
    throw Failure("--data does not match the checkpoint in " + directory +
                  " (" +
                  (saved.data.empty() ? "the built-in problem" : saved.data) +
                  "); leave it out when resuming");
  settings.data = saved.data;
  std::string task = taskName, savedTask = getTaskName(saved.task);
  adopt(task, savedTask, taskName, directory, "task");
  settings.task = saved.task;
  adopt(settings.members, saved.members, members, directory, "members");
  adopt(settings.ensembles, saved.ensembles, ensembles, directory, "ensembles");
  adopt(settings.seed, saved.seed, seed, directory, "seed");
  if (learningRate.getNumOccurrences() &&
      (saved.lrMin != learningRate || saved.lrMax != learningRate))
    throw Failure("--lr does not match the checkpoint in " + directory +
                  "; leave it out when resuming");
  adopt(settings.lrMin, saved.lrMin, lrMin, directory, "lr-min");
  adopt(settings.lrMax, saved.lrMax, lrMax, directory, "lr-max");
  adopt(settings.adam.beta1, saved.adam.beta1, beta1, directory, "beta1");
  adopt(settings.adam.beta2, saved.adam.beta2, beta2, directory, "beta2");
  adopt(settings.adam.eps, saved.adam.eps, epsilon, directory, "eps");
  adopt(settings.adam.weightDecay, saved.adam.weightDecay, weightDecay,
        directory, "weight-decay");
  // A checkpoint from before minibatches records no batch size: the model's.
  if (saved.batching.batchSize)
    adopt(settings.batching.batchSize, saved.batching.batchSize, batchSize,
          directory, "batch-size");
  std::string shuffle = shuffleName,
              savedShuffle = getShuffleName(saved.batching.shuffle);
  adopt(shuffle, savedShuffle, shuffleName, directory, "shuffle");
  settings.batching.shuffle = saved.batching.shuffle;
  adopt(settings.batching.bootstrap, saved.batching.bootstrap, bootstrap,
        directory, "bootstrap");
  adopt(settings.batching.dropLast, saved.batching.dropLast, dropLast,
        directory, "drop-last");
  if (validationPath.getNumOccurrences() &&
      (settings.validationData.empty()
           ? ""
           : absolutePath(settings.validationData)) != saved.validationData)
    throw Failure("--val does not match the checkpoint in " + directory +
                  "; leave it out when resuming");
  settings.validationData = saved.validationData;
  adopt(settings.validationSplit, saved.validationSplit, validationSplit,
        directory, "val-split");
  adopt(settings.patience, saved.patience, patience, directory, "patience");
}

} // namespace ens_train
