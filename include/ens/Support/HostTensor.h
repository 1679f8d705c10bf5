//===- HostTensor.h - Tensors in host memory --------------------*- C++ -*-===//
//
// The value type of the reference interpreter and of ens-run's file I/O. It
// is deliberately simple: every element is held as a double, whatever the
// element type, and is rounded to the element type after each operation.
// Doubles hold every f16, bf16, f32, i32 and i1 value exactly.
//
//===----------------------------------------------------------------------===//

#ifndef ENS_SUPPORT_HOSTTENSOR_H
#define ENS_SUPPORT_HOSTTENSOR_H

#include "ens/Runtime/Plan.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mlir::ens {

/// The element types of ens tensors, shared with the runtime.
using DType = ::ens::runtime::DType;

/// The name used in MLIR types: "f32", "i1", ...
llvm::StringRef getDTypeName(DType dtype);
/// Parses a name produced by getDTypeName.
std::optional<DType> parseDTypeName(llvm::StringRef name);
bool isFloatDType(DType dtype);

/// Rounds `value` to the nearest value of `dtype`: IEEE round-to-nearest-even
/// for floats, wrap-around modulo 2^32 for i32 (after truncation toward zero,
/// saturating and NaN to 0), and `value != 0` for i1.
double roundToDType(double value, DType dtype);

/// The size in bytes of one element of `dtype` in memory laid out as in C:
/// f32 as float, f64 as double, i32 as int32_t, 16-bit floats as their
/// bits, i1 as one byte.
size_t getElementSize(DType dtype);

/// Row-major strides of a tensor of `shape`, in elements.
llvm::SmallVector<int64_t, 4> getRowMajorStrides(llvm::ArrayRef<int64_t> shape);
/// The number of elements of a tensor of `shape` (1 for rank 0).
int64_t getNumElements(llvm::ArrayRef<int64_t> shape);

/// Calls `fn(index, linear)` for every multi-index of `shape`, row-major.
template <typename Fn> void forEachIndex(llvm::ArrayRef<int64_t> shape, Fn fn) {
  int64_t count = getNumElements(shape);
  llvm::SmallVector<int64_t, 8> index(shape.size(), 0);
  for (int64_t linear = 0; linear < count; ++linear) {
    fn(llvm::ArrayRef<int64_t>(index), linear);
    for (int64_t d = static_cast<int64_t>(shape.size()) - 1; d >= 0; --d) {
      if (++index[d] < shape[d])
        break;
      index[d] = 0;
    }
  }
}

/// Formats a tensor type as in MLIR, e.g. "tensor<2x3xf32>".
std::string getTensorTypeString(DType dtype, llvm::ArrayRef<int64_t> shape);

/// Writes `value` as element `i` of memory laid out as getElementSize says,
/// rounding it to nearest-even for the 16-bit floats.
void storeElement(void *data, DType dtype, int64_t i, double value);
/// Reads element `i` of such memory (the runtime's, ens/Runtime/Plan.h).
using ::ens::runtime::loadElement;

/// A dense row-major tensor in memory the caller owns, with elements laid
/// out as getElementSize says.
struct BufferRef {
  void *data;
  DType dtype;
  llvm::ArrayRef<int64_t> shape;
};

/// A dense row-major tensor in host memory.
struct HostTensor {
  DType dtype = DType::F32;
  llvm::SmallVector<int64_t, 4> shape;
  std::vector<double> values;

  HostTensor() = default;
  /// A tensor of `shape` filled with zeros.
  HostTensor(DType dtype, llvm::ArrayRef<int64_t> shape);
  /// A tensor with the given values, rounded to `dtype`.
  HostTensor(DType dtype, llvm::ArrayRef<int64_t> shape,
             std::vector<double> values);

  int64_t getNumElements() const { return values.size(); }
  int64_t getRank() const { return shape.size(); }
  /// Rounds every element to the element type.
  void roundToDType();
  /// Writes the elements in the element type to memory laid out as
  /// getElementSize says.
  void storeTo(void *data) const;
  /// A tensor of `dtype` and `shape` read from such memory.
  static HostTensor loadFrom(DType dtype, llvm::ArrayRef<int64_t> shape,
                             const void *data);
  /// Formats the type as in MLIR, e.g. "tensor<2x3xf32>".
  std::string getTypeString() const;
};

/// Prints `tensor` as nested rows, e.g. "[[1, 2], [3, 4]]". Floats use the
/// shortest text that reads back as the same value of their type.
void printHostTensor(llvm::raw_ostream &os, const HostTensor &tensor);

} // namespace mlir::ens

#endif // ENS_SUPPORT_HOSTTENSOR_H
