//===- DLPack.h - What ens reads of DLPack tensors --------------*- C++ -*-===//
//
// The element types and layouts of DLPack tensors that ens runs on, for
// the runtime and the C++ API alike.
//
//===----------------------------------------------------------------------===//

#ifndef ENS_RUNTIME_DLPACK_H
#define ENS_RUNTIME_DLPACK_H

#include "ens/Runtime/Plan.h"

#include <dlpack/dlpack.h>

#include <optional>

namespace ens::runtime {

/// The element type of a DLPack dtype, if ens has it. Bool is uint8, as
/// frameworks export it (DLPack 0.6 has no boolean code).
std::optional<DType> getDTypeOfDLPack(DLDataType type);

/// Whether `tensor` is laid out compact and row-major: no strides, or the
/// strides of that layout (a dimension of size 1 may have any stride).
bool isCompactRowMajor(const DLTensor &tensor);

} // namespace ens::runtime

#endif // ENS_RUNTIME_DLPACK_H
