//===- ElementwiseTest.cpp - Interpreter tests of elementwise ops ---------===//
//
// Unary and binary arithmetic, comparisons, select, convert and constants.
// Each op runs on random tensors of random shapes, in every element type it
// admits, and is checked against its definition written out below; tables
// of special values pin down overflow, wrap-around, NaN and rounding.
//
//===----------------------------------------------------------------------===//

#include "TestUtils.h"

#include "llvm/Support/FormatVariadic.h"

#include <cmath>
#include <limits>

using namespace mlir::ens;
using namespace mlir::ens::test;

namespace {

//===----------------------------------------------------------------------===//
// Unary and binary ops on random inputs
//===----------------------------------------------------------------------===//

struct UnaryCase {
  const char *name;
  double (*apply)(double);
  /// The range of random float inputs.
  double lo, hi;
  /// The exact integer result before wrapping; null for float-only ops.
  int64_t (*applyInt)(int64_t);
};

const UnaryCase kUnaryCases[] = {
    {"neg", [](double x) { return -x; }, -5, 5, [](int64_t x) { return -x; }},
    {"exp", [](double x) { return std::exp(x); }, -10, 10, nullptr},
    {"log", [](double x) { return std::log(x); }, 0.01, 10, nullptr},
    {"tanh", [](double x) { return std::tanh(x); }, -5, 5, nullptr},
    {"sigmoid", [](double x) { return 1 / (1 + std::exp(-x)); }, -10, 10,
     nullptr},
    {"relu", [](double x) { return x > 0 ? x : 0.0; }, -5, 5, nullptr},
    {"sqrt", [](double x) { return std::sqrt(x); }, 0, 10, nullptr},
    {"rsqrt", [](double x) { return 1 / std::sqrt(x); }, 0.01, 10, nullptr},
    {"abs", [](double x) { return x < 0 ? -x : x; }, -5, 5,
     [](int64_t x) { return x < 0 ? -x : x; }},
    {"square", [](double x) { return x * x; }, -5, 5,
     [](int64_t x) { return x * x; }},
};

struct BinaryCase {
  const char *name;
  double (*apply)(double, double);
  double lhsLo, lhsHi, rhsLo, rhsHi;
  int64_t (*applyInt)(int64_t, int64_t);
};

/// max/min with NaN propagation, written without std::max.
double maxOf(double a, double b) {
  if (std::isnan(a) || std::isnan(b))
    return kNaN;
  return a > b ? a : b;
}
double minOf(double a, double b) {
  if (std::isnan(a) || std::isnan(b))
    return kNaN;
  return a < b ? a : b;
}

const BinaryCase kBinaryCases[] = {
    {"add", [](double a, double b) { return a + b; }, -5, 5, -5, 5,
     [](int64_t a, int64_t b) { return a + b; }},
    {"sub", [](double a, double b) { return a - b; }, -5, 5, -5, 5,
     [](int64_t a, int64_t b) { return a - b; }},
    {"mul", [](double a, double b) { return a * b; }, -5, 5, -5, 5,
     [](int64_t a, int64_t b) { return a * b; }},
    {"div", [](double a, double b) { return a / b; }, -5, 5, 0.25, 5, nullptr},
    {"max", maxOf, -5, 5, -5, 5,
     [](int64_t a, int64_t b) { return a > b ? a : b; }},
    {"min", minOf, -5, 5, -5, 5,
     [](int64_t a, int64_t b) { return a < b ? a : b; }},
    {"pow", [](double a, double b) { return std::pow(a, b); }, 0.1, 5, -3, 3,
     nullptr},
};

template <typename Case> struct ElementwiseParam {
  const Case *op;
  DType dtype;
};

/// Every case in f32 and f64, and in i32 where the op admits integers.
template <typename Case, size_t N>
std::vector<ElementwiseParam<Case>> allParams(const Case (&cases)[N]) {
  std::vector<ElementwiseParam<Case>> params;
  for (const Case &op : cases) {
    params.push_back({&op, DType::F32});
    params.push_back({&op, DType::F64});
    if (op.applyInt)
      params.push_back({&op, DType::I32});
  }
  return params;
}

template <typename Param>
std::string paramName(const testing::TestParamInfo<Param> &info) {
  return std::string(info.param.op->name) + "_" + dtypeName(info.param.dtype);
}

/// A random input: full-range integers for i32 (so that results overflow
/// and wrap), reals in [lo, hi) otherwise.
HostTensor randomInput(Random &random, DType dtype, const Shape &shape,
                       double lo, double hi) {
  if (dtype == DType::I32)
    return random.tensor(dtype, shape, kInt32Min, kInt32Max);
  return random.tensor(dtype, shape, lo, hi);
}

using UnaryTest = testing::TestWithParam<ElementwiseParam<UnaryCase>>;

TEST_P(UnaryTest, MatchesDefinitionOnRandomInputs) {
  const UnaryCase &op = *GetParam().op;
  DType dtype = GetParam().dtype;
  Random random(1234);
  for (int trial = 0; trial < 4; ++trial) {
    Shape shape = random.shape(random.integer(0, 3), 1, 5);
    HostTensor x = randomInput(random, dtype, shape, op.lo, op.hi);
    std::string type = tensorType(shape, dtype);
    HostTensor result = runOp(
        llvm::formatv("ens.{0} %a0 : {1}", op.name, type).str(), type, {x});
    std::vector<double> expected;
    for (double v : x.values)
      expected.push_back(dtype == DType::I32
                             ? double(wrapToInt32(op.applyInt(int64_t(v))))
                             : op.apply(v));
    expectTensor(result, dtype, shape, expected);
  }
}

INSTANTIATE_TEST_SUITE_P(Interpreter, UnaryTest,
                         testing::ValuesIn(allParams(kUnaryCases)),
                         paramName<ElementwiseParam<UnaryCase>>);

using BinaryTest = testing::TestWithParam<ElementwiseParam<BinaryCase>>;

TEST_P(BinaryTest, MatchesDefinitionOnRandomInputs) {
  const BinaryCase &op = *GetParam().op;
  DType dtype = GetParam().dtype;
  Random random(5678);
  for (int trial = 0; trial < 4; ++trial) {
    Shape shape = random.shape(random.integer(0, 3), 1, 5);
    HostTensor lhs = randomInput(random, dtype, shape, op.lhsLo, op.lhsHi);
    HostTensor rhs = randomInput(random, dtype, shape, op.rhsLo, op.rhsHi);
    std::string type = tensorType(shape, dtype);
    HostTensor result =
        runOp(llvm::formatv("ens.{0} %a0, %a1 : {1}", op.name, type).str(),
              type, {lhs, rhs});
    std::vector<double> expected;
    for (size_t i = 0; i < lhs.values.size(); ++i)
      expected.push_back(
          dtype == DType::I32
              ? double(wrapToInt32(op.applyInt(int64_t(lhs.values[i]),
                                               int64_t(rhs.values[i]))))
              : op.apply(lhs.values[i], rhs.values[i]));
    expectTensor(result, dtype, shape, expected);
  }
}

INSTANTIATE_TEST_SUITE_P(Interpreter, BinaryTest,
                         testing::ValuesIn(allParams(kBinaryCases)),
                         paramName<ElementwiseParam<BinaryCase>>);

//===----------------------------------------------------------------------===//
// Special values
//===----------------------------------------------------------------------===//

struct SpecialCase {
  const char *op;
  DType dtype;
  std::vector<double> lhs;
  /// Empty for unary ops.
  std::vector<double> rhs;
  std::vector<double> expected;
};

const SpecialCase kSpecialCases[] = {
    // Integer arithmetic wraps modulo 2^32.
    {"add",
     DType::I32,
     {kInt32Max, kInt32Min, kInt32Max},
     {1, -1, kInt32Max},
     {kInt32Min, kInt32Max, -2}},
    {"sub",
     DType::I32,
     {kInt32Min, kInt32Max, 0},
     {1, -1, kInt32Min},
     {kInt32Max, kInt32Min, kInt32Min}},
    {"mul",
     DType::I32,
     {65536, 46341, kInt32Min, kInt32Max, -3},
     {65536, 46341, -1, kInt32Max, 7},
     {0, -2147479015, kInt32Min, 1, -21}},
    {"neg", DType::I32, {kInt32Min, 5, 0}, {}, {kInt32Min, -5, 0}},
    {"abs", DType::I32, {kInt32Min, -7, 7}, {}, {kInt32Min, 7, 7}},
    {"square", DType::I32, {46341, 65536, -3}, {}, {-2147479015, 0, 9}},
    {"max", DType::I32, {3, kInt32Min}, {-4, kInt32Max}, {3, kInt32Max}},
    {"min", DType::I32, {3, kInt32Min}, {-4, kInt32Max}, {-4, kInt32Min}},
    // max and min propagate NaN from either side.
    {"max",
     DType::F32,
     {kNaN, 1, kNaN, -kInf},
     {1, kNaN, kNaN, 3},
     {kNaN, kNaN, kNaN, 3}},
    {"min",
     DType::F32,
     {kNaN, 1, kNaN, -kInf},
     {1, kNaN, kNaN, 3},
     {kNaN, kNaN, kNaN, -kInf}},
    {"max", DType::F64, {kNaN, 2}, {2, kNaN}, {kNaN, kNaN}},
    {"min", DType::F64, {kNaN, 2}, {2, kNaN}, {kNaN, kNaN}},
    {"relu", DType::F32, {kNaN, -3, 0, 2, -kInf}, {}, {kNaN, 0, 0, 2, 0}},
    // IEEE and C library edge cases.
    {"log", DType::F32, {0, -1, 1, kInf}, {}, {-kInf, kNaN, 0, kInf}},
    {"sqrt", DType::F32, {-1, 0, 4, kInf}, {}, {kNaN, 0, 2, kInf}},
    {"rsqrt", DType::F32, {0, 4, -1, kInf}, {}, {kInf, 0.5, kNaN, 0}},
    {"exp", DType::F32, {1000, -kInf, 0, 100}, {}, {kInf, 0, 1, kInf}},
    {"exp", DType::F64, {100, 1000}, {}, {std::exp(100.0), kInf}},
    {"sigmoid", DType::F32, {-1000, 1000, 0}, {}, {0, 1, 0.5}},
    {"tanh", DType::F64, {kInf, -kInf, 0}, {}, {1, -1, 0}},
    {"div", DType::F32, {1, -1, 0, 1}, {0, 0, 0, kInf}, {kInf, -kInf, kNaN, 0}},
    {"pow",
     DType::F32,
     {2, -2, -2, 0, 1},
     {10, 3, 0.5, 0, kNaN},
     {1024, -8, kNaN, 1, 1}},
    {"neg", DType::F32, {0, kInf, kNaN}, {}, {-0.0, -kInf, kNaN}},
    {"abs", DType::F32, {-0.0, -kInf}, {}, {0, kInf}},
    // Results are rounded to the element type once per op.
    {"add",
     DType::F32,
     {1, 16777216, 1},
     {0x1p-24, 1, 0x1.8p-23},
     {1, 16777216, 1 + 0x1p-22}},
    {"mul", DType::F32, {3e38, 0x1p-100}, {10, 0x1p-100}, {kInf, 0}},
    {"square", DType::F32, {1e20, 3}, {}, {kInf, 9}},
    {"add", DType::F64, {1, 1e300}, {0x1p-53, 1e300}, {1, 2e300}},
    {"sub", DType::F64, {1, 1e308}, {0x1p-54, -1e308}, {1, kInf}},
};

TEST(ElementwiseTest, SpecialValues) {
  for (const SpecialCase &c : kSpecialCases) {
    SCOPED_TRACE(std::string(c.op) + " " + dtypeName(c.dtype));
    Shape shape = {static_cast<int64_t>(c.lhs.size())};
    std::string type = tensorType(shape, c.dtype);
    std::vector<HostTensor> args = {HostTensor(c.dtype, shape, c.lhs)};
    std::string op = llvm::formatv("ens.{0} %a0 : {1}", c.op, type).str();
    if (!c.rhs.empty()) {
      args.push_back(HostTensor(c.dtype, shape, c.rhs));
      op = llvm::formatv("ens.{0} %a0, %a1 : {1}", c.op, type).str();
    }
    expectTensor(runOp(op, type, args), c.dtype, shape, c.expected,
                 Match::Exact);
  }
}

//===----------------------------------------------------------------------===//
// Comparisons
//===----------------------------------------------------------------------===//

const char *const kPredicates[] = {"lt", "le", "gt", "ge", "eq", "ne"};

/// The definition of ens.cmp: ordered predicates are false with a NaN
/// operand, `ne` is true.
bool compare(llvm::StringRef predicate, double a, double b) {
  if (std::isnan(a) || std::isnan(b))
    return predicate == "ne";
  if (predicate == "lt")
    return a < b;
  if (predicate == "le")
    return a < b || a == b;
  if (predicate == "gt")
    return b < a;
  if (predicate == "ge")
    return b < a || a == b;
  if (predicate == "eq")
    return a == b;
  return !(a == b);
}

class CompareTest : public testing::TestWithParam<DType> {};

TEST_P(CompareTest, AllPredicatesOnRandomInputs) {
  DType dtype = GetParam();
  // Draw from few values, so that equal operands are common.
  std::vector<double> pool = {-2, -1, 0, 1, 2, kInt32Max, kInt32Min};
  if (dtype != DType::I32)
    pool = {-2.5, -1, -0.0, 0, 0.5, 1, kInf, -kInf, kNaN};
  Random random(99);
  for (const char *predicate : kPredicates) {
    SCOPED_TRACE(predicate);
    Shape shape = random.shape(random.integer(1, 3), 2, 5);
    std::vector<double> lhs, rhs, expected;
    for (int64_t i = 0, e = numElements(shape); i < e; ++i) {
      lhs.push_back(pool[random.integer(0, pool.size() - 1)]);
      rhs.push_back(pool[random.integer(0, pool.size() - 1)]);
      expected.push_back(compare(predicate, lhs.back(), rhs.back()));
    }
    std::string type = tensorType(shape, dtype);
    HostTensor result = runOp(
        llvm::formatv("ens.cmp {0}, %a0, %a1 : {1}", predicate, type).str(),
        tensorType(shape, DType::I1),
        {HostTensor(dtype, shape, lhs), HostTensor(dtype, shape, rhs)});
    expectTensor(result, DType::I1, shape, expected);
  }
}

INSTANTIATE_TEST_SUITE_P(Interpreter, CompareTest,
                         testing::Values(DType::F32, DType::F64, DType::I32),
                         [](const testing::TestParamInfo<DType> &info) {
                           return dtypeName(info.param);
                         });

TEST(ElementwiseTest, CompareWithNaN) {
  // lhs: NaN, 1, NaN, -0; rhs: 1, NaN, NaN, +0.
  std::vector<double> lhs = {kNaN, 1, kNaN, -0.0};
  std::vector<double> rhs = {1, kNaN, kNaN, 0};
  struct {
    const char *predicate;
    std::vector<double> expected;
  } cases[] = {
      {"lt", {0, 0, 0, 0}}, {"le", {0, 0, 0, 1}}, {"gt", {0, 0, 0, 0}},
      {"ge", {0, 0, 0, 1}}, {"eq", {0, 0, 0, 1}}, {"ne", {1, 1, 1, 0}},
  };
  for (DType dtype : {DType::F32, DType::F64}) {
    for (const auto &c : cases) {
      SCOPED_TRACE(std::string(c.predicate) + " " + dtypeName(dtype));
      std::string type = tensorType({4}, dtype);
      HostTensor result = runOp(
          llvm::formatv("ens.cmp {0}, %a0, %a1 : {1}", c.predicate, type).str(),
          "tensor<4xi1>",
          {HostTensor(dtype, {4}, lhs), HostTensor(dtype, {4}, rhs)});
      expectTensor(result, DType::I1, {4}, c.expected);
    }
  }
}

//===----------------------------------------------------------------------===//
// Select
//===----------------------------------------------------------------------===//

class SelectTest : public testing::TestWithParam<DType> {};

TEST_P(SelectTest, PicksByMask) {
  DType dtype = GetParam();
  Random random(7);
  for (int trial = 0; trial < 4; ++trial) {
    Shape shape = random.shape(random.integer(0, 3), 1, 5);
    HostTensor cond = random.tensor(DType::I1, shape);
    HostTensor onTrue = randomInput(random, dtype, shape, -5, 5);
    HostTensor onFalse = randomInput(random, dtype, shape, -5, 5);
    std::string type = tensorType(shape, dtype);
    HostTensor result =
        runOp(llvm::formatv("ens.select %a0, %a1, %a2 : {0}, {1}",
                            tensorType(cond), type)
                  .str(),
              type, {cond, onTrue, onFalse});
    std::vector<double> expected;
    for (size_t i = 0; i < cond.values.size(); ++i)
      expected.push_back(cond.values[i] == 1 ? onTrue.values[i]
                                             : onFalse.values[i]);
    expectTensor(result, dtype, shape, expected, Match::Exact);
  }
}

INSTANTIATE_TEST_SUITE_P(Interpreter, SelectTest,
                         testing::Values(DType::F32, DType::F64, DType::I32,
                                         DType::I1),
                         [](const testing::TestParamInfo<DType> &info) {
                           return dtypeName(info.param);
                         });

//===----------------------------------------------------------------------===//
// Convert
//===----------------------------------------------------------------------===//

struct ConvertCase {
  DType from, to;
  std::vector<double> inputs, expected;
};

const ConvertCase kConvertCases[] = {
    // Float to integer truncates toward zero and saturates; NaN gives 0.
    {DType::F32,
     DType::I32,
     {2.7, -2.7, 0.5, -0.5, 3e9, -3e9, kNaN, kInf, -kInf, 2147483520.0,
      2147483648.0, kInt32Min, 1e10},
     {2, -2, 0, 0, kInt32Max, kInt32Min, 0, kInt32Max, kInt32Min, 2147483520.0,
      kInt32Max, kInt32Min, kInt32Max}},
    {DType::F64,
     DType::I32,
     {2147483647.9, -2147483648.9, 1e300, -0.99, -2147483649.0},
     {kInt32Max, kInt32Min, kInt32Max, 0, kInt32Min}},
    // Anything to i1 is `x != 0`; NaN is not zero.
    {DType::F32, DType::I1, {0, -0.0, 0.1, -3, kNaN, kInf}, {0, 0, 1, 1, 1, 1}},
    {DType::I32, DType::I1, {0, 5, -1, kInt32Min}, {0, 1, 1, 1}},
    {DType::I1, DType::F32, {1, 0}, {1, 0}},
    {DType::I1, DType::I32, {1, 0}, {1, 0}},
    {DType::I1, DType::F64, {0, 1}, {0, 1}},
    // Widening is exact, narrowing rounds to nearest even.
    {DType::F32, DType::F64, {0.1, -3.5, kInf}, {double(0.1f), -3.5, kInf}},
    {DType::F64,
     DType::F32,
     {0.1, 1 + 0x1p-24, 1 + 0x1.8p-23, 1e40, -1e40, 1e-50, kNaN},
     {double(0.1f), 1, 1 + 0x1p-22, kInf, -kInf, 0, kNaN}},
    {DType::I32,
     DType::F32,
     {16777217, kInt32Max, -7},
     {16777216, 2147483648.0, -7}},
    {DType::I32, DType::F64, {kInt32Max, kInt32Min}, {kInt32Max, kInt32Min}},
};

TEST(ConvertTest, SpecialValues) {
  for (const ConvertCase &c : kConvertCases) {
    SCOPED_TRACE(dtypeName(c.from) + " -> " + dtypeName(c.to));
    Shape shape = {static_cast<int64_t>(c.inputs.size())};
    HostTensor result =
        runOp(llvm::formatv("ens.convert %a0 : {0} -> {1}",
                            tensorType(shape, c.from), tensorType(shape, c.to))
                  .str(),
              tensorType(shape, c.to), {HostTensor(c.from, shape, c.inputs)});
    expectTensor(result, c.to, shape, c.expected, Match::Exact);
  }
}

TEST(ConvertTest, RandomFloatsToInt32Truncate) {
  Random random(11);
  for (DType from : {DType::F32, DType::F64}) {
    Shape shape = random.shape(2, 2, 6);
    HostTensor x = random.tensor(from, shape, -1e3, 1e3);
    std::vector<double> expected;
    for (double v : x.values)
      expected.push_back(v < 0 ? std::ceil(v) : std::floor(v));
    HostTensor result =
        runOp(llvm::formatv("ens.convert %a0 : {0} -> {1}", tensorType(x),
                            tensorType(shape, DType::I32))
                  .str(),
              tensorType(shape, DType::I32), {x});
    expectTensor(result, DType::I32, shape, expected);
  }
}

TEST(ConvertTest, RandomF64ToF32Rounds) {
  Random random(12);
  Shape shape = random.shape(3, 1, 5);
  HostTensor x = random.tensor(DType::F64, shape, -100, 100);
  // The expected values are rounded to f32 by expectTensor.
  HostTensor result =
      runOp(llvm::formatv("ens.convert %a0 : {0} -> {1}", tensorType(x),
                          tensorType(shape, DType::F32))
                .str(),
            tensorType(shape, DType::F32), {x});
  expectTensor(result, DType::F32, shape, x.values, Match::Exact);
}

//===----------------------------------------------------------------------===//
// Constants
//===----------------------------------------------------------------------===//

struct ConstantCase {
  const char *attr;
  DType dtype;
  Shape shape;
  std::vector<double> expected;
};

const ConstantCase kConstantCases[] = {
    {"dense<[[1.5, -2.0], [3.25, 4.0]]>",
     DType::F32,
     {2, 2},
     {1.5, -2, 3.25, 4}},
    {"dense<0.1>", DType::F32, {3}, {0.1, 0.1, 0.1}},
    {"dense<0.1>", DType::F64, {2, 2}, {0.1, 0.1, 0.1, 0.1}},
    {"dense<2.5>", DType::F32, {}, {2.5}},
    {"dense<[0x7F800000, 0xFF800000, 0x7FC00000]>",
     DType::F32,
     {3},
     {kInf, -kInf, kNaN}},
    {"dense<[1, -2, 2147483647, -2147483648]>",
     DType::I32,
     {4},
     {1, -2, kInt32Max, kInt32Min}},
    {"dense<-7>", DType::I32, {}, {-7}},
    {"dense<[[5], [6]]>", DType::I32, {2, 1}, {5, 6}},
    {"dense<[true, false, true]>", DType::I1, {3}, {1, 0, 1}},
    {"dense<true>", DType::I1, {2, 3}, {1, 1, 1, 1, 1, 1}},
    {"dense<false>", DType::I1, {}, {0}},
};

TEST(ConstantTest, Values) {
  for (const ConstantCase &c : kConstantCases) {
    std::string type = tensorType(c.shape, c.dtype);
    SCOPED_TRACE(std::string(c.attr) + " : " + type);
    HostTensor result = runOp(
        llvm::formatv("ens.constant {0} : {1}", c.attr, type).str(), type, {});
    expectTensor(result, c.dtype, c.shape, c.expected, Match::Exact);
  }
}

} // namespace
