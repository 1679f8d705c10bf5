//===- Data.cpp - Training data for ens-train -----------------------------===//

#include "ens/Train/Data.h"

#include "ens/Train/Failure.h"
#include "ens/Train/Files.h"
#include "ens/Train/Settings.h"

#include "ens/Support/Npy.h"
#include "ens/Support/Npz.h"
#include "ens/Support/Sizes.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Path.h"

#include <cmath>
#include <tuple>

using namespace ens::train;
using ens::train::Failure;
using mlir::ens::HostTensor;

/// The stream of Random::stream that the validation split draws from.
static constexpr uint64_t kValidationStream = 18;

//===----------------------------------------------------------------------===//
// The synthetic problem
//===----------------------------------------------------------------------===//

SyntheticProblem::SyntheticProblem(uint64_t seed, int64_t features,
                                   int64_t outputs)
    : seed(seed), features(features), outputs(outputs) {
  Random random = Random::stream(seed, 1);
  for (int64_t k = 0; k < features; ++k) {
    frequencies.push_back(4.0 * random.normal());
    phases.push_back(2.0 * M_PI * random.uniform());
  }
}

Dataset SyntheticProblem::at(const std::vector<double> &t,
                             Random *noise) const {
  Dataset data;
  data.rows = t.size();
  data.features = features;
  data.outputs = outputs;
  data.t = t;
  for (double value : t) {
    for (int64_t k = 0; k < features; ++k)
      data.x.push_back(std::cos(frequencies[k] * value + phases[k]));
    for (int64_t j = 0; j < outputs; ++j)
      data.y.push_back(std::sin(3.0 * value + j / 4.0) +
                       (noise ? kNoise * noise->normal() : 0.0));
  }
  return data;
}

/// `count` points uniform on [-1, 1] outside the gap (or inside it).
static std::vector<double> drawInputs(Random &random, int64_t count,
                                      bool insideGap) {
  const double low = SyntheticProblem::kGapLow,
               high = SyntheticProblem::kGapHigh;
  std::vector<double> t;
  for (int64_t i = 0; i < count; ++i) {
    double u = random.uniform();
    if (insideGap) {
      t.push_back(low + u * (high - low));
      continue;
    }
    // Map [0, 1) onto [-1, low) followed by (high, 1].
    double left = low + 1.0, right = 1.0 - high;
    double s = u * (left + right);
    t.push_back(s < left ? -1.0 + s : 1.0 - (s - left));
  }
  return t;
}

Dataset SyntheticProblem::training(int64_t rows) const {
  Random random = Random::stream(seed, 2);
  std::vector<double> t = drawInputs(random, rows, false);
  return at(t, &random);
}

Dataset SyntheticProblem::heldOut(int64_t rowsPerPart) const {
  Random random = Random::stream(seed, 3);
  std::vector<double> t = drawInputs(random, rowsPerPart, true);
  std::vector<double> outside = drawInputs(random, rowsPerPart, false);
  t.insert(t.end(), outside.begin(), outside.end());
  return at(t, &random);
}

Dataset SyntheticProblem::grid(int64_t rows) const {
  std::vector<double> t;
  for (int64_t i = 0; i < rows; ++i)
    t.push_back(rows == 1 ? 0.0 : -1.0 + 2.0 * i / (rows - 1));
  return at(t, nullptr);
}

//===----------------------------------------------------------------------===//
// Real data
//===----------------------------------------------------------------------===//

namespace {
/// What the model expects, for checks and messages.
struct Expected {
  const std::string &path;
  int64_t features, outputs;
  /// For a classification: the labels' range [0, classes).
  int64_t classes;
  bool allowNonFinite, header;
  /// Whether the data may hold x alone.
  bool targetsOptional;

  [[noreturn]] void fail(const std::string &message) const {
    throw Failure("data " + path + " " + message);
  }

