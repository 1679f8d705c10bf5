//===- ContractionTest.cpp - Interpreter tests of contractions ------------===//
//
// Every contraction is checked against naive loops: einsum against a loop
// over every assignment of its labels (and two specs against hand-written
// nested loops), tensordot against a loop over result and contracted
// indices, matmul against numpy's rules spelled out. Integer contractions
// use full-range operands, so that products and sums wrap.
//
//===----------------------------------------------------------------------===//

#include "TestUtils.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <map>

using namespace mlir::ens;
using namespace mlir::ens::test;

namespace {

const DType kNumericDTypes[] = {DType::F32, DType::F64, DType::I32};

/// Random operands: reals in [-2, 2), or full-range integers.
HostTensor randomOperand(Random &random, DType dtype, const Shape &shape) {
  if (dtype == DType::I32)
    return random.tensor(dtype, shape, -2147483648.0, 2147483647.0);
  return random.tensor(dtype, shape, -2, 2);
}

/// Sums products of doubles, or of integers modulo 2^64 (and so modulo
/// 2^32 once wrapped).
class Sum {
public:
  explicit Sum(DType dtype) : integer(dtype == DType::I32) {}
  void addProduct(double a, double b) {
    if (integer)
      intSum += static_cast<uint64_t>(static_cast<int64_t>(a)) *
                static_cast<uint64_t>(static_cast<int64_t>(b));
    else
      floatSum += a * b;
  }
  double get() const {
    return integer ? wrapToInt32(static_cast<int64_t>(intSum & 0xFFFFFFFFu))
                   : floatSum;
  }

private:
  bool integer;
  double floatSum = 0;
  uint64_t intSum = 0;
};

//===----------------------------------------------------------------------===//
// einsum
//===----------------------------------------------------------------------===//

struct ParsedSpec {
  std::string lhs, rhs, out;
};

ParsedSpec parseSpec(llvm::StringRef spec) {
  auto [inputs, out] = spec.split("->");
  auto [lhs, rhs] = inputs.split(',');
  return {lhs.str(), rhs.str(), out.str()};
}

Shape shapeOf(const std::string &labels, std::map<char, int64_t> &sizes) {
  Shape shape;
  for (char c : labels)
    shape.push_back(sizes[c]);
  return shape;
}

/// einsum by definition: visits every assignment of values to all labels
/// and adds lhs * rhs into the output element the assignment names.
std::vector<double> naiveEinsum(const ParsedSpec &spec, const HostTensor &lhs,
                                const HostTensor &rhs,
                                std::map<char, int64_t> &sizes) {
  std::string labels;
  for (char c : spec.lhs + spec.rhs)
    if (labels.find(c) == std::string::npos)
      labels += c;
  Shape labelSizes = shapeOf(labels, sizes);
  Shape outShape = shapeOf(spec.out, sizes);
  std::vector<Sum> sums(numElements(outShape), Sum(lhs.dtype));
  for (int64_t i = 0, e = numElements(labelSizes); i < e; ++i) {
    Shape assignment = unravel(i, labelSizes);
    auto indexFor = [&](const std::string &operandLabels) {
      Shape index;
      for (char c : operandLabels)
        index.push_back(assignment[labels.find(c)]);
      return index;
    };
    sums[ravel(indexFor(spec.out), outShape)].addProduct(
        lhs.values[ravel(indexFor(spec.lhs), lhs.shape)],
        rhs.values[ravel(indexFor(spec.rhs), rhs.shape)]);
  }
  std::vector<double> result;
  for (const Sum &sum : sums)
    result.push_back(sum.get());
  return result;
}

HostTensor runEinsum(llvm::StringRef spec, const HostTensor &lhs,
                     const HostTensor &rhs, const Shape &outShape) {
  std::string outType = tensorType(outShape, lhs.dtype);
  return runOp(llvm::formatv("ens.einsum %a0, %a1 {{spec = \"{0}\"} : {1}, "
                             "{2} -> {3}",
                             spec, tensorType(lhs), tensorType(rhs), outType)
                   .str(),
               outType, {lhs, rhs});
}

const char *const kEinsumSpecs[] = {
    "kbi,ij->jbk",  // output labels in an order of neither operand
    "ij,jk->ki",    // transposed matrix product
    "ij,jk->ik",    // matrix product
    "bi,ih->bh",    // the example's linear layer
    "i,j->ij",      // outer product
    "ab,cd->dacb",  // permuted outer product
    "bij,bjk->bik", // batch label in both operands
    "ij,k->k",      // labels summed that appear in one operand only
    "abc,bcd->ad",  // contraction over several labels
    "abcd,dcb->a",  // contraction over labels in reverse order
    "ij,ij->",      // full contraction to rank 0
    "ij,ji->",      // trace of a product
    "i,i->i",       // elementwise product: shared, but not summed
    "bi,b->ib",     // shared label kept, other summed
};

struct EinsumParam {
  const char *spec;
  DType dtype;
};

class EinsumSpecTest : public testing::TestWithParam<EinsumParam> {};

TEST_P(EinsumSpecTest, MatchesNaiveLoops) {
  auto [specText, dtype] = GetParam();
  ParsedSpec spec = parseSpec(specText);
  Random random(51);
  for (int trial = 0; trial < 3; ++trial) {
    std::map<char, int64_t> sizes;
    for (char c : spec.lhs + spec.rhs)
      if (!sizes.count(c))
        sizes[c] = random.integer(1, 4);
    HostTensor lhs = randomOperand(random, dtype, shapeOf(spec.lhs, sizes));
    HostTensor rhs = randomOperand(random, dtype, shapeOf(spec.rhs, sizes));
    Shape outShape = shapeOf(spec.out, sizes);
    SCOPED_TRACE(tensorType(lhs) + ", " + tensorType(rhs));
    expectTensor(runEinsum(specText, lhs, rhs, outShape), dtype, outShape,
                 naiveEinsum(spec, lhs, rhs, sizes));
  }
}

std::vector<EinsumParam> einsumParams() {
  std::vector<EinsumParam> params;
  for (const char *spec : kEinsumSpecs)
    for (DType dtype : kNumericDTypes)
      params.push_back({spec, dtype});
  return params;
}

/// "kbi,ij->jbk" in f32 is named "kbi_ij_to_jbk_f32".
std::string einsumParamName(const testing::TestParamInfo<EinsumParam> &info) {
  std::string name;
  for (char c : llvm::StringRef(info.param.spec)) {
    if (c == ',')
      name += "_";
    else if (c == '-')
      name += "_to_";
    else if (c != '>')
      name += c;
  }
  return name + "_" + dtypeName(info.param.dtype);
}

INSTANTIATE_TEST_SUITE_P(Interpreter, EinsumSpecTest,
                         testing::ValuesIn(einsumParams()), einsumParamName);

TEST(EinsumTest, HandWrittenLoops) {
  Random random(52);
  // "kbi,ij->jbk": out[j][b][k] = sum_i lhs[k][b][i] * rhs[i][j].
  {
    int64_t K = 2, B = 3, I = 4, J = 5;
    HostTensor lhs = random.tensor(DType::F32, {K, B, I});
    HostTensor rhs = random.tensor(DType::F32, {I, J});
    std::vector<double> expected;
    for (int64_t j = 0; j < J; ++j)
      for (int64_t b = 0; b < B; ++b)
        for (int64_t k = 0; k < K; ++k) {
          double sum = 0;
          for (int64_t i = 0; i < I; ++i)
            sum += lhs.values[(k * B + b) * I + i] * rhs.values[i * J + j];
          expected.push_back(sum);
        }
    expectTensor(runEinsum("kbi,ij->jbk", lhs, rhs, {J, B, K}), DType::F32,
                 {J, B, K}, expected);
  }
  // "ij,jk->ki": out[k][i] = sum_j lhs[i][j] * rhs[j][k].
  {
    int64_t I = 3, J = 4, K = 2;
    HostTensor lhs = random.tensor(DType::F64, {I, J});
    HostTensor rhs = random.tensor(DType::F64, {J, K});
    std::vector<double> expected;
    for (int64_t k = 0; k < K; ++k)
      for (int64_t i = 0; i < I; ++i) {
        double sum = 0;
        for (int64_t j = 0; j < J; ++j)
          sum += lhs.values[i * J + j] * rhs.values[j * K + k];
        expected.push_back(sum);
      }
    expectTensor(runEinsum("ij,jk->ki", lhs, rhs, {K, I}), DType::F64, {K, I},
                 expected);
  }
}

//===----------------------------------------------------------------------===//
// tensordot
//===----------------------------------------------------------------------===//

HostTensor runTensordot(const HostTensor &lhs, const HostTensor &rhs,
                        const Shape &lhsDims, const Shape &rhsDims,
                        const Shape &resultShape) {
  std::string resultType = tensorType(resultShape, lhs.dtype);
  return runOp(
      llvm::formatv("ens.tensordot %a0, %a1 {{lhs_dims = {0}, rhs_dims = {1}} "
                    ": {2}, {3} -> {4}",
                    i64Array(lhsDims), i64Array(rhsDims), tensorType(lhs),
                    tensorType(rhs), resultType)
          .str(),
      resultType, {lhs, rhs});
}

/// numpy.tensordot by definition: result dimensions are the free lhs
/// dimensions then the free rhs dimensions; lhsDims[k] pairs with rhsDims[k].
std::vector<double> naiveTensordot(const HostTensor &lhs, const HostTensor &rhs,
                                   const Shape &lhsDims, const Shape &rhsDims,
                                   Shape &resultShape) {
  auto isIn = [](const Shape &dims, int64_t d) {
    return std::find(dims.begin(), dims.end(), d) != dims.end();
  };
  Shape lhsFree, rhsFree, contracted;
  for (int64_t d = 0; d < lhs.getRank(); ++d)
    if (!isIn(lhsDims, d))
      lhsFree.push_back(d);
  for (int64_t d = 0; d < rhs.getRank(); ++d)
    if (!isIn(rhsDims, d))
      rhsFree.push_back(d);
  resultShape.clear();
  for (int64_t d : lhsFree)
    resultShape.push_back(lhs.shape[d]);
  for (int64_t d : rhsFree)
    resultShape.push_back(rhs.shape[d]);
  for (int64_t d : lhsDims)
    contracted.push_back(lhs.shape[d]);

  std::vector<double> result;
  for (int64_t i = 0, e = numElements(resultShape); i < e; ++i) {
    Shape index = unravel(i, resultShape);
    Shape l(lhs.getRank()), r(rhs.getRank());
    for (size_t k = 0; k < lhsFree.size(); ++k)
      l[lhsFree[k]] = index[k];
    for (size_t k = 0; k < rhsFree.size(); ++k)
      r[rhsFree[k]] = index[lhsFree.size() + k];
    Sum sum(lhs.dtype);
    for (int64_t c = 0, ce = numElements(contracted); c < ce; ++c) {
      Shape pair = unravel(c, contracted);
      for (size_t k = 0; k < pair.size(); ++k) {
        l[lhsDims[k]] = pair[k];
        r[rhsDims[k]] = pair[k];
      }
      sum.addProduct(lhs.values[ravel(l, lhs.shape)],
                     rhs.values[ravel(r, rhs.shape)]);
    }
    result.push_back(sum.get());
  }
  return result;
}

struct TensordotCase {
  int64_t lhsRank, rhsRank;
  Shape lhsDims, rhsDims;
};

const TensordotCase kTensordotCases[] = {
    {3, 3, {2, 0}, {0, 1}},       // pairs in non-monotonic order
    {2, 2, {1}, {0}},             // matrix product
    {3, 3, {1, 2}, {1, 0}},       // several dims, rhs reversed
    {2, 1, {}, {}},               // no contraction: outer product
    {3, 3, {0, 1, 2}, {0, 1, 2}}, // full contraction to rank 0
    {3, 2, {1}, {1}},             // middle of lhs with last of rhs
    {4, 3, {3, 1}, {0, 2}},
    {2, 3, {0, 1}, {0, 1}}, // the shape of the spec's example
};

class TensordotCaseTest : public testing::TestWithParam<DType> {};

TEST_P(TensordotCaseTest, MatchesNaiveLoops) {
  DType dtype = GetParam();
  Random random(61);
  for (const TensordotCase &c : kTensordotCases) {
    Shape lhsShape = random.shape(c.lhsRank, 1, 4);
    Shape rhsShape = random.shape(c.rhsRank, 1, 4);
    for (size_t k = 0; k < c.lhsDims.size(); ++k)
      rhsShape[c.rhsDims[k]] = lhsShape[c.lhsDims[k]];
    HostTensor lhs = randomOperand(random, dtype, lhsShape);
    HostTensor rhs = randomOperand(random, dtype, rhsShape);
    SCOPED_TRACE(tensorType(lhs) + ", " + tensorType(rhs) + " lhs_dims " +
                 i64Array(c.lhsDims) + " rhs_dims " + i64Array(c.rhsDims));
    Shape resultShape;
    std::vector<double> expected =
        naiveTensordot(lhs, rhs, c.lhsDims, c.rhsDims, resultShape);
    expectTensor(runTensordot(lhs, rhs, c.lhsDims, c.rhsDims, resultShape),
                 dtype, resultShape, expected);
  }
}

INSTANTIATE_TEST_SUITE_P(Interpreter, TensordotCaseTest,
                         testing::ValuesIn(kNumericDTypes),
                         [](const testing::TestParamInfo<DType> &info) {
                           return dtypeName(info.param);
                         });

TEST(TensordotTest, SpecExample) {
  // x = arange(6).reshape(3, 2) / 4, W = linspace(-1, 1, 6).reshape(3, 2, 1):
  // tensordot(x, W, axes=([0, 1], [0, 1])) = sum x * W = 1.75.
  HostTensor x(DType::F32, {3, 2}, {0, 0.25, 0.5, 0.75, 1, 1.25});
  HostTensor w(DType::F32, {3, 2, 1}, {-1, -0.6, -0.2, 0.2, 0.6, 1});
  expectTensor(runTensordot(x, w, {0, 1}, {0, 1}, {1}), DType::F32, {1},
               {1.75});
}

//===----------------------------------------------------------------------===//
// matmul
//===----------------------------------------------------------------------===//

/// numpy.matmul by definition: a rank-1 lhs is a row, a rank-1 rhs a
/// column, and batch dimensions broadcast right-aligned.
std::vector<double> naiveMatmul(const HostTensor &lhs, const HostTensor &rhs) {
  Shape l(lhs.shape.begin(), lhs.shape.end());
  Shape r(rhs.shape.begin(), rhs.shape.end());
  if (l.size() == 1)
    l.insert(l.begin(), 1);
  if (r.size() == 1)
    r.push_back(1);
  int64_t m = l[l.size() - 2], k = l.back(), n = r.back();
  Shape lBatch(l.begin(), l.end() - 2), rBatch(r.begin(), r.end() - 2);
  size_t rank = std::max(lBatch.size(), rBatch.size());
  // Left-pad both batch shapes with ones, then broadcast.
  lBatch.insert(lBatch.begin(), rank - lBatch.size(), 1);
  rBatch.insert(rBatch.begin(), rank - rBatch.size(), 1);
  Shape batch;
  for (size_t d = 0; d < rank; ++d)
    batch.push_back(std::max(lBatch[d], rBatch[d]));

  std::vector<double> result;
  for (int64_t b = 0, be = numElements(batch); b < be; ++b) {
    Shape index = unravel(b, batch);
    Shape lIndex, rIndex;
    for (size_t d = 0; d < rank; ++d) {
      lIndex.push_back(lBatch[d] == 1 ? 0 : index[d]);
      rIndex.push_back(rBatch[d] == 1 ? 0 : index[d]);
    }
    // Offsets of the (m, k) and (k, n) matrices of this batch element.
    int64_t lBase = ravel(lIndex, lBatch) * m * k;
    int64_t rBase = ravel(rIndex, rBatch) * k * n;
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j) {
        Sum sum(lhs.dtype);
        for (int64_t p = 0; p < k; ++p)
          sum.addProduct(lhs.values[lBase + i * k + p],
                         rhs.values[rBase + p * n + j]);
        result.push_back(sum.get());
      }
  }
  return result;
}

