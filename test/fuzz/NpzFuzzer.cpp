//===- NpzFuzzer.cpp - Fuzz the .npz reader -------------------------------===//
//
// Feeds the input, as the bytes of a .npz file, to parseNpz
// (ens/Support/Npz.h), which ens-train's data and checkpoints and ens-run's
// inputs go through. The properties: no crash or unbounded allocation; an
// archive it accepts encodes again and decodes to the same arrays.
//
//===----------------------------------------------------------------------===//

#include "ens/Support/Npz.h"

#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>

using mlir::ens::NamedArray;

namespace {
/// Whether two decodings hold the same arrays; NaNs may be quieted.
bool sameArrays(const std::vector<NamedArray> &a,
                const std::vector<NamedArray> &b) {
  if (a.size() != b.size())
    return false;
  for (size_t i = 0; i < a.size(); ++i) {
    const mlir::ens::HostTensor &x = a[i].second, &y = b[i].second;
    if (a[i].first != b[i].first || x.dtype != y.dtype || x.shape != y.shape ||
        x.values.size() != y.values.size())
      return false;
    for (size_t j = 0; j < x.values.size(); ++j)
      if (std::isnan(x.values[j])
              ? !std::isnan(y.values[j])
              : std::memcmp(&x.values[j], &y.values[j], sizeof(double)))
        return false;
  }
  return true;
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string bytes(reinterpret_cast<const char *>(data), size);
  llvm::Expected<std::vector<NamedArray>> arrays =
      mlir::ens::parseNpz(bytes, "fuzz.npz");
  if (!arrays) {
    llvm::consumeError(arrays.takeError());
    return 0;
  }
  llvm::Expected<std::string> encoded = mlir::ens::serializeNpz(*arrays);
  if (!encoded) {
    llvm::errs() << "fuzz: serializeNpz refuses what parseNpz read: "
                 << llvm::toString(encoded.takeError()) << "\n";
    std::abort();
  }
  llvm::Expected<std::vector<NamedArray>> again =
      mlir::ens::parseNpz(*encoded, "again.npz");
  if (!again) {
    llvm::errs() << "fuzz: serializeNpz's output does not parse: "
                 << llvm::toString(again.takeError()) << "\n";
    std::abort();
  }
  if (!sameArrays(*arrays, *again)) {
    llvm::errs() << "fuzz: a .npz round trip changed the arrays\n";
    std::abort();
  }
  return 0;
}
