//===- TensorTypes.h - ens element and tensor types in MLIR -----*- C++ -*-===//
//
// The one mapping between MLIR element types and ens DTypes, and the checks
// every backend applies to the tensor types and host arguments of a function
// before it runs it.
//
//===----------------------------------------------------------------------===//

#ifndef ENS_SUPPORT_TENSORTYPES_H
#define ENS_SUPPORT_TENSORTYPES_H

#include "ens/Support/HostTensor.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/TypeRange.h"
#include "llvm/Support/Error.h"

#include <optional>

namespace mlir::ens {

/// The DType of an MLIR element type, if ens supports it.
std::optional<DType> getDType(Type elementType);

/// The MLIR element type of `dtype`; getDType maps it back to `dtype`.
Type getElementType(MLIRContext *context, DType dtype);

/// The most elements the interpreter holds in one tensor: 2 GiB of doubles.
inline constexpr int64_t kMaxTensorElements = int64_t(1) << 28;

/// Checks that the interpreter can hold a value of `type`: a statically
/// shaped tensor of an ens element type with at most kMaxTensorElements
/// elements.
llvm::Error checkTensorType(Type type);

/// The signature of a function of `type` in the runtime's terms; an error
/// for an argument or result that is not a statically shaped tensor of an
/// ens element type.
llvm::Expected<::ens::runtime::Signature>
getRuntimeSignature(FunctionType type);

/// Checks that `args` match the inputs of `type` in number, shape and
/// element type; the error names the first argument that does not.
llvm::Error checkArguments(FunctionType type, llvm::ArrayRef<HostTensor> args);

/// Checks that `buffers` match `types`, which are ens tensor types, in
/// number, shape and element type, and that each non-empty one has data;
/// `what` ("arguments", "results") names them in the error.
llvm::Error checkBuffers(llvm::StringRef what,
                         llvm::ArrayRef<BufferRef> buffers, TypeRange types);

} // namespace mlir::ens

#endif // ENS_SUPPORT_TENSORTYPES_H
