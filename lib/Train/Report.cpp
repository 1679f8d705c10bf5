//===- Report.cpp - What ens-train prints after training ------------------===//

#include "ens/Train/Report.h"

#include "ens/Train/Settings.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cmath>

using namespace ens::train;

void ens::train::reportMembers(const TrainState &state,
                               const std::vector<float> &finalLoss,
                               const std::vector<float> *validationLoss,
                               bool printLosses, int64_t membersPerEnsemble) {
  const int64_t n = finalLoss.size();
  auto name = [&](int64_t i) {
    if (membersPerEnsemble == n)
      return "member " + std::to_string(i);
    return "ensemble " + std::to_string(i / membersPerEnsemble) + " member " +
           std::to_string(i % membersPerEnsemble);
  };
  if (printLosses)
    for (int64_t i = 0; i < n; ++i) {
      llvm::outs() << name(i) << ": lr "
                   << llvm::format("%.6g", state.learningRates[i]) << " loss "
                   << llvm::format("%.9g", finalLoss[i]);
      if (validationLoss)
        llvm::outs() << " validation loss "
                     << llvm::format("%.9g", (*validationLoss)[i]);
      llvm::outs() << "\n";
    }
  if (const std::optional<EarlyStoppingState> &stopping = state.stopping)
    for (int64_t i = 0; i < n; ++i) {
      llvm::outs() << name(i) << ": ";
      if (stopping->bestEpoch[i] == 0) {
        llvm::outs() << "no epoch validated yet\n";
        continue;
      }
      llvm::outs() << "best epoch " << int64_t(stopping->bestEpoch[i])
                   << ", validation loss "
                   << llvm::format("%.9g", stopping->bestLoss[i]) << ", ";
      if (stopping->stopped(i))
        llvm::outs() << "stopped after epoch "
                     << int64_t(stopping->stoppedEpoch[i]) << "\n";
      else
        llvm::outs() << "did not stop\n";
    }
  if (validationLoss) {
    auto [vlo, vmedian, vhi] = minMedianMax(*validationLoss);
    llvm::outs() << "validation loss: min " << formatNumber(vlo) << ", median "
                 << formatNumber(vmedian) << ", max " << formatNumber(vhi)
                 << "\n";
  }
}

std::string ens::train::describe(const RegressionMetrics &metrics) {
  return "RMSE of the ensemble mean " + formatNumber(metrics.rmseOfMean) +
         ", mean RMSE of the members " + formatNumber(metrics.meanMemberRmse) +
         ", spread (std-dev across members) " + formatNumber(metrics.spread);
}

std::string ens::train::describe(const ClassificationMetrics &metrics) {
  auto percent = [](double share) { return formatNumber(100 * share) + "%"; };
  return "accuracy " + percent(metrics.accuracy) + " (members' mean " +
         percent(metrics.meanMemberAccuracy) + "), NLL " +
         formatNumber(metrics.nll) + ", ECE " + formatNumber(metrics.ece) +
         ", Brier " + formatNumber(metrics.brier);
}

/// Calls `visit(k, outputs, targets)` for each ensemble k on `data`, with
/// the outputs of its M members [M x N x O] (with `params`) and its
/// targets.
template <typename Visit>
static void forEachEnsemble(Programs &programs, const Model &model,
                            int64_t rows, llvm::ArrayRef<ens::Tensor> params,
                            const Dataset &data, Visit visit) {
  const ProgramShape &shape = programs.getShape();
  std::vector<float> outputs =
      predictMembers(programs, model, rows, shape.total(), params, data);
  const int64_t perEnsemble = shape.members * data.rows * model.numOutputs();
  for (int64_t k = 0; k < shape.ensembles; ++k)
    visit(k, outputs.data() + k * perEnsemble,
          getEnsembleTargets(data, model, k));
}

/// "ensemble k: " when there are several, for lines about ensemble k.
static std::string ensemblePrefix(const Programs &programs, int64_t k) {
  return programs.getShape().ensembles > 1
             ? "ensemble " + std::to_string(k) + ": "
             : std::string();
}

double ens::train::measureAccuracy(Programs &programs, const Model &model,
                                   int64_t rows,
                                   llvm::ArrayRef<ens::Tensor> params,
                                   const Dataset &data) {
  double sum = 0;
  forEachEnsemble(
      programs, model, rows, params, data,
      [&](int64_t, const float *logits, const std::vector<float> &labels) {
        sum += computeClassificationMetrics(logits, programs.getShape().members,
                                            data.rows, model.numOutputs(),
                                            labels.data())
                   .accuracy;
      });
  return sum / programs.getShape().ensembles;
}

