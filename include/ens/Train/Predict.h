//===- Predict.h - ens-train predict --------------------------*- C++ -*-===//
//
// `ens-train predict --checkpoint=DIR --data=FILE --out=pred.npz|pred.csv`
// runs every member of a trained ensemble on new rows and writes
// - for a regression, `mean` [N, O] and `std` [N, O] over the members (the
//   population standard deviation);
// - for a classification, `probs` [N, C], the mean of the members' softmax
//   probabilities, and `entropy` [N], its entropy in nats;
// - and `members` [M, N, O] (or [M, N, C]), each member's own @forward
//   output (a classifier's logits).
// Members that stopped early predict with their best epoch's parameters.
// If the data has targets, it also prints the task's metrics (Metrics.h).
//
// Rows are predicted in batches of the training batch size. A model that
// leaves its batch open predicts a partial last batch as it is; a model
// written for one batch size gets the last batch filled with rows of zeros
// whose predictions are dropped, so that its rows must not depend on each
// other (as a model of one row at a time does not).
//
//===----------------------------------------------------------------------===//

#ifndef ENS_TRAIN_PREDICT_H
#define ENS_TRAIN_PREDICT_H

#include "ens/Train/Evaluation.h"

#include "ens/ens.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ens::train {

/// What `ens-train predict` is asked for.
struct PredictRequest {
  std::string checkpointDir, dataPath, outPath;
  ens::Target target = ens::Target::Cpu;
  bool allowNonFinite = false;
  /// CompileOptions::threads for the cpu backend.
  int threads = 0;
  /// Whether a CSV file's first line is a header.
  bool header = false;
};

/// One array of an ensemble's predictions (the file comment's): its name
/// ("mean", "std", "probs", "entropy" or "members"), shape and values.
struct PredictionArray {
  std::string name;
  std::vector<int64_t> shape;
  std::vector<float> values;
};

/// Members of one model in an ensemble: the programs that run them, the
/// model, the rows of a batch, and the members' parameters.
struct EnsembleMembers {
  Programs &programs;
  const Model &model;
  int64_t batchRows;
  llvm::ArrayRef<ens::Tensor> params;
};

/// The predictions of one ensemble, whose members are those of `parts`
/// (one part for an ensemble of one model, a part per group of a
/// heterogeneous one, members part after part), for every row of `data`.
/// The parts must predict the same outputs for the same task.
std::vector<PredictionArray>
predictEnsemble(llvm::ArrayRef<EnsembleMembers> parts, const Dataset &data);

/// Runs `request`; the built-in model is `builtinText`, named
/// `builtinName` in messages. Throws Failure for anything it cannot do.
void runPredict(const PredictRequest &request, const std::string &builtinText,
                const std::string &builtinName);

} // namespace ens::train

#endif // ENS_TRAIN_PREDICT_H
