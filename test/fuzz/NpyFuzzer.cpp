//===- NpyFuzzer.cpp - Fuzz the .npy reader -------------------------------===//
//
// Feeds the input, as the bytes of a .npy file, to parseNpy. The
// properties: no crash or unbounded allocation; a file it accepts encodes
// again and decodes to the same tensor (what ens-run writes, it reads).
//
//===----------------------------------------------------------------------===//

#include "ens/Support/Npy.h"

#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>

using namespace mlir::ens;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::StringRef bytes(reinterpret_cast<const char *>(data), size);
  llvm::Expected<HostTensor> tensor = parseNpy(bytes, "fuzz.npy");
  if (!tensor) {
    llvm::consumeError(tensor.takeError());
    return 0;
  }
  llvm::Expected<std::string> encoded = serializeNpy(*tensor);
  if (!encoded) {
    llvm::errs() << "fuzz: a tensor that parseNpy accepted does not encode: "
                 << llvm::toString(encoded.takeError()) << "\n";
    std::abort();
  }
  llvm::Expected<HostTensor> again = parseNpy(*encoded, "again.npy");
  if (!again) {
    llvm::errs() << "fuzz: serializeNpy's output does not parse: "
                 << llvm::toString(again.takeError()) << "\n";
    std::abort();
  }
  bool same = again->dtype == tensor->dtype && again->shape == tensor->shape &&
              again->values.size() == tensor->values.size();
  for (size_t i = 0; same && i < tensor->values.size(); ++i) {
    double before = tensor->values[i], after = again->values[i];
    // NaNs may be quieted on the way; any other value must be kept exactly.
    same = std::isnan(before)
               ? std::isnan(after)
               : std::memcmp(&before, &after, sizeof(double)) == 0;
  }
  if (!same) {
    llvm::errs() << "fuzz: a .npy round trip changed the tensor\n";
    std::abort();
  }
  return 0;
}