ClassificationMetrics
ens::train::reportClassification(Programs &programs, const Model &model,
                                 int64_t rows, const TrainState &state,
                                 const Dataset &data, const std::string &what) {
  ClassificationMetrics first;
  forEachEnsemble(
      programs, model, rows, state.params, data,
      [&](int64_t k, const float *logits, const std::vector<float> &labels) {
        ClassificationMetrics metrics = computeClassificationMetrics(
            logits, programs.getShape().members, data.rows, model.numOutputs(),
            labels.data());
        llvm::outs() << ensemblePrefix(programs, k) << what << ": "
                     << describe(metrics) << "\n";
        if (k == 0)
          first = metrics;
      });
  return first;
}

FitPanel ens::train::reportFit(Programs &programs, const Model &model,
                               int64_t rows, const TrainState &state,
                               const Dataset &train, const Dataset *validation,
                               const SyntheticProblem *problem) {
  FitPanel fit;
  fit.yLabel = "output 0";
  const int64_t outputs = model.numOutputs();
  if (problem) {
    Dataset heldOut = problem->heldOut(rows);
    EnsembleStats stats = ensembleStats(programs, model, rows, state, heldOut);
    double error[2] = {0, 0}, spread[2] = {0, 0};
    int64_t count[2] = {0, 0};
    for (int64_t r = 0; r < heldOut.rows; ++r) {
      int gap = SyntheticProblem::inGap(heldOut.t[r]);
      for (int64_t j = 0; j < outputs; ++j) {
        double d = stats.mean[r * outputs + j] - heldOut.y[r * outputs + j];
        error[gap] += d * d;
        spread[gap] += stats.stddev[r * outputs + j];
        ++count[gap];
      }
    }
    for (int gap = 0; gap < 2; ++gap) {
      error[gap] = std::sqrt(error[gap] / std::max<int64_t>(count[gap], 1));
      spread[gap] /= std::max<int64_t>(count[gap], 1);
    }
    llvm::outs() << "held-out RMSE of the ensemble mean: "
                 << formatNumber(error[0]) << " outside the gap, "
                 << formatNumber(error[1]) << " inside it\n";
    llvm::outs() << "spread (std-dev across members): "
                 << formatNumber(spread[0]) << " outside the gap, "
                 << formatNumber(spread[1]) << " inside it";
    if (spread[0] > 0)
      llvm::outs() << " (" << llvm::format("%.1f", spread[1] / spread[0])
                   << "x larger in the gap)";
    llvm::outs() << "\n";

    Dataset grid = problem->grid(rows);
    EnsembleStats curve = ensembleStats(programs, model, rows, state, grid);
    for (int64_t r = 0; r < rows; ++r) {
      fit.pointsX.push_back(train.t[r]);
      fit.pointsY.push_back(train.y[r * outputs]);
      fit.curveX.push_back(grid.t[r]);
      fit.mean.push_back(curve.mean[r * outputs]);
      fit.stddev.push_back(curve.stddev[r * outputs]);
    }
    fit.gapLow = SyntheticProblem::kGapLow;
    fit.gapHigh = SyntheticProblem::kGapHigh;
  } else {
    const int64_t members = programs.getShape().members;
    EnsembleStats stats;
    for (const Dataset *data : {&train, validation}) {
      if (!data)
        continue;
      forEachEnsemble(programs, model, rows, state.params, *data,
                      [&](int64_t k, const float *predictions,
                          const std::vector<float> &targets) {
                        llvm::outs()
                            << ensemblePrefix(programs, k)
                            << (data == &train ? "training" : "validation")
                            << " data: "
                            << describe(computeRegressionMetrics(
                                   predictions, members, data->rows, outputs,
                                   targets.data()))
                            << "\n";
                        // The plot shows the first ensemble.
                        if (data == &train && k == 0)
                          stats = summarizeMembers(predictions, members,
                                                   train.rows * outputs);
                      });
    }
    fit.overInput = false;
    fit.yLabel = "ensemble mean (output 0)";
    for (int64_t r = 0; r < rows; ++r) {
      fit.pointsX.push_back(train.y[r * train.outputs]);
      fit.mean.push_back(stats.mean[r * outputs]);
      fit.stddev.push_back(stats.stddev[r * outputs]);
    }
  }

  return fit;
}