  /// The values of `array`, checked to be a numeric [rows, columns] matrix.
  /// `what` names the array in messages ("" for a whole .npy file) and
  /// `hint` says what its columns are. With `acceptVector`, a matrix of one
  /// column may come as a vector.
  std::vector<float> matrix(const HostTensor &array, const std::string &what,
                            int64_t columns, const std::string &hint,
                            bool acceptVector = false) const {
    using mlir::ens::DType;
    std::string prefix = what.empty() ? "" : what + " ";
    if (array.dtype != DType::F32 && array.dtype != DType::F64 &&
        array.dtype != DType::I32)
      fail(prefix + "has dtype " + mlir::ens::getDTypeName(array.dtype).str() +
           "; expected a float or an integer dtype");
    bool vector = acceptVector && array.getRank() == 1 && columns == 1;
    if (!vector && (array.getRank() != 2 || array.shape[1] != columns))
      fail(prefix + "is " + array.getTypeString() + "; expected [N, " +
           std::to_string(columns) + "] (" + hint + ")");
    checkRows(array.shape[0]);
    return std::vector<float>(array.values.begin(), array.values.end());
  }

  void checkRows(int64_t got) const {
    if (got == 0)
      fail("has no rows");
  }

  /// Fails at the first NaN or infinity of `values`, a matrix of `columns`
  /// that `what` names ("x", "y"): training on it would only give a loss
  /// of nan. Rows and columns count from 1, as in a CSV file.
  void checkFinite(const std::vector<float> &values, int64_t columns,
                   const char *what) const {
    if (allowNonFinite)
      return;
    for (size_t i = 0; i < values.size(); ++i)
      if (!std::isfinite(values[i]))
        fail(std::string("has ") +
             (std::isnan(values[i]) ? "NaN" : "an infinity") + " in " + what +
             " at row " + std::to_string(i / columns + 1) + ", column " +
             std::to_string(i % columns + 1) +
             " (counting from 1); give --allow-nonfinite to train on it "
             "anyway");
  }

  /// Fails at the first label of `y` that is not an integer in [0,
  /// classes), for a classification. Rows and columns count from 1.
  void checkLabels(const std::vector<float> &y) const {
    if (!classes)
      return;
    for (size_t i = 0; i < y.size(); ++i)
      if (!(y[i] >= 0 && y[i] < classes && y[i] == std::floor(y[i])))
        fail("has label " + formatNumber(y[i], 9) + " at row " +
             std::to_string(i / outputs + 1) +
             (outputs > 1 ? ", column " + std::to_string(i % outputs + 1)
                          : std::string()) +
             " (counting from 1); the model's @forward returns the logits "
             "of " +
             std::to_string(classes) + " classes, so labels must be " +
             "integers in [0, " + std::to_string(classes) + ")");
  }

  Dataset make(std::vector<float> x, std::vector<float> y) const {
    checkFinite(x, features, "x");
    Dataset data;
    if (y.empty() && targetsOptional) {
      data.rows = x.size() / features;
      data.features = features;
      data.x = std::move(x);
      return data;
    }
    checkFinite(y, outputs, "y");
    checkLabels(y);
    if (x.size() / features != y.size() / outputs)
      fail("has " + std::to_string(x.size() / features) + " rows of x but " +
           std::to_string(y.size() / outputs) + " of y");
    data.rows = x.size() / features;
    data.features = features;
    data.outputs = outputs;
    data.x = std::move(x);
    data.y = std::move(y);
    return data;
  }
};
} // namespace

static Dataset loadNpy(const Expected &want) {
  llvm::Expected<HostTensor> array = mlir::ens::readNpy(want.path);
  if (!array)
    throw Failure("cannot read data: " + llvm::toString(array.takeError()));
  int64_t columns = want.features + want.outputs;
  if (want.targetsOptional && array->getRank() == 2 &&
      array->shape[1] == want.features)
    columns = want.features;
  std::vector<float> all =
      want.matrix(*array, "", columns,
                  std::to_string(want.features) + " columns of x, then " +
                      std::to_string(want.outputs) + " targets");
  std::vector<float> x, y;
  for (int64_t r = 0; r < array->shape[0]; ++r) {
    const float *row = all.data() + r * columns;
    x.insert(x.end(), row, row + want.features);
    y.insert(y.end(), row + want.features, row + columns);
  }
  return want.make(std::move(x), std::move(y));
}

