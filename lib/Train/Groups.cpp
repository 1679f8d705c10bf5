//===- Groups.cpp - Train a heterogeneous ensemble ------------------------===//

#include "ens/Train/Groups.h"

#include "ens/Train/Failure.h"
#include "ens/Train/Files.h"
#include "ens/Train/GroupProgram.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

using namespace ens::train;
using ens::train::Failure;
using nlohmann::json;

/// The file that makes a checkpoint directory a heterogeneous ensemble's.
static constexpr const char *kGroupsFile = "groups.json";
/// Its "format" and "version".
static constexpr const char *kGroupsFormat = "ens-train groups";
static constexpr int kGroupsVersion = 1;
/// The most bytes groups.json may have.
static constexpr uint64_t kMaxGroupsBytes = 1 << 20;

static std::string join(const std::string &directory, const std::string &name) {
  llvm::SmallString<256> path(directory);
  llvm::sys::path::append(path, name);
  return path.str().str();
}

std::string ens::train::getGroupDirectory(const std::string &directory,
                                          size_t group) {
  return join(directory, "group-" + std::to_string(group));
}

std::optional<std::vector<ModelGroup>>
ens::train::readCheckpointGroups(const std::string &directory) {
  std::string path = join(directory, kGroupsFile);
  if (!llvm::sys::fs::exists(path))
    return std::nullopt;
  auto fail = [&](const std::string &message) {
    return Failure(path + ": " + message);
  };
  json manifest =
      json::parse(readInputFile(path, "groups", kMaxGroupsBytes), nullptr,
                  /*allow_exceptions=*/false);
  if (!manifest.is_object() || manifest.value("format", "") != kGroupsFormat)
    throw fail("not an ens-train groups file");
  if (manifest.value("version", 0) != kGroupsVersion)
    throw fail("version " + manifest.value("version", json()).dump() +
               " is not " + std::to_string(kGroupsVersion) +
               ", the version this ens-train reads");
  const json &list = manifest.value("groups", json());
  if (!list.is_array() || list.size() < 2)
    throw fail("\"groups\" is not a list of two or more groups");
  std::vector<ModelGroup> groups;
  for (const json &entry : list) {
    if (!entry.is_object() || !entry.value("model", json()).is_string() ||
        !entry.value("members", json()).is_number_unsigned() ||
        entry["members"].get<uint64_t>() == 0 ||
        entry["members"].get<uint64_t>() > uint64_t(kMaxMembers))
      throw fail("group " + std::to_string(groups.size()) +
                 " does not give its \"model\" and its \"members\" (1 to " +
                 std::to_string(kMaxMembers) + ")");
    ModelGroup group;
    group.model = entry["model"].get<std::string>();
    if (group.model == "builtin")
      group.model.clear();
    group.members = entry["members"].get<int64_t>();
    groups.push_back(std::move(group));
  }
  return groups;
}

/// Throws Failure unless `mine`, what `group` has, is `first`, what the
/// first group has.
static void checkSame(const char *what, const ens::TensorType &mine,
                      const ens::TensorType &first, const ModelGroup &group,
                      const ModelGroup &firstGroup) {
  if (mine == first)
    return;
  throw Failure(std::string("--model=") + group.modelName + " has " + what +
                " " + mine.str() + ", but --model=" + firstGroup.modelName +
                " has " + first.str() +
                ": the models of a heterogeneous ensemble read the same "
                "batches and predict the same outputs");
}

GroupTrainer::GroupTrainer(ens::Context &context, const TrainOptions &options,
                           const std::vector<ModelGroup> &groups,
                           Communicator &comm)
    : context(context), options(options), comm(comm) {
  if (options.settings.ensembles > 1)
    throw Failure("--ensembles takes one --model: a heterogeneous ensemble "
                  "trains one ensemble of every model");
  if (options.dataParallel)
    throw Failure("--data-parallel takes one --model: the processes of a "
                  "heterogeneous ensemble share out its members");
  if (!options.initFrom.empty() || !options.initialParams.empty())
    throw Failure("--init-from takes one --model: its weights are of one "
                  "model");
  if (groups.empty())
    throw Failure("a heterogeneous ensemble needs at least one model");
  for (size_t g = 0; g < groups.size(); ++g) {
    TrainOptions mine = options;
    mine.settings.model = groups[g].model;
    mine.settings.modelText = groups[g].modelText;
    mine.settings.members = groups[g].members;
    mine.modelText = groups[g].modelText;
    mine.modelName = groups[g].modelName;
    mine.ownStep = false;
    mine.resumed = groups[g].resumed;
    mine.resumeDir = groups[g].resumeDir;
    mine.initialParams = groups[g].initialParams;
    if (!options.checkpointTo.empty())
      mine.checkpointTo = getGroupDirectory(options.checkpointTo, g);
    trainers.push_back(std::make_unique<Trainer>(context, mine, comm));
    const Model &model = trainers.back()->getModel();
    const Model &first = trainers.front()->getModel();
    checkSame("x", model.x, first.x, groups[g], groups[0]);
    checkSame("targets", model.targets, first.targets, groups[g], groups[0]);
    checkSame("predictions", model.predictions, first.predictions, groups[g],
              groups[0]);
  }
  std::vector<ProgramGroup> programGroups;
  for (const std::unique_ptr<Trainer> &trainer : trainers)
    programGroups.push_back({&trainer->getModel(),
                             trainer->getOptions().modelName,
                             trainer->getShape()});
  text = generateGroupsProgram(context, programGroups,
                               this->options.settings.adam);
}

