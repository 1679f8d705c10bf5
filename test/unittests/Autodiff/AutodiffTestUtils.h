//===- AutodiffTestUtils.h - Helpers for the autodiff tests -----*- C++ -*-===//
//
// Parses ens programs, runs the ens-autodiff and ens-batch passes on them,
// interprets the result, and compares tensors. Programs are built as text;
// constants embed their exact bits, so a program computes with precisely
// the values the test generated.
//
//===----------------------------------------------------------------------===//

#ifndef ENS_TEST_UNITTESTS_AUTODIFF_AUTODIFFTESTUTILS_H
#define ENS_TEST_UNITTESTS_AUTODIFF_AUTODIFFTESTUTILS_H

#include "TestSupport.h"
#include "ens/Support/HostTensor.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include "gtest/gtest.h"

#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <vector>

namespace mlir::ens::test {

//===----------------------------------------------------------------------===//
// Programs
//===----------------------------------------------------------------------===//

/// The passes a test applies, in order.
enum class PassKind { Stdlib, Autodiff, Batch };

/// A parsed module and the context that owns it.
class Program {
public:
  /// Parses `source`; a parse or verification error fails the test.
  explicit Program(llvm::StringRef source);

  bool isValid() const { return static_cast<bool>(module); }
  ModuleOp getModule() { return *module; }
  /// A copy of the module in the same context, for applying other passes.
  OwningOpRef<ModuleOp> cloneModule() { return module->clone(); }

  /// Runs `passes` on `target` (the program's module by default); a pass
  /// failure or an invalid result fails the test and returns false.
  bool apply(llvm::ArrayRef<PassKind> passes, ModuleOp target = nullptr);

private:
  MLIRContext context;
  OwningOpRef<ModuleOp> module;
};

/// Runs `entry` of `module`; an error fails the test and gives an empty
/// vector.
std::vector<HostTensor> run(ModuleOp module, llvm::StringRef entry,
                            llvm::ArrayRef<HostTensor> args);

/// An indented `ens.constant` line defining `%<name>` with exactly the
/// values of `tensor`.
std::string constantOp(llvm::StringRef name, const HostTensor &tensor);

//===----------------------------------------------------------------------===//
// Random inputs
//===----------------------------------------------------------------------===//

/// A deterministic source of random shapes and tensors.
class Random : public RandomSource {
public:
  using RandomSource::RandomSource;

  /// Values uniform in [lo, hi).
  HostTensor uniform(llvm::ArrayRef<int64_t> shape, double lo = -1.5,
                     double hi = 1.5, DType dtype = DType::F64);
  /// Values with magnitude in [lo, hi) and a random sign: away from the
  /// kinks of relu, abs and from poles at zero.
  HostTensor signedAway(llvm::ArrayRef<int64_t> shape, double lo = 0.2,
                        double hi = 1.5);
  /// Distinct values at least 0.09 apart, in a random order: no ties.
  HostTensor distinct(llvm::ArrayRef<int64_t> shape);
  /// i32 indices in [lo, hi].
  HostTensor indices(llvm::ArrayRef<int64_t> shape, int64_t lo, int64_t hi);
};

//===----------------------------------------------------------------------===//
// Comparison
//===----------------------------------------------------------------------===//

/// Checks shape and dtype and that every element satisfies
/// |actual - expected| <= rel * |expected| + abs.
void expectClose(const HostTensor &actual, const HostTensor &expected,
                 double rel, double abs, llvm::StringRef what = "");
/// Bit-for-bit equality of shape, dtype and values.
void expectIdentical(const HostTensor &actual, const HostTensor &expected,
                     llvm::StringRef what = "");

/// Member `index` along `axis`, and the inverse: stacking along `axis`.
HostTensor indexAxis(const HostTensor &x, int64_t axis, int64_t index);
HostTensor stack(llvm::ArrayRef<HostTensor> members, int64_t axis);

} // namespace mlir::ens::test

#endif // ENS_TEST_UNITTESTS_AUTODIFF_AUTODIFFTESTUTILS_H
