//===- DatasetFuzzer.cpp - Fuzz ens-train's data loader -------------------===//
//
// The first input byte chooses the format (.csv, .npy or .npz), the
// model's features and outputs, and whether the outputs are class labels;
// the rest is written to a file of that extension and loaded by
// loadDataset, as `ens-train --data` does. The properties: no crash or
// unbounded allocation, no exception other than Failure, and a dataset that
// loads has at least one row, of exactly the features and outputs asked
// for, and labels in range.
//
//===----------------------------------------------------------------------===//

#include "FuzzSupport.h"
#include "ens/Train/Data.h"
#include "ens/Train/Failure.h"

#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <cstdlib>

using namespace ens::train;
using ens::train::Failure;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size == 0)
    return 0;
  static const char *const kExtensions[] = {".csv", ".npy", ".npz"};
  uint8_t choice = data[0];
  const char *extension = kExtensions[choice % 3];
  // Small shapes, 1 included, so that a matching file is easy to reach.
  int64_t features = 1 + (choice / 12) % 3;
  int64_t outputs = 1 + (choice / 36) % 2;
  // Three classes, from the bit that the other choices leave free.
  int64_t classes = (choice / 72) % 2 ? 3 : 0;
  std::string path = ens_fuzz::writeScratchFile(
      std::string("data") + extension,
      llvm::StringRef(reinterpret_cast<const char *>(data) + 1, size - 1));
  Dataset dataset;
  try {
    dataset =
        loadDataset(path, DataLayout{features, outputs, classes},
                    DataOptions{false, /*header=*/(choice / 144) % 2 == 1});
  } catch (const Failure &) {
    return 0;
  }
  int64_t rows = dataset.rows;
  if (rows < 1 || dataset.features != features || dataset.outputs != outputs ||
      dataset.x.size() != static_cast<size_t>(rows * features) ||
      dataset.y.size() != static_cast<size_t>(rows * outputs)) {
    llvm::errs() << "fuzz: loadDataset returned a dataset of another shape\n";
    std::abort();
  }
  for (float label : classes ? dataset.y : std::vector<float>())
    if (!(label >= 0 && label < classes && label == int64_t(label))) {
      llvm::errs() << "fuzz: loadDataset let a label out of range through\n";
      std::abort();
    }
  return 0;
}
