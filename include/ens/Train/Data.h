//===- Data.h - Training data for ens-train ---------------------*- C++ -*-===//
//
// The built-in synthetic problem and the readers for real data.
//
// The built-in problem is a 1-D regression with a gap, made from one seed.
// A scalar input t in [-1, 1] becomes the model's F features through fixed
// random Fourier features
//
//   x_k(t) = cos(a_k t + c_k),  a_k = 4 n_k,  c_k = 2 pi u_k,  k < F,
//
// with n_k standard normal and u_k uniform in [0, 1) drawn from the seed,
// and the O targets are
//
//   y_j(t) = sin(3 t + j / 4) + 0.05 e_j,  j < O,
//
// with e_j standard normal (so y_0 is sin(3 t) plus noise). Training inputs
// are uniform on [-1, 1] without the gap [-0.2, 0.3]. Held-out data has as
// many points inside the gap as outside it; the ensemble should agree
// outside the gap and disagree inside it.
//
// Real data (--data) holds N >= 1 rows, read in batches (Batches.h), each
// with F inputs and T target columns (DataLayout):
//   .npy  one array [N, F + T] (f32, f64 or any integer): x, then the
//         targets;
//   .npz  arrays "x" [N, F] and "y" [N, T] (np.savez, not compressed); a
//         y of one column may be [N];
//   .csv  N rows of F + T numbers separated by commas, x first; a first
//         line that is not numeric is taken as a header and skipped.
// A classifier's targets are class labels: integers in [0, C), checked.
// A data file must be a regular file within the buffer limit
// (getDefaultMaxBufferBytes); a device, a FIFO or a directory is an error.
// A NaN or an infinity in x or y is an error that names its row and column
// (ens-train --allow-nonfinite lets it through).
//
//===----------------------------------------------------------------------===//

#ifndef ENS_TRAIN_DATA_H
#define ENS_TRAIN_DATA_H

#include "ens/Train/Random.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ens::train {

/// Rows of inputs and targets, row-major.
struct Dataset {
  int64_t rows = 0, features = 0, outputs = 0;
  std::vector<float> x; // rows x features
  std::vector<float> y; // rows x outputs
  /// For the synthetic problem: each row's scalar input t.
  std::vector<double> t;
};

/// The built-in 1-D regression problem with a gap (see the file comment).
class SyntheticProblem {
public:
  static constexpr double kGapLow = -0.2, kGapHigh = 0.3, kNoise = 0.05;

  SyntheticProblem(uint64_t seed, int64_t features, int64_t outputs);

  static bool inGap(double t) { return t >= kGapLow && t <= kGapHigh; }

  /// `rows` noisy training points outside the gap.
  Dataset training(int64_t rows) const;
  /// `rowsPerPart` noisy points inside the gap, then as many outside it.
  Dataset heldOut(int64_t rowsPerPart) const;
  /// `rows` noise-free points evenly spaced on [-1, 1], for plots.
  Dataset grid(int64_t rows) const;

private:
  Dataset at(const std::vector<double> &t, Random *noise) const;

  uint64_t seed;
  int64_t features, outputs;
  std::vector<double> frequencies, phases;
};

/// What a data file must hold for a model.
struct DataLayout {
  /// x's columns.
  int64_t features = 0;
  /// The targets' columns: each ensemble's outputs, or its class label.
  int64_t targets = 0;
  /// The number of classes the labels of a classification index; 0 for a
  /// regression.
  int64_t classes = 0;
};

/// How data is read.
struct DataOptions {
  /// Whether a NaN or an infinity is let through (otherwise an error).
  bool allowNonFinite = false;
  /// Whether a CSV file's first line is a header, skipped whatever it
  /// holds (without it, a first line that is not numeric is skipped).
  bool header = false;
  /// Whether the data may hold x alone (a Dataset without outputs).
  bool targetsOptional = false;
};

/// Reads real data from `path` (.npy, .npz or .csv, as in the file
/// comment) laid out as `layout` says; throws Failure for anything else,
/// for a label that is not an integer in [0, classes), and for a NaN or an
/// infinity (one that f64 data overflows f32 into, too) unless `options`
/// allow it.
Dataset loadDataset(const std::string &path, const DataLayout &layout,
                    const DataOptions &options = {});

/// Moves round(`fraction` * N) of the N rows of `data`, drawn at random from
/// `seed`, into a validation set, which it returns; both keep their rows in
/// the data's order.
Dataset splitValidation(Dataset &data, double fraction, uint64_t seed);

} // namespace ens::train

#endif // ENS_TRAIN_DATA_H
