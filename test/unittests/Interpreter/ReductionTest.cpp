//===- ReductionTest.cpp - Interpreter tests of reductions ----------------===//
//
// reduce_sum, reduce_max, reduce_mean, logsumexp, softmax and log_softmax.
// The expected values use the naive formulas evaluated in long double,
// whose range holds exp(1000): the interpreter must get the same answers
// with its stable formulations in double.
//
//===----------------------------------------------------------------------===//

#include "TestUtils.h"

#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <cmath>
#include <limits>

using namespace mlir::ens;
using namespace mlir::ens::test;

namespace {

/// The shape left after removing `dims` from `shape`.
Shape reducedShape(const Shape &shape, const Shape &dims) {
  Shape result;
  for (int64_t d = 0; d < static_cast<int64_t>(shape.size()); ++d)
    if (std::find(dims.begin(), dims.end(), d) == dims.end())
      result.push_back(shape[d]);
  return result;
}

/// The definition of each reduction, on one group of values.
double reduceGroup(llvm::StringRef op, DType dtype,
                   const std::vector<double> &group) {
  if (op == "reduce_max") {
    double max = dtype == DType::I32 ? kInt32Min : -kInf;
    for (double v : group) {
      if (std::isnan(v))
        return kNaN;
      max = v > max ? v : max;
    }
    return max;
  }
  if (dtype == DType::I32) {
    EXPECT_EQ(op, "reduce_sum");
    int64_t sum = 0;
    for (double v : group)
      sum = wrapToInt32(sum + static_cast<int64_t>(v));
    return sum;
  }
  long double sum = 0;
  for (double v : group)
    sum += op == "logsumexp" ? std::exp(static_cast<long double>(v)) : v;
  if (op == "reduce_sum")
    return sum;
  if (op == "reduce_mean")
    return sum / group.size();
  return std::log(sum);
}

/// Runs `op` over `dims` of `x` and checks every result element.
void checkReduce(llvm::StringRef op, const HostTensor &x, const Shape &dims,
                 Match match = Match::Close) {
  Shape shape(x.shape.begin(), x.shape.end());
  Shape resultShape = reducedShape(shape, dims);
  SCOPED_TRACE(op.str() + " " + tensorType(x) + " dims " + i64Array(dims));
  HostTensor result =
      runOp(llvm::formatv("ens.{0} %a0 {{dims = {1}} : {2} -> {3}", op,
                          i64Array(dims), tensorType(x),
                          tensorType(resultShape, x.dtype))
                .str(),
            tensorType(resultShape, x.dtype), {x});
  // Group the operand elements by the result element they reduce into.
  std::vector<std::vector<double>> groups(numElements(resultShape));
  for (int64_t i = 0, e = x.getNumElements(); i < e; ++i) {
    Shape index = unravel(i, shape);
    Shape kept;
    for (int64_t d = 0; d < static_cast<int64_t>(shape.size()); ++d)
      if (std::find(dims.begin(), dims.end(), d) == dims.end())
        kept.push_back(index[d]);
    groups[ravel(kept, resultShape)].push_back(x.values[i]);
  }
  std::vector<double> expected;
  for (const std::vector<double> &group : groups)
    expected.push_back(reduceGroup(op, x.dtype, group));
  expectTensor(result, x.dtype, resultShape, expected, match);
}

struct ReduceParam {
  const char *op;
  DType dtype;
};

class ReduceRandomTest : public testing::TestWithParam<ReduceParam> {};

TEST_P(ReduceRandomTest, RandomDimsInAnyOrder) {
  auto [op, dtype] = GetParam();
  Random random(31);
  for (int trial = 0; trial < 8; ++trial) {
    int64_t rank = random.integer(1, 4);
    Shape shape = random.shape(rank, 1, 4);
    // One or more dimensions, in random order; sometimes all of them.
    Shape dims = random.permutation(rank);
    dims.resize(trial % 4 == 0 ? rank : random.integer(1, rank));
    HostTensor x = dtype == DType::I32
                       ? random.tensor(dtype, shape, kInt32Min, kInt32Max)
                       : random.tensor(dtype, shape, -5, 5);
    checkReduce(op, x, dims);
  }
}

const ReduceParam kReduceParams[] = {
    {"reduce_sum", DType::F32},  {"reduce_sum", DType::F64},
    {"reduce_sum", DType::I32},  {"reduce_max", DType::F32},
    {"reduce_max", DType::F64},  {"reduce_max", DType::I32},
    {"reduce_mean", DType::F32}, {"reduce_mean", DType::F64},
    {"logsumexp", DType::F32},   {"logsumexp", DType::F64},
};

/// "reduce_sum_f32", ...
template <typename Param>
std::string opDTypeName(const testing::TestParamInfo<Param> &info) {
  return std::string(info.param.op) + "_" + dtypeName(info.param.dtype);
}

INSTANTIATE_TEST_SUITE_P(Interpreter, ReduceRandomTest,
                         testing::ValuesIn(kReduceParams),
                         opDTypeName<ReduceParam>);

struct SpecialReduceCase {
  const char *op;
  DType dtype;
  Shape shape, dims;
  std::vector<double> input;
};

// Wrap-around, NaN, infinities and values whose exponentials overflow a
// double; the expected values still come from reduceGroup.
const SpecialReduceCase kSpecialReduceCases[] = {
    // Integer sums wrap.
    {"reduce_sum", DType::I32, {3}, {0}, {kInt32Max, 1, 5}},
    {"reduce_sum",
     DType::I32,
     {2, 2},
     {1, 0},
     {kInt32Max, kInt32Max, kInt32Max, kInt32Max}},
    // A NaN anywhere in a group gives NaN.
    {"reduce_max", DType::F32, {2, 3}, {1}, {1, kNaN, 3, 4, 5, 6}},
    {"reduce_max", DType::F64, {3}, {0}, {kNaN, 1, 2}},
    {"reduce_max", DType::F32, {2}, {0}, {-kInf, -kInf}},
    {"reduce_max",
     DType::I32,
     {2, 2},
     {1},
     {kInt32Min, -5, kInt32Min, kInt32Min}},
    {"reduce_mean", DType::F32, {4}, {0}, {1, 2, 3, 4}},
    // logsumexp must not overflow or underflow.
    {"logsumexp", DType::F32, {2}, {0}, {1000, 1000}},
    {"logsumexp", DType::F64, {3}, {0}, {-1000, -1000, -1000}},
    {"logsumexp", DType::F64, {2, 2}, {1}, {1000, -1000, 0, 0}},
    {"logsumexp", DType::F32, {2}, {0}, {-kInf, -kInf}},
    {"logsumexp", DType::F32, {2}, {0}, {kInf, 1}},
    {"logsumexp", DType::F64, {2, 3}, {0, 1}, {500, 700, 710, 720, 1e4, 2}},
};

TEST(ReduceTest, SpecialValues) {
  for (const SpecialReduceCase &c : kSpecialReduceCases)
    checkReduce(c.op, HostTensor(c.dtype, c.shape, c.input), c.dims);
}

TEST(ReduceTest, ExplicitResults) {
  // Spot checks with the results written out, independent of reduceGroup.
  HostTensor sum =
      runOp("ens.reduce_sum %a0 {dims = array<i64: 0>} : "
            "tensor<3xi32> -> tensor<i32>",
            "tensor<i32>", {HostTensor(DType::I32, {3}, {kInt32Max, 1, 5})});
  expectTensor(sum, DType::I32, {}, {-2147483643});
  HostTensor lse =
      runOp("ens.logsumexp %a0 {dims = array<i64: 0>} : "
            "tensor<2xf32> -> tensor<f32>",
            "tensor<f32>", {HostTensor(DType::F32, {2}, {1000, 1000})});
  expectTensor(lse, DType::F32, {}, {1000 + std::log(2.0)});
  HostTensor max = runOp(
      "ens.reduce_max %a0 {dims = array<i64: 1>} : "
      "tensor<2x3xf32> -> tensor<2xf32>",
      "tensor<2xf32>", {HostTensor(DType::F32, {2, 3}, {1, kNaN, 3, 4, 5, 6})});
  expectTensor(max, DType::F32, {2}, {kNaN, 6});
}

//===----------------------------------------------------------------------===//
// softmax and log_softmax
//===----------------------------------------------------------------------===//

/// Runs softmax or log_softmax along `dim` and checks it against the naive
/// formula in long double.
void checkSoftmax(llvm::StringRef op, const HostTensor &x, int64_t dim) {
  SCOPED_TRACE(op.str() + " " + tensorType(x) + " dim " + std::to_string(dim));
  std::string type = tensorType(x);
  HostTensor result =
      runOp(llvm::formatv("ens.{0} %a0 {{dim = {1} : i64} : {2}", op, dim, type)
                .str(),
            type, {x});
  Shape shape(x.shape.begin(), x.shape.end());
  std::vector<double> expected;
  for (int64_t i = 0, e = x.getNumElements(); i < e; ++i) {
    Shape index = unravel(i, shape);
    long double sum = 0;
    for (int64_t j = 0; j < shape[dim]; ++j) {
      Shape other = index;
      other[dim] = j;
      sum += std::exp(static_cast<long double>(x.values[ravel(other, shape)]));
    }
    long double v = x.values[i];
    expected.push_back(op == "softmax" ? std::exp(v) / sum : v - std::log(sum));
  }
  expectTensor(result, x.dtype, shape, expected);
}

struct SoftmaxParam {
  const char *op;
  DType dtype;
};

class SoftmaxRandomTest : public testing::TestWithParam<SoftmaxParam> {};

TEST_P(SoftmaxRandomTest, RandomDims) {
  auto [op, dtype] = GetParam();
  Random random(41);
  for (int trial = 0; trial < 6; ++trial) {
    int64_t rank = random.integer(1, 4);
    Shape shape = random.shape(rank, 1, 5);
    checkSoftmax(op, random.tensor(dtype, shape, -5, 5),
                 random.integer(0, rank - 1));
  }
}

TEST_P(SoftmaxRandomTest, LargeValuesDoNotOverflow) {
  auto [op, dtype] = GetParam();
  Random random(42);
  for (double center : {1000.0, -1000.0}) {
    Shape shape = random.shape(2, 2, 5);
    checkSoftmax(op, random.tensor(dtype, shape, center - 10, center + 10),
                 random.integer(0, 1));
  }
  checkSoftmax(op, HostTensor(dtype, {2, 3}, {1000, 1000, -1000, 5, 5, 5}), 1);
}

const SoftmaxParam kSoftmaxParams[] = {
    {"softmax", DType::F32},
    {"softmax", DType::F64},
    {"log_softmax", DType::F32},
    {"log_softmax", DType::F64},
};

INSTANTIATE_TEST_SUITE_P(Interpreter, SoftmaxRandomTest,
                         testing::ValuesIn(kSoftmaxParams),
                         opDTypeName<SoftmaxParam>);

TEST(SoftmaxTest, ExplicitResults) {
  HostTensor x(DType::F32, {3}, {1000, 1000, -1000});
  expectTensor(runOp("ens.softmax %a0 {dim = 0 : i64} : tensor<3xf32>",
                     "tensor<3xf32>", {x}),
               DType::F32, {3}, {0.5, 0.5, 0});
  double log2 = std::log(2.0);
  expectTensor(runOp("ens.log_softmax %a0 {dim = 0 : i64} : tensor<3xf32>",
                     "tensor<3xf32>", {x}),
               DType::F32, {3}, {-log2, -log2, -2000 - log2});
}

} // namespace
