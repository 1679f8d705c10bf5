//===- Npy.h - NumPy .npy containers ----------------------------*- C++ -*-===//
//
// The .npy container (format versions 1.0, 2.0 and 3.0): its header and
// its raw little-endian, C-order data, for the dtypes <f2, <f4, <f8, <i4
// and |b1 (bf16 has no .npy dtype). The runtime's tools exchange raw
// tensors with it; the compiler decodes the elements into host tensors on
// top of it (ens/Support/Npy.h).
//
//===----------------------------------------------------------------------===//

#ifndef ENS_RUNTIME_NPY_H
#define ENS_RUNTIME_NPY_H

#include "ens/Runtime/Error.h"
#include "ens/Runtime/Plan.h"

#include <string>
#include <string_view>
#include <vector>

namespace ens::runtime {

/// A .npy array: its element type, shape and data, a view into the bytes
/// it was parsed from.
struct NpyArray {
  DType dtype;
  std::vector<int64_t> shape;
  std::string_view data;
  /// For an integer array of a dtype other than <i4 (|i1, |u1, <i2, <u2,
  /// <u4, <i8, <u8), which parseNpyArray accepts only when asked to and
  /// gives as i32: the size in bytes of data's elements, and whether they
  /// are signed. 0 for every other array, whose data holds elements of
  /// dtype.
  unsigned integerBytes = 0;
  bool integerSigned = true;
};

/// Decodes the container of a .npy file: checks the magic, the version,
/// the header, the dtype, that the data has exactly the bytes of the shape,
/// and that bools are 0 or 1. With `anyInteger`, an integer array of any
/// width is accepted as i32, its raw elements described by integerBytes
/// and integerSigned (the caller converts them, checking their range). Any
/// malformed input gives an error (never a crash) whose message starts with
/// `nameForErrors`.
Expected<NpyArray> parseNpyArray(std::string_view bytes,
                                 const std::string &nameForErrors,
                                 bool anyInteger = false);

/// The bytes of a .npy file (version 1.0, or 2.0 if the header does not
/// fit) holding `data`, the raw elements of `dtype` and `shape`. Fails for
/// bf16, which has no .npy dtype.
Expected<std::string> serializeNpyArray(DType dtype,
                                        const std::vector<int64_t> &shape,
                                        std::string_view data);

} // namespace ens::runtime

#endif // ENS_RUNTIME_NPY_H