void GroupTrainer::loadData() {
  for (std::unique_ptr<Trainer> &trainer : trainers)
    if (trainer->getSettings().members < comm.size())
      throw Failure("--model=" + trainer->getOptions().modelName + " has " +
                    std::to_string(trainer->getSettings().members) +
                    " members, fewer than the " + std::to_string(comm.size()) +
                    " processes mpirun started: each process trains a "
                    "share of every group's members");
  for (std::unique_ptr<Trainer> &trainer : trainers)
    trainer->loadData();
}

void GroupTrainer::compile() {
  for (std::unique_ptr<Trainer> &trainer : trainers)
    trainer->compile();
  // The step of this process's members of every group.
  std::vector<ProgramGroup> local;
  for (std::unique_ptr<Trainer> &trainer : trainers)
    local.push_back({&trainer->getModel(), trainer->getOptions().modelName,
                     trainer->getLocalPrograms().getShape()});
  std::string localText =
      generateGroupsProgram(context, local, options.settings.adam);
  try {
    module.emplace(context.parse(localText));
  } catch (const ens::Error &error) {
    throw Failure(std::string("cannot build the training program of the "
                              "heterogeneous ensemble: ") +
                  error.what());
  }
  step(trainers.front()->getRows());
}

const ens::Executable &GroupTrainer::step(int64_t rows) {
  if (auto it = steps.find(rows); it != steps.end())
    return it->second;
  std::vector<ens::TensorType> types;
  for (std::unique_ptr<Trainer> &trainer : trainers) {
    std::vector<ens::TensorType> mine =
        trainer->getLocalPrograms().stepTypes(rows);
    types.insert(types.end(), mine.begin(), mine.end());
  }
  ens::CompileOptions compileOptions;
  compileOptions.threads = options.threads;
  try {
    // The models read the same batches: all leave it open, or none.
    ens::Executable executable =
        trainers.front()->getModel().openBatch()
            ? module->compile(kStepFunction, types, options.target,
                              compileOptions)
            : module->compile(kStepFunction, options.target, compileOptions);
    return steps.emplace(rows, std::move(executable)).first->second;
  } catch (const ens::Error &error) {
    throw Failure(std::string("cannot compile @") + kStepFunction +
                  " of the heterogeneous ensemble: " + error.what());
  }
}

void GroupTrainer::initialize() {
  for (std::unique_ptr<Trainer> &trainer : trainers)
    trainer->initialize();
}

double GroupTrainer::train(const TrainingObserver &observer) {
  if (!options.checkpointTo.empty() && comm.isRoot()) {
    // groups.json first: it says what the group directories are.
    json list = json::array();
    for (std::unique_ptr<Trainer> &trainer : trainers) {
      const Settings &settings = trainer->getSettings();
      list.push_back(
          {{"model",
            settings.model.empty() ? "builtin" : absolutePath(settings.model)},
           {"members", settings.members}});
    }
    if (std::error_code ec =
            llvm::sys::fs::create_directories(options.checkpointTo))
      throw Failure("cannot create the checkpoint directory " +
                    options.checkpointTo + ": " + ec.message());
    writeOutputFile(join(options.checkpointTo, kGroupsFile),
                    json{{"format", kGroupsFormat},
                         {"version", kGroupsVersion},
                         {"groups", list}}
                            .dump(2) +
                        "\n",
                    "checkpoint groups");
  }
  std::vector<TrainingRun> runs;
  std::vector<TrainingRun *> runPointers;
  std::vector<TrainState *> states;
  runs.reserve(trainers.size());
  for (std::unique_ptr<Trainer> &trainer : trainers) {
    runs.push_back(trainer->makeRun(observer));
    runPointers.push_back(&runs.back());
    states.push_back(&trainer->getState());
  }
  return trainGroupSteps(
      runPointers, states, trainers.front()->getStepsToRun(),
      [&](const std::vector<ens::Tensor> &args, int64_t rows) {
        return step(rows).run(args);
      },
      observer);
}

std::vector<TrainSummary> GroupTrainer::finish(double trainSeconds) {
  std::vector<TrainSummary> summaries;
  for (std::unique_ptr<Trainer> &trainer : trainers)
    if (std::optional<TrainSummary> summary = trainer->finish(trainSeconds))
      summaries.push_back(std::move(*summary));
  return summaries;
}

std::vector<PredictionArray> GroupTrainer::predict(const Dataset &data) {
  std::vector<EnsembleMembers> parts;
  for (std::unique_ptr<Trainer> &trainer : trainers)
    parts.push_back({trainer->getPrograms(), trainer->getModel(),
                     trainer->getRows(), trainer->getState().params});
  return predictEnsemble(parts, data);
}
