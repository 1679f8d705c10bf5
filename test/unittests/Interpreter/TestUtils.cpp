//===- TestUtils.cpp - Helpers for the interpreter tests ------------------===//

#include "TestUtils.h"

#include "ens/InitAllDialects.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cmath>

using namespace mlir;
using namespace mlir::ens;
using namespace mlir::ens::test;

//===----------------------------------------------------------------------===//
// Programs
//===----------------------------------------------------------------------===//

static DialectRegistry makeRegistry() {
  DialectRegistry registry;
  registerAllDialects(registry);
  return registry;
}

Program::Program(llvm::StringRef source)
    : context(makeRegistry(), MLIRContext::Threading::DISABLED) {
  module = parseSourceString<ModuleOp>(source, &context);
  EXPECT_TRUE(module) << "the program does not parse or verify:\n"
                      << source.str();
}

llvm::Expected<std::vector<HostTensor>>
Program::run(llvm::StringRef entry, llvm::ArrayRef<HostTensor> args) {
  return Interpreter(*module).run(entry, args);
}

std::vector<HostTensor> test::runProgram(llvm::StringRef source,
                                         llvm::StringRef entry,
                                         llvm::ArrayRef<HostTensor> args) {
  Program program(source);
  if (!program.isValid())
    return {};
  llvm::Expected<std::vector<HostTensor>> results = program.run(entry, args);
  if (!results) {
    ADD_FAILURE() << "running @" << entry.str()
                  << " failed: " << llvm::toString(results.takeError())
                  << "\nprogram:\n"
                  << source.str();
    return {};
  }
  return std::move(*results);
}

HostTensor test::runOp(llvm::StringRef op, llvm::StringRef resultType,
                       llvm::ArrayRef<HostTensor> args) {
  std::string source;
  llvm::raw_string_ostream os(source);
  os << "func.func @main(";
  for (auto [i, arg] : llvm::enumerate(args))
    os << (i ? ", " : "") << "%a" << i << ": " << tensorType(arg);
  os << ") -> " << resultType << " {\n"
     << "  %r = " << op << "\n"
     << "  return %r : " << resultType << "\n"
     << "}\n";
  std::vector<HostTensor> results = runProgram(source, "main", args);
  if (results.size() != 1) {
    ADD_FAILURE() << "expected one result from:\n" << source;
    return HostTensor();
  }
  return std::move(results.front());
}

//===----------------------------------------------------------------------===//
// Indices
//===----------------------------------------------------------------------===//

int64_t test::numElements(llvm::ArrayRef<int64_t> shape) {
  int64_t count = 1;
  for (int64_t size : shape)
    count *= size;
  return count;
}

Shape test::unravel(int64_t linear, llvm::ArrayRef<int64_t> shape) {
  Shape index(shape.size());
  for (size_t d = shape.size(); d-- > 0;) {
    index[d] = linear % shape[d];
    linear /= shape[d];
  }
  return index;
}

int64_t test::ravel(llvm::ArrayRef<int64_t> index,
                    llvm::ArrayRef<int64_t> shape) {
  EXPECT_EQ(index.size(), shape.size());
  int64_t linear = 0;
  for (size_t d = 0; d < shape.size(); ++d) {
    EXPECT_TRUE(index[d] >= 0 && index[d] < shape[d]);
    linear = linear * shape[d] + index[d];
  }
  return linear;
}

int64_t test::wrapToInt32(int64_t value) {
  constexpr int64_t kTwo32 = int64_t(1) << 32;
  int64_t m = ((value % kTwo32) + kTwo32) % kTwo32;
  return m >= (int64_t(1) << 31) ? m - kTwo32 : m;
}

//===----------------------------------------------------------------------===//
// Random inputs
//===----------------------------------------------------------------------===//

HostTensor Random::tensor(DType dtype, llvm::ArrayRef<int64_t> shape, double lo,
                          double hi) {
  std::vector<double> values;
  for (int64_t i = 0, e = numElements(shape); i < e; ++i) {
    if (dtype == DType::I1)
      values.push_back(coin() ? 1 : 0);
    else if (dtype == DType::I32)
      values.push_back(static_cast<double>(
          integer(static_cast<int64_t>(lo), static_cast<int64_t>(hi))));
    else
      values.push_back(real(lo, hi));
  }
  return HostTensor(dtype, shape, std::move(values));
}

//===----------------------------------------------------------------------===//
// Comparison
//===----------------------------------------------------------------------===//

/// True if `actual` matches `expected` (already rounded) for `dtype`.
static bool matches(double actual, double expected, DType dtype, Match match) {
  if (std::isnan(expected))
    return std::isnan(actual);
  if (!isFloatDType(dtype) || std::isinf(expected))
    return actual == expected;
  if (match == Match::Exact)
    return actual == expected && std::signbit(actual) == std::signbit(expected);
  double diff = std::fabs(actual - expected);
  if (dtype == DType::F64)
    return diff <= 1e-12 * std::fabs(expected) + 1e-12;
  return diff <= 1e-6 * std::fabs(expected) + 1e-6;
}

void test::expectTensor(const HostTensor &actual, DType dtype,
                        llvm::ArrayRef<int64_t> shape,
                        const std::vector<double> &expected, Match match) {
  ASSERT_EQ(getDTypeName(actual.dtype).str(), getDTypeName(dtype).str());
  ASSERT_EQ(Shape(actual.shape.begin(), actual.shape.end()),
            Shape(shape.begin(), shape.end()));
  ASSERT_EQ(actual.values.size(), expected.size());
  ASSERT_EQ(static_cast<int64_t>(expected.size()), numElements(shape));
  int failures = 0;
  for (size_t i = 0; i < expected.size(); ++i) {
    double want =
        dtype == DType::F32 ? static_cast<float>(expected[i]) : expected[i];
    if (matches(actual.values[i], want, dtype, match))
      continue;
    ADD_FAILURE() << "element " << i << " (index "
                  << testing::PrintToString(unravel(i, shape)) << ") of "
                  << tensorType(shape, dtype) << ": got "
                  << llvm::formatv("{0:e17}", actual.values[i]).str()
                  << ", expected " << llvm::formatv("{0:e17}", want).str();
    if (++failures == 10) {
      ADD_FAILURE() << "stopping after 10 mismatches";
      return;
    }
  }
}
