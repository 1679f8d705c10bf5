//===- TestUtils.h - Helpers for the interpreter tests ----------*- C++ -*-===//
//
// Builds small ens programs as text, runs them with the reference
// interpreter, and compares the results element by element with values the
// tests compute themselves. The helpers here deliberately share nothing with
// the interpreter's kernels: indices are unravelled by hand and every
// expected value is written out in plain loops over std::vector<double>.
//
//===----------------------------------------------------------------------===//

#ifndef ENS_TEST_UNITTESTS_INTERPRETER_TESTUTILS_H
#define ENS_TEST_UNITTESTS_INTERPRETER_TESTUTILS_H

#include "TestSupport.h"
#include "ens/Interpreter/Interpreter.h"
#include "ens/Support/HostTensor.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include "gtest/gtest.h"

#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

namespace mlir::ens::test {

//===----------------------------------------------------------------------===//
// Programs
//===----------------------------------------------------------------------===//

/// A parsed and verified module together with the context that owns it.
class Program {
public:
  /// Parses `source`; a parse or verification error fails the test.
  explicit Program(llvm::StringRef source);

  bool isValid() const { return static_cast<bool>(module); }
  ModuleOp getModule() { return *module; }
  /// Runs `entry` with a fresh interpreter.
  llvm::Expected<std::vector<HostTensor>> run(llvm::StringRef entry,
                                              llvm::ArrayRef<HostTensor> args);

private:
  MLIRContext context;
  OwningOpRef<ModuleOp> module;
};

/// Runs `entry` of `source` and returns its results; an error fails the test
/// and gives an empty vector.
std::vector<HostTensor> runProgram(llvm::StringRef source,
                                   llvm::StringRef entry,
                                   llvm::ArrayRef<HostTensor> args);

/// Runs one op in a function `@main(%a0: args[0].type, %a1: ...)`. `op` is
/// the op's text, naming the arguments %a0, %a1, ...; `resultType` is the
/// function's result type. Returns the single result (an empty tensor after
/// a failure).
HostTensor runOp(llvm::StringRef op, llvm::StringRef resultType,
                 llvm::ArrayRef<HostTensor> args);

//===----------------------------------------------------------------------===//
// Indices
//===----------------------------------------------------------------------===//

int64_t numElements(llvm::ArrayRef<int64_t> shape);
/// The row-major multi-index of element `linear` of a tensor of `shape`.
Shape unravel(int64_t linear, llvm::ArrayRef<int64_t> shape);
/// The row-major position of `index` in a tensor of `shape`.
int64_t ravel(llvm::ArrayRef<int64_t> index, llvm::ArrayRef<int64_t> shape);

/// Wraps an integer to the int32 range, modulo 2^32.
int64_t wrapToInt32(int64_t value);

/// Edge values the elementwise and reduction suites feed every op.
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kInt32Min = -2147483648.0;
constexpr double kInt32Max = 2147483647.0;

/// "f32", "i32": the dtype as spelled in types and test names.
inline std::string dtypeName(DType dtype) { return getDTypeName(dtype).str(); }

//===----------------------------------------------------------------------===//
// Random inputs
//===----------------------------------------------------------------------===//

/// A deterministic source of random shapes and tensors.
class Random : public RandomSource {
public:
  using RandomSource::RandomSource;

  /// A tensor with values uniform in [lo, hi): reals for float types,
  /// integers for i32, 0 or 1 for i1.
  HostTensor tensor(DType dtype, llvm::ArrayRef<int64_t> shape, double lo = -2,
                    double hi = 2);
};

//===----------------------------------------------------------------------===//
// Comparison
//===----------------------------------------------------------------------===//

/// How closely floats must match.
enum class Match {
  /// f32 to within a relative 1e-6 plus an absolute 1e-6, f64 to within
  /// 1e-12 both ways: room for a different summation order.
  Close,
  /// Bit for bit, including the sign of zero (but every NaN matches every
  /// NaN): for results that are a single correctly rounded operation.
  Exact,
};

/// Checks that `actual` has `dtype` and `shape` and that every element
/// matches `expected`, which is computed in double and rounded here to the
/// element type. Integers and i1 must be equal, NaN matches NaN and
/// infinities must be equal; other floats match as `match` says.
void expectTensor(const HostTensor &actual, DType dtype,
                  llvm::ArrayRef<int64_t> shape,
                  const std::vector<double> &expected,
                  Match match = Match::Close);

} // namespace mlir::ens::test

#endif // ENS_TEST_UNITTESTS_INTERPRETER_TESTUTILS_H
