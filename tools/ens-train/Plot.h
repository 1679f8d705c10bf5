//===- Plot.h - ens-train's SVG plot ----------------------------*- C++ -*-===//
//
// Draws, as a self-contained SVG file with no dependencies, two panels:
// for a regression the ensemble's fit (its mean and a band of two standard
// deviations over the members), for a classification its reliability
// diagram; the members' loss curves on a log scale; and for a
// classification the ensemble's accuracy per epoch.
//
//===----------------------------------------------------------------------===//

#ifndef ENS_TRAIN_PLOT_H
#define ENS_TRAIN_PLOT_H

#include "ens/Train/Metrics.h"
#include "ens/Train/Report.h"

#include <string>
#include <vector>

namespace ens_train {

using namespace ens::train;

/// The SVG document of a regression.
std::string renderPlot(const std::string &title, const FitPanel &fit,
                       const LossCurves &losses);

/// The SVG document of a classification, three panels: the reliability
/// diagram of `metrics` (each bin's accuracy against its confidence, beside
/// the diagonal of perfect calibration), the members' training NLL, and
/// the ensemble's `accuracy` per epoch.
std::string renderPlot(const std::string &title,
                       const ClassificationMetrics &metrics,
                       const LossCurves &losses,
                       const std::vector<double> &accuracy);

} // namespace ens_train

#endif // ENS_TRAIN_PLOT_H
