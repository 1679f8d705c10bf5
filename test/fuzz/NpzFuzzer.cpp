//===- NpzFuzzer.cpp - Fuzz ens-train's .npz reader -----------------------===//
//
// Feeds the input, as the bytes of a .npz file, to parseNpz. The
// properties: no crash or unbounded allocation, and no exception other than
// ens-train's Failure (which ens-train reports as one error line); an
// archive it accepts encodes again and decodes to the same arrays.
//
//===----------------------------------------------------------------------===//

#include "Failure.h"
#include "Npz.h"

#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>

using namespace ens_train;

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
  std::vector<NamedArray> arrays;
  try {
    arrays = parseNpz(bytes, "fuzz.npz");
  } catch (const Failure &) {
    return 0;
  }
  std::vector<NamedArray> again;
  try {
    again = parseNpz(serializeNpz(arrays), "again.npz");
  } catch (const Failure &failure) {
    llvm::errs() << "fuzz: serializeNpz's output does not parse: "
                 << failure.what() << "\n";
    std::abort();
  }
  if (!sameArrays(arrays, again)) {
    llvm::errs() << "fuzz: a .npz round trip changed the arrays\n";
    std::abort();
  }
  return 0;
}
