//===- Evaluation.h - Running ens-train's programs on data ------*- C++ -*-===//
//
// The host side of training and evaluation: the compiled programs, the
// batches they are fed, and the statistics made of their results. Data is
// fed in batches of the model's size; rows past the last whole batch are
// left out (of an epoch, or of an evaluation).
//
//===----------------------------------------------------------------------===//

#ifndef ENS_TRAIN_EVALUATION_H
#define ENS_TRAIN_EVALUATION_H

#include "ens/Train/Batches.h"
#include "ens/Train/Checkpoint.h"
#include "ens/Train/Data.h"
#include "ens/Train/Program.h"

#include "ens/ens.h"

#include "llvm/ADT/ArrayRef.h"

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace ens::train {

/// The compiled programs, on one model for a number of members. A model
/// whose batch is open (`?`) gets them compiled for each number of rows a
/// batch has (the batch size, and the last, partial batch), when first
/// asked for; a model with a batch size has them for that size only.
class Programs {
public:
  /// The programs of `module`, generated for `model` (named `modelName`
  /// in messages) in `shape`.
  /// `threads` is CompileOptions::threads for the cpu target.
  Programs(ens::Module module, ens::Target target, const Model &model,
           std::string modelName, const ProgramShape &shape, int threads);

  /// The programs for batches of `rows` rows.
  const ens::Executable &step(int64_t rows);
  /// The types of the step's arguments for batches of `rows` rows.
  std::vector<ens::TensorType> stepTypes(int64_t rows) const;
  const ens::Executable &losses(int64_t rows);
  const ens::Executable &predict(int64_t rows);
  /// --data-parallel's step in two (Program.h).
  const ens::Executable &grads(int64_t rows);
  const ens::Executable &update();
  const ens::Executable &init();

  /// The type of x and of the targets (of every ensemble) of a batch of
  /// `rows` rows.
  ens::TensorType xType(int64_t rows) const;
  ens::TensorType targetsType(int64_t rows) const;
  const ProgramShape &getShape() const { return shape; }

private:
  const ens::Executable &compile(const char *function, int64_t rows,
                                 std::vector<ens::TensorType> argTypes);

  ens::Module module;
  ens::Target target;
  ens::CompileOptions options;
  const Model &model;
  std::string modelName;
  ProgramShape shape;
  std::map<std::pair<std::string, int64_t>, ens::Executable> compiled;
};

/// An f32 tensor of `shape` holding `values`.
ens::Tensor makeTensor(std::vector<int64_t> shape,
                       const std::vector<float> &values);

/// A tensor of targets of `type` holding `values`, its number of elements:
/// f32 targets, or i32 labels (integers, as loadDataset checks).
ens::Tensor makeTargets(const ens::TensorType &type, const float *values);

/// `tensor` [M x ...] repeated `times` times along its first dimension:
/// [times*M x ...].
ens::Tensor repeatMembers(const ens::Tensor &tensor, int64_t times);

/// The values of an f32 tensor.
const float *floats(const ens::Tensor &tensor);

/// Every member's loss with the stacked `params` on `data`: the mean of
/// @loss over its batches of `batchRows` rows, in order, weighted by their
/// rows. The last, partial batch counts if the model's batch is open;
/// otherwise it is left out.
std::vector<float> evaluateLosses(Programs &programs, const Model &model,
                                  int64_t batchRows,
                                  llvm::ArrayRef<ens::Tensor> params,
                                  const Dataset &data);

/// The rows that each member trains on at `step`, as x and targets: one
/// batch for all members, or with per-member batching one per member of an
/// ensemble, member after member. The programs' members are the
/// schedule's from `firstMember` on (a process's share of them).
std::pair<ens::Tensor, ens::Tensor> makeBatch(Programs &programs,
                                              BatchSchedule &schedule,
                                              const Dataset &data, int64_t step,
                                              int64_t firstMember = 0);

/// Every member's outputs (@forward's) for every row of `data`,
/// [M x N x O], predicted in batches of `batchRows` rows. A model written
/// for one batch size predicts the last batch filled with rows of zeros
/// whose outputs are dropped, so that its rows must not depend on each
/// other (as a model of one row at a time does not).
std::vector<float> predictMembers(Programs &programs, const Model &model,
                                  int64_t batchRows, int64_t members,
                                  llvm::ArrayRef<ens::Tensor> params,
                                  const Dataset &data);

/// The targets of ensemble `k` in `data`, its columns of y: [N x O], or the
/// N labels of a classification.
std::vector<float> getEnsembleTargets(const Dataset &data, const Model &model,
                                      int64_t k);

/// The members' mean and standard deviation per row and output.
struct EnsembleStats {
  std::vector<double> mean, stddev; // rows x outputs
};

/// The mean and (population) standard deviation over `members` members of
/// `values`, member-major: [members x count].
EnsembleStats summarizeMembers(const float *values, int64_t members,
                               int64_t count);

/// The statistics of the members' predictions for `data`, predicted in
/// batches of `batchRows` rows (as predictMembers).
EnsembleStats ensembleStats(Programs &programs, const Model &model,
                            int64_t batchRows, const TrainState &state,
                            const Dataset &data);

/// The minimum, median and maximum of `values`; NaNs (diverged members)
/// count as the largest.
std::array<float, 3> minMedianMax(std::vector<float> values);

} // namespace ens::train

#endif // ENS_TRAIN_EVALUATION_H
