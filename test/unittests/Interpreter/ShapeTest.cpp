//===- ShapeTest.cpp - Interpreter tests of shape manipulation ------------===//
//
// broadcast_in_dim, reshape, transpose, slice, concat, take and one_hot on
// random shapes and element types. Every expected element is found by
// unravelling its result index and mapping it back to the operand by hand.
//
//===----------------------------------------------------------------------===//

#include "TestUtils.h"

#include "llvm/Support/FormatVariadic.h"

#include <algorithm>

using namespace mlir::ens;
using namespace mlir::ens::test;

namespace {

const DType kDTypes[] = {DType::F32, DType::F64, DType::I32, DType::I1};

DType randomDType(Random &random) { return kDTypes[random.integer(0, 3)]; }

/// A random tensor of any element type, values in [-100, 100].
HostTensor randomTensor(Random &random, const Shape &shape) {
  return random.tensor(randomDType(random), shape, -100, 100);
}

//===----------------------------------------------------------------------===//
// broadcast_in_dim
//===----------------------------------------------------------------------===//

/// Runs broadcast_in_dim and checks it against the definition: result
/// element `index` is operand element `i -> (size 1 ? 0 : index[dims[i]])`.
void checkBroadcast(const HostTensor &x, const Shape &dims,
                    const Shape &resultShape) {
  SCOPED_TRACE(tensorType(x) + " dims " + i64Array(dims) + " -> " +
               tensorType(resultShape, x.dtype));
  HostTensor result =
      runOp(llvm::formatv("ens.broadcast_in_dim %a0 {{dims = {0}} : {1} -> {2}",
                          i64Array(dims), tensorType(x),
                          tensorType(resultShape, x.dtype))
                .str(),
            tensorType(resultShape, x.dtype), {x});
  std::vector<double> expected;
  for (int64_t i = 0, e = numElements(resultShape); i < e; ++i) {
    Shape index = unravel(i, resultShape);
    Shape source(x.shape.size());
    for (size_t d = 0; d < dims.size(); ++d)
      source[d] = x.shape[d] == 1 ? 0 : index[dims[d]];
    expected.push_back(x.values[ravel(source, x.shape)]);
  }
  expectTensor(result, x.dtype, resultShape, expected, Match::Exact);
}

TEST(BroadcastInDimTest, ExpandsSizeOneAndPermutesDims) {
  // x[k, 0] lands at result[i, j, k]: dims are not monotonic and the size-1
  // operand dimension expands to 4.
  HostTensor x(DType::F32, {2, 1}, {10, 20});
  checkBroadcast(x, {2, 0}, {4, 3, 2});
  HostTensor scalar(DType::I32, {}, {-3});
  checkBroadcast(scalar, {}, {2, 3});
}

TEST(BroadcastInDimTest, RandomShapes) {
  Random random(21);
  for (int trial = 0; trial < 24; ++trial) {
    int64_t resultRank = random.integer(1, 4);
    Shape resultShape = random.shape(resultRank, 1, 4);
    // A random subset of the result dimensions, in random order.
    Shape dims = random.permutation(resultRank);
    dims.resize(random.integer(0, resultRank));
    Shape shape;
    for (int64_t d : dims)
      shape.push_back(random.coin(0.3) ? 1 : resultShape[d]);
    checkBroadcast(randomTensor(random, shape), dims, resultShape);
  }
}

//===----------------------------------------------------------------------===//
// reshape and transpose
//===----------------------------------------------------------------------===//

TEST(ReshapeTest, KeepsRowMajorOrder) {
  Random random(22);
  for (int trial = 0; trial < 12; ++trial) {
    Shape shape = random.shape(random.integer(0, 4), 1, 4);
    // Another shape of the same size: shuffle the sizes, merge neighbours
    // and sprinkle in ones.
    Shape newShape = shape;
    std::shuffle(newShape.begin(), newShape.end(), random.getEngine());
    for (size_t d = 0; d + 1 < newShape.size(); ++d)
      if (random.coin(0.3)) {
        newShape[d] *= newShape[d + 1];
        newShape.erase(newShape.begin() + d + 1);
      }
    if (random.coin())
      newShape.insert(newShape.begin() + random.integer(0, newShape.size()), 1);
    HostTensor x = randomTensor(random, shape);
    SCOPED_TRACE(tensorType(x) + " -> " + tensorType(newShape, x.dtype));
    HostTensor result =
        runOp(llvm::formatv("ens.reshape %a0 : {0} -> {1}", tensorType(x),
                            tensorType(newShape, x.dtype))
                  .str(),
              tensorType(newShape, x.dtype), {x});
    expectTensor(result, x.dtype, newShape, x.values, Match::Exact);
  }
}

TEST(TransposeTest, RandomPermutations) {
  Random random(23);
  for (int trial = 0; trial < 16; ++trial) {
    int64_t rank = random.integer(3, 4);
    Shape shape = random.shape(rank, 1, 4);
    Shape permutation = random.permutation(rank);
    HostTensor x = randomTensor(random, shape);
    Shape resultShape;
    for (int64_t d : permutation)
      resultShape.push_back(shape[d]);
    SCOPED_TRACE(tensorType(x) + " permutation " + i64Array(permutation));
    HostTensor result = runOp(
        llvm::formatv("ens.transpose %a0 {{permutation = {0}} : {1} -> {2}",
                      i64Array(permutation), tensorType(x),
                      tensorType(resultShape, x.dtype))
            .str(),
        tensorType(resultShape, x.dtype), {x});
    // result[i0, i1, ...] = x[j] with j[permutation[k]] = i[k].
    std::vector<double> expected;
    for (int64_t i = 0, e = numElements(resultShape); i < e; ++i) {
      Shape index = unravel(i, resultShape);
      Shape source(rank);
      for (int64_t k = 0; k < rank; ++k)
        source[permutation[k]] = index[k];
      expected.push_back(x.values[ravel(source, shape)]);
    }
    expectTensor(result, x.dtype, resultShape, expected, Match::Exact);
  }
}

//===----------------------------------------------------------------------===//
// slice and concat
//===----------------------------------------------------------------------===//

TEST(SliceTest, RandomBoxesWithStrides) {
  Random random(24);
  for (int trial = 0; trial < 16; ++trial) {
    int64_t rank = random.integer(1, 4);
    Shape shape = random.shape(rank, 1, 7);
    Shape start, limit, stride, resultShape;
    for (int64_t d = 0; d < rank; ++d) {
      start.push_back(random.integer(0, shape[d] - 1));
      limit.push_back(random.integer(start[d] + 1, shape[d]));
      stride.push_back(random.integer(1, 3));
      // The number of indices start, start + stride, ... below limit.
      int64_t count = 0;
      for (int64_t i = start[d]; i < limit[d]; i += stride[d])
        ++count;
      resultShape.push_back(count);
    }
    HostTensor x = randomTensor(random, shape);
    SCOPED_TRACE(tensorType(x) + " start " + i64Array(start) + " limit " +
                 i64Array(limit) + " stride " + i64Array(stride));
    HostTensor result = runOp(
        llvm::formatv("ens.slice %a0 {{start = {0}, limit = {1}, stride = {2}} "
                      ": {3} -> {4}",
                      i64Array(start), i64Array(limit), i64Array(stride),
                      tensorType(x), tensorType(resultShape, x.dtype))
            .str(),
        tensorType(resultShape, x.dtype), {x});
    std::vector<double> expected;
    for (int64_t i = 0, e = numElements(resultShape); i < e; ++i) {
      Shape index = unravel(i, resultShape);
      for (int64_t d = 0; d < rank; ++d)
        index[d] = start[d] + index[d] * stride[d];
      expected.push_back(x.values[ravel(index, shape)]);
    }
    expectTensor(result, x.dtype, resultShape, expected, Match::Exact);
  }
}

TEST(ConcatTest, ThreeInputsAlongEachDim) {
  Random random(25);
  for (int64_t dim : {1, 0, 2}) {
    Shape base = random.shape(3, 1, 4);
    DType dtype = randomDType(random);
    std::vector<HostTensor> inputs;
    Shape resultShape = base;
    resultShape[dim] = 0;
    for (int i = 0; i < 3; ++i) {
      Shape shape = base;
      shape[dim] = random.integer(1, 3);
      resultShape[dim] += shape[dim];
      inputs.push_back(random.tensor(dtype, shape, -100, 100));
    }
    std::string types = tensorType(inputs[0]) + ", " + tensorType(inputs[1]) +
                        ", " + tensorType(inputs[2]);
    SCOPED_TRACE(types + " dim " + std::to_string(dim));
    HostTensor result =
        runOp(llvm::formatv(
                  "ens.concat %a0, %a1, %a2 {{dim = {0} : i64} : {1} -> {2}",
                  dim, types, tensorType(resultShape, dtype))
                  .str(),
              tensorType(resultShape, dtype), inputs);
    // Walk the inputs until the index along `dim` falls inside one.
    std::vector<double> expected;
    for (int64_t i = 0, e = numElements(resultShape); i < e; ++i) {
      Shape index = unravel(i, resultShape);
      for (const HostTensor &input : inputs) {
        if (index[dim] < input.shape[dim]) {
          expected.push_back(input.values[ravel(index, input.shape)]);
          break;
        }
        index[dim] -= input.shape[dim];
      }
    }
    expectTensor(result, dtype, resultShape, expected, Match::Exact);
  }
}

//===----------------------------------------------------------------------===//
// take and one_hot
//===----------------------------------------------------------------------===//

TEST(TakeTest, EveryAxisWithMultiDimIndicesAndClamping) {
  Random random(26);
  for (int trial = 0; trial < 4; ++trial) {
    for (int64_t axis : {0, 1, 2}) {
      Shape tableShape = random.shape(3, 2, 4);
      HostTensor table = randomTensor(random, tableShape);
      // Indices run past both ends of the axis, to be clamped.
      int64_t size = tableShape[axis];
      HostTensor indices = random.tensor(
          DType::I32, random.shape(random.integer(0, 2), 1, 3), -3, size + 2);
      int64_t indexRank = indices.shape.size();
      Shape resultShape(tableShape.begin(), tableShape.begin() + axis);
      resultShape.insert(resultShape.end(), indices.shape.begin(),
                         indices.shape.end());
      resultShape.insert(resultShape.end(), tableShape.begin() + axis + 1,
                         tableShape.end());
      SCOPED_TRACE(tensorType(table) + ", " + tensorType(indices) + " axis " +
                   std::to_string(axis));
      HostTensor result =
          runOp(llvm::formatv(
                    "ens.take %a0, %a1 {{axis = {0} : i64} : {1}, {2} -> {3}",
                    axis, tensorType(table), tensorType(indices),
                    tensorType(resultShape, table.dtype))
                    .str(),
                tensorType(resultShape, table.dtype), {table, indices});
      std::vector<double> expected;
      for (int64_t i = 0, e = numElements(resultShape); i < e; ++i) {
        Shape index = unravel(i, resultShape);
        Shape position(index.begin() + axis, index.begin() + axis + indexRank);
        int64_t row = indices.values[ravel(position, indices.shape)];
        row = row < 0 ? 0 : row >= size ? size - 1 : row;
        Shape source(index.begin(), index.begin() + axis);
        source.push_back(row);
        source.insert(source.end(), index.begin() + axis + indexRank,
                      index.end());
        expected.push_back(table.values[ravel(source, tableShape)]);
      }
      expectTensor(result, table.dtype, resultShape, expected, Match::Exact);
    }
  }
}

TEST(TakeTest, EmbeddingLookup) {
  // table[3x2] rows 0..2, ids [[2, 0], [-1, 7]]: -1 clamps to row 0 and 7
  // to row 2.
  HostTensor table(DType::F32, {3, 2}, {0, 1, 10, 11, 20, 21});
  HostTensor ids(DType::I32, {2, 2}, {2, 0, -1, 7});
  HostTensor result = runOp("ens.take %a0, %a1 {axis = 0 : i64} : "
                            "tensor<3x2xf32>, tensor<2x2xi32> -> "
                            "tensor<2x2x2xf32>",
                            "tensor<2x2x2xf32>", {table, ids});
  expectTensor(result, DType::F32, {2, 2, 2}, {20, 21, 0, 1, 0, 1, 20, 21},
               Match::Exact);
}

TEST(OneHotTest, OutOfRangeGivesZeroRow) {
  Random random(27);
  for (DType dtype : {DType::F32, DType::F64, DType::I32}) {
    for (int64_t indexRank : {0, 1, 2}) {
      int64_t depth = random.integer(1, 5);
      HostTensor indices = random.tensor(
          DType::I32, random.shape(indexRank, 1, 4), -2, depth + 1);
      Shape resultShape(indices.shape.begin(), indices.shape.end());
      resultShape.push_back(depth);
      SCOPED_TRACE(tensorType(indices) + " -> " +
                   tensorType(resultShape, dtype));
      HostTensor result = runOp(llvm::formatv("ens.one_hot %a0 : {0} -> {1}",
                                              tensorType(indices),
                                              tensorType(resultShape, dtype))
                                    .str(),
                                tensorType(resultShape, dtype), {indices});
      std::vector<double> expected;
      for (double index : indices.values)
        for (int64_t j = 0; j < depth; ++j)
          expected.push_back(index == j ? 1 : 0);
      expectTensor(result, dtype, resultShape, expected, Match::Exact);
    }
  }
}

} // namespace