static Dataset loadNpz(const Expected &want) {
  std::string bytes =
      readInputFile(want.path, "data", mlir::ens::getDefaultMaxBufferBytes());
  llvm::Expected<std::vector<mlir::ens::NamedArray>> arrays =
      mlir::ens::parseNpz(bytes, want.path);
  if (!arrays)
    throw Failure("cannot read data: " + llvm::toString(arrays.takeError()));
  auto has = [&](const std::string &name) {
    return llvm::any_of(*arrays,
                        [&](const auto &named) { return named.first == name; });
  };
  auto find = [&](const std::string &name) -> const HostTensor & {
    for (const auto &[arrayName, array] : *arrays)
      if (arrayName == name)
        return array;
    want.fail("has no array named '" + name + "' (expected x [N, " +
              std::to_string(want.features) + "] and y [N, " +
              std::to_string(want.outputs) + "])");
  };
  std::vector<float> x =
      want.matrix(find("x"), "array x", want.features, "the model's inputs");
  if (want.targetsOptional && !has("y"))
    return want.make(std::move(x), {});
  return want.make(std::move(x),
                   want.matrix(find("y"), "array y", want.outputs,
                               "the targets", /*acceptVector=*/true));
}

static Dataset loadCsv(const Expected &want) {
  std::string text =
      readInputFile(want.path, "data", mlir::ens::getDefaultMaxBufferBytes());
  int64_t columns = want.features + want.outputs;
  std::vector<float> x, y;
  int64_t rows = 0, lineNumber = 0;
  llvm::SmallVector<llvm::StringRef> fields;
  // Line by line: a list of every line could take 16 times the file.
  for (llvm::StringRef rest = text; !rest.empty();) {
    llvm::StringRef line;
    std::tie(line, rest) = rest.split('\n');
    ++lineNumber;
    line = line.trim();
    if (line.empty() || (lineNumber == 1 && want.header))
      continue;
    fields.clear();
    line.split(fields, ',');
    std::vector<double> values;
    for (llvm::StringRef field : fields) {
      double value;
      if (field.trim().getAsDouble(value)) {
        values.clear();
        break;
      }
      values.push_back(value);
    }
    if (values.empty()) {
      if (rows == 0 && lineNumber == 1)
        continue; // A header.
      want.fail("line " + std::to_string(lineNumber) +
                " is not a row of numbers separated by commas");
    }
    // Data without targets has x alone, every row.
    if (rows == 0 && want.targetsOptional &&
        static_cast<int64_t>(values.size()) == want.features)
      columns = want.features;
    if (static_cast<int64_t>(values.size()) != columns)
      want.fail("line " + std::to_string(lineNumber) + " has " +
                std::to_string(values.size()) + " columns; expected " +
                std::to_string(columns) + " (" + std::to_string(want.features) +
                " of x, then " + std::to_string(want.outputs) + " targets)");
    ++rows;
    x.insert(x.end(), values.begin(), values.begin() + want.features);
    y.insert(y.end(), values.begin() + want.features, values.end());
  }
  want.checkRows(rows);
  return want.make(std::move(x), std::move(y));
}

Dataset ens::train::loadDataset(const std::string &path,
                                const DataLayout &layout,
                                const DataOptions &options) {
  Expected want{path,
                layout.features,
                layout.targets,
                layout.classes,
                options.allowNonFinite,
                options.header,
                options.targetsOptional};
  std::string extension = llvm::sys::path::extension(path).lower();
  if (extension == ".npy")
    return loadNpy(want);
  if (extension == ".npz")
    return loadNpz(want);
  if (extension == ".csv")
    return loadCsv(want);
  throw Failure("data " + path + " must be a .npy, .npz or .csv file");
}

Dataset ens::train::splitValidation(Dataset &data, double fraction,
                                    uint64_t seed) {
  // A random choice of rows: the first of a permutation.
  std::vector<int64_t> order =
      Random::stream(seed, kValidationStream).permutation(data.rows);
  int64_t count = std::llround(fraction * static_cast<double>(data.rows));
  std::vector<bool> chosen(data.rows, false);
  for (int64_t i = 0; i < count; ++i)
    chosen[order[i]] = true;
  Dataset parts[2];
  for (Dataset &part : parts) {
    part.features = data.features;
    part.outputs = data.outputs;
  }
  for (int64_t row = 0; row < data.rows; ++row) {
    Dataset &part = parts[chosen[row]];
    part.x.insert(part.x.end(), data.x.begin() + row * data.features,
                  data.x.begin() + (row + 1) * data.features);
    part.y.insert(part.y.end(), data.y.begin() + row * data.outputs,
                  data.y.begin() + (row + 1) * data.outputs);
    ++part.rows;
  }
  data = std::move(parts[0]);
  return std::move(parts[1]);
}
