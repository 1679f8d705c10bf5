//===- AutodiffTestUtils.cpp - Helpers for the autodiff tests -------------===//

#include "AutodiffTestUtils.h"

#include "ens/Backend/CpuBackend.h"
#include "ens/Dialect/Ens/Transforms/Passes.h"
#include "ens/InitAllDialects.h"
#include "ens/Interpreter/Interpreter.h"

#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cmath>
#include <cstring>

using namespace mlir;
using namespace mlir::ens;
using namespace mlir::ens::test;

//===----------------------------------------------------------------------===//
// Programs
//===----------------------------------------------------------------------===//

static DialectRegistry makeRegistry() {
  DialectRegistry registry;
  registerAllDialects(registry);
  registerCpuBackendDialects(registry);
  return registry;
}

Program::Program(llvm::StringRef source)
    : context(makeRegistry(), MLIRContext::Threading::DISABLED) {
  module = parseSourceString<ModuleOp>(source, &context);
  EXPECT_TRUE(module) << "the program does not parse or verify:\n"
                      << source.str();
}

/// The module as text, for failure messages.
static std::string print(ModuleOp module) {
  std::string text;
  llvm::raw_string_ostream os(text);
  module.print(os);
  return text;
}

bool Program::apply(llvm::ArrayRef<PassKind> passes, ModuleOp target) {
  if (!target)
    target = *module;
  PassManager pm(&context);
  for (PassKind pass : passes)
    pm.addPass(pass == PassKind::Stdlib     ? createEnsStdlib()
               : pass == PassKind::Autodiff ? createEnsAutodiff()
                                            : createEnsBatch());
  std::string before = print(target);
  if (failed(pm.run(target))) {
    ADD_FAILURE() << "the passes failed on:\n" << before;
    return false;
  }
  if (failed(verify(target))) {
    ADD_FAILURE() << "the passes produced an invalid module:\n"
                  << print(target);
    return false;
  }
  return true;
}

std::vector<HostTensor> test::run(ModuleOp module, llvm::StringRef entry,
                                  llvm::ArrayRef<HostTensor> args) {
  llvm::Expected<std::vector<HostTensor>> results =
      Interpreter(module).run(entry, args);
  if (!results) {
    ADD_FAILURE() << "running @" << entry.str()
                  << " failed: " << llvm::toString(results.takeError())
                  << "\nprogram:\n"
                  << print(module);
    return {};
  }
  return std::move(*results);
}

std::string test::constantOp(llvm::StringRef name, const HostTensor &tensor) {
  // The raw little-endian bytes of the elements, which MLIR reads as a hex
  // string: exact for every value.
  std::string bytes;
  for (double value : tensor.values) {
    char buffer[8];
    size_t size = 8;
    if (tensor.dtype == DType::F64) {
      std::memcpy(buffer, &value, 8);
    } else if (tensor.dtype == DType::F32) {
      float f = static_cast<float>(value);
      std::memcpy(buffer, &f, size = 4);
    } else {
      assert(tensor.dtype == DType::I32 && "unsupported constant dtype");
      int32_t i = static_cast<int32_t>(value);
      std::memcpy(buffer, &i, size = 4);
    }
    bytes.append(buffer, size);
  }
  std::string text = "  %" + name.str() + " = ens.constant dense<\"0x";
  for (unsigned char c : bytes) {
    static const char *digits = "0123456789ABCDEF";
    text += digits[c >> 4];
    text += digits[c & 15];
  }
  return text + "\"> : " + tensorType(tensor) + "\n";
}

//===----------------------------------------------------------------------===//
// Random inputs
//===----------------------------------------------------------------------===//

HostTensor Random::uniform(llvm::ArrayRef<int64_t> shape, double lo, double hi,
                           DType dtype) {
  HostTensor result(dtype, shape);
  for (double &value : result.values)
    value = real(lo, hi);
  result.roundToDType();
  return result;
}

HostTensor Random::signedAway(llvm::ArrayRef<int64_t> shape, double lo,
                              double hi) {
  HostTensor result(DType::F64, shape);
  for (double &value : result.values)
    value = (coin() ? 1 : -1) * real(lo, hi);
  return result;
}

HostTensor Random::distinct(llvm::ArrayRef<int64_t> shape) {
  HostTensor result(DType::F64, shape);
  int64_t n = result.getNumElements();
  Shape order = permutation(n);
  for (int64_t i = 0; i < n; ++i)
    result.values[i] = 0.1 * (order[i] - n / 2.0) + real(0, 0.01);
  return result;
}

HostTensor Random::indices(llvm::ArrayRef<int64_t> shape, int64_t lo,
                           int64_t hi) {
  HostTensor result(DType::I32, shape);
  for (double &value : result.values)
    value = integer(lo, hi);
  return result;
}

//===----------------------------------------------------------------------===//
// Comparison
//===----------------------------------------------------------------------===//

static bool sameType(const HostTensor &actual, const HostTensor &expected,
                     llvm::StringRef what) {
  if (actual.dtype == expected.dtype && actual.shape == expected.shape &&
      actual.values.size() == expected.values.size())
    return true;
  ADD_FAILURE() << what.str() << ": expected " << expected.getTypeString()
                << ", got " << actual.getTypeString();
  return false;
}

void test::expectClose(const HostTensor &actual, const HostTensor &expected,
                       double rel, double abs, llvm::StringRef what) {
  if (!sameType(actual, expected, what))
    return;
  int failures = 0;
  for (size_t i = 0; i < actual.values.size(); ++i) {
    double a = actual.values[i], e = expected.values[i];
    if (std::fabs(a - e) <= rel * std::fabs(e) + abs)
      continue;
    if (++failures <= 5)
      ADD_FAILURE() << what.str() << ": element " << i << " is " << a
                    << ", expected " << e << " (difference " << a - e << ")";
  }
  if (failures > 5)
    ADD_FAILURE() << what.str() << ": " << failures << " elements differ";
}

void test::expectIdentical(const HostTensor &actual, const HostTensor &expected,
                           llvm::StringRef what) {
  if (!sameType(actual, expected, what))
    return;
  for (size_t i = 0; i < actual.values.size(); ++i)
    if (std::memcmp(&actual.values[i], &expected.values[i], sizeof(double))) {
      ADD_FAILURE() << what.str() << ": element " << i << " is "
                    << actual.values[i] << ", expected " << expected.values[i];
      return;
    }
}

HostTensor test::indexAxis(const HostTensor &x, int64_t axis, int64_t index) {
  Shape shape(x.shape.begin(), x.shape.end());
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < axis; ++d)
    outer *= shape[d];
  for (size_t d = axis + 1; d < shape.size(); ++d)
    inner *= shape[d];
  int64_t size = shape[axis];
  shape.erase(shape.begin() + axis);
  HostTensor result(x.dtype, shape);
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t i = 0; i < inner; ++i)
      result.values[o * inner + i] = x.values[(o * size + index) * inner + i];
  return result;
}

HostTensor test::stack(llvm::ArrayRef<HostTensor> members, int64_t axis) {
  Shape shape(members[0].shape.begin(), members[0].shape.end());
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < axis; ++d)
    outer *= shape[d];
  for (size_t d = axis; d < shape.size(); ++d)
    inner *= shape[d];
  int64_t size = members.size();
  shape.insert(shape.begin() + axis, size);
  HostTensor result(members[0].dtype, shape);
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t m = 0; m < size; ++m)
      for (int64_t i = 0; i < inner; ++i)
        result.values[(o * size + m) * inner + i] =
            members[m].values[o * inner + i];
  return result;
}
