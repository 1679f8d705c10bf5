//===- Model.h - The one-member model ens-train trains ----------*- C++ -*-===//
//
// ens-train takes a model written for ONE member, as
//
//   @forward(x, params...) -> predictions
//   @loss(x, params..., targets) -> tensor<f32>   (optional)
//
// Without @loss, training uses the task's loss of @forward's predictions:
// the mean squared error, or the softmax cross-entropy of logits and
// integer labels. loadModel checks the functions' signatures against the
// task before anything is generated.
//
//===----------------------------------------------------------------------===//

#ifndef ENS_TRAIN_MODEL_H
#define ENS_TRAIN_MODEL_H

#include "ens/Train/Data.h"

#include "ens/ens.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ens::train {

/// What the members learn: a regression of O targets, or a classification
/// whose @forward returns the logits of C classes.
enum class Task { Regress, Classify };

/// A model for one member, checked to fit ens-train.
struct Model {
  /// Where it came from, for messages.
  std::string name;
  /// Its MLIR text.
  std::string text;
  Task task = Task::Regress;
  /// x [B x F] and @forward's predictions [B x O] (a classifier's logits,
  /// [B x C]); the targets are the predictions' type for a regression and
  /// the labels, tensor<Bxi32>, for a classification.
  ens::TensorType x, predictions, targets;
  /// One member's parameters, in @forward's order, and their names (from
  /// the text where it names them, otherwise p0, p1, ...).
  std::vector<ens::TensorType> params;
  std::vector<std::string> paramNames;
  /// Whether the model has its own @loss; without one, training uses the
  /// task's loss from the standard library (lossFunction()).
  bool hasLoss = true;

  /// The function that training differentiates: @loss, or the generated
  /// one over @forward and the standard library's "mse" or
  /// "softmax_cross_entropy".
  const char *lossFunction() const {
    return hasLoss ? "loss" : "ens_train_loss";
  }

  /// The batch size the model is written for, or -1 when it leaves the
  /// batch open (`tensor<?x64xf32>`): it then trains and evaluates batches
  /// of any size, each compiled when first needed (docs/shapes.md).
  int64_t batchSize() const { return x.shape[0]; }
  bool openBatch() const { return x.shape[0] == -1; }
  int64_t numFeatures() const { return x.shape[1]; }
  /// O, or a classifier's C.
  int64_t numOutputs() const { return predictions.shape[1]; }
  /// The columns of a data row's targets: O, or a classifier's one label.
  int64_t targetColumns() const {
    return task == Task::Classify ? 1 : numOutputs();
  }
  /// The number of scalars in one member's parameters (checked not to
  /// overflow by loadModel).
  int64_t parameterValues = 0;
};

/// Parses `text` and checks that its @forward, and its @loss if it has one,
/// fit ens-train for `task`; throws Failure otherwise.
Model loadModel(const ens::Context &context, const std::string &name,
                const std::string &text, Task task);

/// What the data of `ensembles` ensembles of `model` holds: x, then each
/// ensemble's targets (its outputs, or its label).
DataLayout getDataLayout(const Model &model, int64_t ensembles = 1);

/// A lower bound on the bytes that training `members` members of `model` on
/// batches of `rows` rows takes: per member the parameters, their gradients
/// and Adam's moments (the step's arguments and results), and the
/// activations of a layer per parameter with their gradients; and the data.
/// It saturates at 2^64 - 1 rather than overflow, so that any model and
/// member count can be checked against a limit before anything is generated
/// or allocated.
uint64_t estimateTrainingBytes(const Model &model, int64_t members,
                               int64_t rows);

/// `type` with a leading dimension of `members`.
ens::TensorType stacked(const ens::TensorType &type, int64_t members);

} // namespace ens::train

#endif // ENS_TRAIN_MODEL_H
