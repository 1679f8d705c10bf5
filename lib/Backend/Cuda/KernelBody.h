//===- KernelBody.h - Scalar C++ of CUDA kernels ----------------*- C++ -*-===//
//
// Private to the CUDA backend: what the kernel generator uses to write the
// statements inside a kernel.
//
//===----------------------------------------------------------------------===//

#ifndef ENS_LIB_BACKEND_CUDA_KERNELBODY_H
#define ENS_LIB_BACKEND_CUDA_KERNELBODY_H

#include "SharedMemory.h"

#include "ens/Support/HostTensor.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/Operation.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>

namespace mlir::ens::cuda {

/// An error with `message`.
llvm::Error error(const Twine &message);

/// The C++ type of a scalar of `type` ("float", "long long"), or failure.
FailureOr<std::string> getCType(Type type);

/// A C++ float (or, with `isDouble`, double) literal that reads back
/// exactly, or an expression for inf and NaN.
std::string floatLiteral(double value, bool isDouble);

/// The element type of a launch-plan buffer of `type`, if it has one.
std::optional<DType> getBufferDType(Type type);

/// The C++ expression of an affine expression over named dimensions and
/// symbols, with the floor semantics of mod and floordiv.
FailureOr<std::string> affineExpr(AffineExpr expr, ArrayRef<std::string> dims,
                                  ArrayRef<std::string> symbols = {});

/// The multiply that `add` is written fused with, as one fmaf (fma in f64):
/// an operand of `add` computed by an arith.mulf of the same block that
/// nothing else uses; null if there is none.
arith::MulFOp getFusedMultiply(arith::AddFOp add);

/// `a * b + c` of float `type` rounded once: fmaf, or fma in f64.
std::string fmaExpr(Type type, const std::string &a, const std::string &b,
                    const std::string &c);

/// A C++ lambda that combines two partial results as `combiner` (an
/// arith.addf, arith.maximumf or arith.addi) does, and the identity of that
/// combination.
std::pair<std::string, std::string> getCombination(Operation *combiner);

/// How a kernel reaches a memref: its parameter, offset and strides.
struct Access {
  std::string param;
  /// The offset in elements: a C++ expression.
  std::string offset;
  SmallVector<int64_t, 4> strides;
  /// Whether the rows are swizzled (TemporaryConfig::swizzled): the last
  /// index is XORed with the piece of the row that the one before picks.
  bool swizzled = false;
};

/// Writes the statements of a kernel body.
class BodyEmitter {
public:
  BodyEmitter(std::string &out, DenseMap<Value, Access> &accesses)
      : os(out), accesses(accesses) {}

  /// Names `value` with the C++ expression `name`.
  void bind(Value value, std::string name) { names[value] = std::move(name); }
  bool isBound(Value value) const { return names.count(value); }
  /// Forgets the name of `value`, which a later point names anew.
  void unbind(Value value) { names.erase(value); }

  /// The expression for `value`.
  std::string get(Value value) { return names.lookup(value); }

  /// Whether the kernel has an access to `memref`.
  bool canReach(Value memref) const { return accesses.count(memref); }

  /// The element `indices` of memref `memref`.
  std::string element(Value memref, ArrayRef<std::string> indices) {
    auto it = accesses.find(memref);
    if (it == accesses.end())
      return "<missing>";
    const Access &access = it->second;
    std::string index = access.offset;
    for (auto [i, stride] : llvm::enumerate(access.strides)) {
      std::string at = indices[i];
      if (access.swizzled && i + 1 == access.strides.size())
        at = getSwizzledIndex(indices[i - 1], at);
      index += " + " + at + " * " + std::to_string(stride);
    }
    return access.param + "[" + index + "]";
  }

  /// Emits `op`, which has no regions or is an scf.for.
  llvm::Error emit(Operation *op, unsigned indent);

  /// Emits the ops of `block` except its terminator.
  llvm::Error emitBlock(Block &block, unsigned indent) {
    for (Operation &op : block.without_terminator())
      if (llvm::Error failure = emit(&op, indent))
        return failure;
    return llvm::Error::success();
  }

private:
  llvm::Error declare(Operation *op, const std::string &expr, unsigned indent);
  FailureOr<std::string> expression(Operation *op);

  llvm::raw_string_ostream os;
  DenseMap<Value, Access> &accesses;
  DenseMap<Value, std::string> names;
  unsigned counter = 0;
};

} // namespace mlir::ens::cuda

#endif // ENS_LIB_BACKEND_CUDA_KERNELBODY_H
