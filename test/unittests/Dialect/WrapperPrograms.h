//===- WrapperPrograms.h - Functions the checker adds to a sample -*- C++ -*-=//
//
// The op-completeness checker runs a sample's function @f through the
// transforms by adding functions that use it, as text: @main maps @f over
// members, and @loss and @grad differentiate it.
//
//===----------------------------------------------------------------------===//

#ifndef ENS_TEST_UNITTESTS_DIALECT_WRAPPERPROGRAMS_H
#define ENS_TEST_UNITTESTS_DIALECT_WRAPPERPROGRAMS_H

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/ArrayRef.h"

#include <cstdint>
#include <string>

namespace mlir::ens::test {

/// Whether `type` is a tensor of floats.
bool isFloatTensor(Type type);

/// A function @main that maps @f, of `type`, over 3 members with `inAxes`
/// (-1: shared), stacking every result along axis 0.
std::string buildVmapMain(FunctionType type, llvm::ArrayRef<int64_t> inAxes);

/// A function @loss of @f's arguments followed by one weight per float
/// result of @f, of `type`: the sum over the float results of each result
/// times its weight, as f64. And a function @grad of the same arguments
/// returning @loss and its gradient with respect to the arguments `wrt`.
std::string buildLossAndGrad(FunctionType type, llvm::ArrayRef<int64_t> wrt);

} // namespace mlir::ens::test

#endif // ENS_TEST_UNITTESTS_DIALECT_WRAPPERPROGRAMS_H
