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

#include "Metrics.h"

#include <string>
#include <vector>

namespace ens_train {

/// The fit panel. For the built-in 1-D problem (`overInput`), it shows the
/// training points (t, y), the ensemble mean over the curve's t with a band
/// of +-2 standard deviations, and the gap shaded. For real data, it shows
/// each training point's mean prediction against its target, with bars of
/// +-2 standard deviations.
struct FitPanel {
  bool overInput = true;
  std::string yLabel;
  /// Training points: (t, target) or, for real data, targets.
  std::vector<double> pointsX, pointsY;
  /// The ensemble over t (or, for real data, at each target in pointsX).
  std::vector<double> curveX, mean, stddev;
  double gapLow = 0, gapHigh = 0;
};

/// Per step (from step 1), the minimum, median and maximum over members.
struct LossCurves {
  std::vector<double> min, median, max;
};

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