struct MatmulCase {
  Shape lhs, rhs, result;
};

const MatmulCase kMatmulCases[] = {
    {{3, 4}, {4, 5}, {3, 5}},
    {{4}, {4, 5}, {5}}, // vector @ matrix
    {{3, 4}, {4}, {3}}, // matrix @ vector
    {{4}, {4}, {}},     // vector @ vector -> rank 0
    {{2, 1, 3, 4}, {5, 4, 2}, {2, 5, 3, 2}},
    {{2, 3, 4}, {4, 5}, {2, 3, 5}},
    {{3, 4}, {2, 4, 5}, {2, 3, 5}},
    {{5}, {2, 5, 3}, {2, 3}},
    {{2, 3, 4}, {4}, {2, 3}},
    {{1, 3, 4}, {2, 4, 6}, {2, 3, 6}},
    {{2, 2, 1, 3}, {2, 1, 3, 2}, {2, 2, 1, 2}},
    // Batch ranks differ: batch dimensions align on the right.
    {{5, 3, 4}, {2, 1, 4, 6}, {2, 5, 3, 6}},
    {{3, 1, 2, 4}, {5, 4, 3}, {3, 5, 2, 3}},
};

class MatmulCaseTest : public testing::TestWithParam<DType> {};

TEST_P(MatmulCaseTest, MatchesNumpyRules) {
  DType dtype = GetParam();
  Random random(71);
  for (const MatmulCase &c : kMatmulCases) {
    HostTensor lhs = randomOperand(random, dtype, c.lhs);
    HostTensor rhs = randomOperand(random, dtype, c.rhs);
    std::string resultType = tensorType(c.result, dtype);
    SCOPED_TRACE(tensorType(lhs) + " @ " + tensorType(rhs));
    HostTensor result =
        runOp(llvm::formatv("ens.matmul %a0, %a1 : {0}, {1} -> {2}",
                            tensorType(lhs), tensorType(rhs), resultType)
                  .str(),
              resultType, {lhs, rhs});
    expectTensor(result, dtype, c.result, naiveMatmul(lhs, rhs));
  }
}

INSTANTIATE_TEST_SUITE_P(Interpreter, MatmulCaseTest,
                         testing::ValuesIn(kNumericDTypes),
                         [](const testing::TestParamInfo<DType> &info) {
                           return dtypeName(info.param);
                         });

} // namespace
