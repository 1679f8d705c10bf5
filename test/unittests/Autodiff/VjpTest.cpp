//===- VjpTest.cpp - Every VJP rule against central differences -----------===//
//
// For each differentiable op, a loss `reduce_sum(op(inputs...) * W)` with a
// fixed random weight W (so every output element reaches the loss) is
// differentiated by ens-autodiff and interpreted; every gradient element
// must match a central difference of the loss, computed in f64 by
// interpreting the loss itself. Shapes, attributes and values are drawn at
// random, several seeds per op, with values kept away from kinks, ties and
// poles. The rules emit ens ops, so the same programs also check second
// derivatives: the gradient of a random linear function of the gradient.
//
//===----------------------------------------------------------------------===//

#include "AutodiffTestUtils.h"

#include "ens/Backend/CpuBackend.h"
#include "ens/Interpreter/Interpreter.h"

#include "llvm/Support/FormatVariadic.h"

#include <cmath>
#include <functional>
#include <map>

using namespace mlir::ens;
using namespace mlir::ens::test;
using llvm::formatv;

namespace {

/// One program to differentiate: its inputs (float ones are differentiated,
/// i32 ones are indices), the body defining `%r` from `%a0, %a1, ...`, and
/// `%r`'s shape.
struct Instance {
  std::vector<HostTensor> inputs;
  std::string body;
  Shape resultShape;
  /// Functions the body calls.
  std::string helpers;
  /// A fixed finite-difference step, or 0 for 1e-6 * max(1, |x|).
  double step = 0;
  /// Whether gradients pass through f32, so that the gradient (unlike the
  /// loss at the chosen points) is rounded and has no useful derivative.
  bool roundsGradients = false;
};

using Generator = std::function<Instance(Random &)>;

struct OpCase {
  std::string name;
  Generator generate;
};

void PrintTo(const OpCase &opCase, std::ostream *os) { *os << opCase.name; }

constexpr int kSeeds = 10;
constexpr double kTolerance = 1e-6;

std::string typeOf(const Shape &shape) { return tensorType(shape); }

Shape iota(int64_t n) {
  Shape result;
  for (int64_t i = 0; i < n; ++i)
    result.push_back(i);
  return result;
}

/// `@f`, the loss, and `@main`, its value and gradient w.r.t. every float
/// argument, listed in `wrt`. With `secondOrder`, `@f` is instead a random
/// linear function of the value and gradient of that loss, so `@main`
/// differentiates the op's VJP rule itself.
std::string buildProgram(const Instance &instance, Random &random,
                         bool secondOrder, Shape &wrt) {
  std::string args, argTypes, argNames, gradTypes;
  for (auto [i, input] : llvm::enumerate(instance.inputs)) {
    std::string sep = i ? ", " : "";
    args += formatv("{0}%a{1}: {2}", sep, i, tensorType(input)).str();
    argTypes += sep + tensorType(input);
    argNames += formatv("{0}%a{1}", sep, i).str();
    if (isFloatDType(input.dtype)) {
      wrt.push_back(i);
      gradTypes += ", " + tensorType(input);
    }
  }
  std::string resultType = typeOf(instance.resultShape);
  std::string results = "%v#0";
  for (size_t k = 0; k < wrt.size(); ++k)
    results += formatv(", %v#{0}", k + 1).str();
  // The same value_and_grad of `callee` serves @main and, for the second
  // order, @f.
  auto valueAndGrad = [&](llvm::StringRef callee) {
    return formatv("  %v:{0} = ens.value_and_grad @{1}({2}) {{wrt = {3}}\n"
                   "      : ({4}) -> (tensor<f64>{5})\n",
                   wrt.size() + 1, callee, argNames, i64Array(wrt), argTypes,
                   gradTypes)
        .str();
  };

  std::string source = instance.helpers;
  source +=
      formatv(R"mlir(
func.func @{0}({1}) -> tensor<f64> {{
{2}{3}  %p = ens.mul %r, %w : {4}
  %l = ens.reduce_sum %p {{dims = {5}} : {4} -> tensor<f64>
  return %l : tensor<f64>
}
)mlir",
              secondOrder ? "first" : "f", args, instance.body,
              constantOp("w", random.uniform(instance.resultShape, -1, 1)),
              resultType, i64Array(iota(instance.resultShape.size())));
  if (secondOrder) {
    source += formatv("func.func @f({0}) -> tensor<f64> {{\n", args);
    source += valueAndGrad("first");
    std::string sum = "%v#0";
    for (auto [k, index] : llvm::enumerate(wrt)) {
      const HostTensor &input = instance.inputs[index];
      std::string type = tensorType(input);
      source += constantOp(formatv("c{0}", k).str(),
                           random.uniform(input.shape, -1, 1));
      source += formatv("  %p{0} = ens.mul %v#{1}, %c{0} : {2}\n"
                        "  %s{0} = ens.reduce_sum %p{0} {{dims = {3}} : {2} "
                        "-> tensor<f64>\n"
                        "  %t{0} = ens.add {4}, %s{0} : tensor<f64>\n",
                        k, k + 1, type, i64Array(iota(input.getRank())), sum);
      sum = formatv("%t{0}", k).str();
    }
    source += "  return " + sum + " : tensor<f64>\n}\n";
  }
  source +=
      formatv("func.func @main({0}) -> (tensor<f64>{1}) {{\n", args, gradTypes);
  source += valueAndGrad("f");
  source += formatv("  return {0} : tensor<f64>{1}\n}\n", results, gradTypes);
  return source;
}

void checkInstance(const Instance &instance, Random &random, bool secondOrder) {
  Shape wrt;
  std::string source = buildProgram(instance, random, secondOrder, wrt);
  SCOPED_TRACE(source);
  Program program(source);
  if (!program.isValid() ||
      !program.apply({PassKind::Stdlib, PassKind::Autodiff}))
    return;
  Interpreter interpreter(program.getModule());
  auto loss = [&](llvm::ArrayRef<HostTensor> args) {
    llvm::Expected<std::vector<HostTensor>> results =
        interpreter.run("f", args);
    if (!results) {
      ADD_FAILURE() << llvm::toString(results.takeError());
      return 0.0;
    }
    return results->front().values.front();
  };
  std::vector<HostTensor> results =
      run(program.getModule(), "main", instance.inputs);
  ASSERT_EQ(results.size(), wrt.size() + 1);
  expectClose(results[0], HostTensor(DType::F64, {}, {loss(instance.inputs)}),
              1e-12, 0, "loss");

  for (auto [k, index] : llvm::enumerate(wrt)) {
    const HostTensor &input = instance.inputs[index];
    HostTensor numeric(DType::F64, input.shape);
    std::vector<HostTensor> args = instance.inputs;
    for (int64_t e = 0; e < input.getNumElements(); ++e) {
      double x = input.values[e];
      double h =
          instance.step ? instance.step : 1e-6 * std::max(1.0, std::fabs(x));
      args[index].values[e] = x + h;
      double up = loss(args), xUp = args[index].values[e];
      args[index].values[e] = x - h;
      double down = loss(args), xDown = args[index].values[e];
      args[index].values[e] = x;
      numeric.values[e] = (up - down) / (xUp - xDown);
    }
    expectClose(results[k + 1], numeric, kTolerance, kTolerance,
                formatv("gradient of argument {0}", index).str());
  }
}

class VjpTest : public ::testing::TestWithParam<OpCase> {};

TEST_P(VjpTest, MatchesCentralDifferences) {
  for (int seed = 0; seed < kSeeds; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    Random random(1000 * seed + 7);
    checkInstance(GetParam().generate(random), random, false);
    if (HasFatalFailure())
      return;
  }
}

// The rules emit ens ops, so they can be differentiated in turn: the
// gradient of a gradient (a Hessian-vector product) must match central
// differences of the first gradient.
// The CPU backend compiles the same value_and_grad programs (its pipeline
// lowers the transform) and must agree with the interpreter.
TEST_P(VjpTest, CpuBackendMatchesInterpreter) {
  for (int seed = 0; seed < 2; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    Random random(1000 * seed + 9);
    Instance instance = GetParam().generate(random);
    Shape wrt;
    std::string source = buildProgram(instance, random, false, wrt);
    SCOPED_TRACE(source);
    Program program(source);
    ASSERT_TRUE(program.isValid());
    ASSERT_TRUE(program.apply({PassKind::Stdlib}));
    llvm::Expected<std::unique_ptr<CpuExecutable>> cpu =
        CpuExecutable::compile(program.getModule(), "main");
    ASSERT_TRUE(bool(cpu)) << llvm::toString(cpu.takeError());
    llvm::Expected<std::vector<HostTensor>> actual =
        (*cpu)->run(instance.inputs);
    ASSERT_TRUE(bool(actual)) << llvm::toString(actual.takeError());
    ASSERT_TRUE(program.apply({PassKind::Autodiff}));
    std::vector<HostTensor> expected =
        run(program.getModule(), "main", instance.inputs);
    ASSERT_EQ(actual->size(), expected.size());
    for (auto [i, got, want] : llvm::enumerate(*actual, expected))
      expectClose(got, want, 1e-9, 1e-9, formatv("result {0}", i).str());
  }
}

/// Second order is checked where the first-order gradient is exact: not
/// for convert, whose gradient is rounded to f32.
class SecondOrderVjpTest : public VjpTest {};

TEST_P(SecondOrderVjpTest, MatchesCentralDifferences) {
  for (int seed = 0; seed < kSeeds / 2; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    Random random(1000 * seed + 8);
    Instance instance = GetParam().generate(random);
    checkInstance(instance, random, true);
    if (HasFatalFailure())
      return;
  }
}

// Finite differences say nothing at a tie, so the tie rule of max pooling
// (docs/semantics.md) is checked by hand: windows [1, 3], [3, 3] and
// [3, 2] all route their adjoint to the first 3, except the last, whose
// only maximum is the second.
TEST(ReduceWindowVjpTest, MaxTieGoesToTheFirstMaximum) {
  Program program(R"mlir(
func.func @f(%x: tensor<4xf64>) -> tensor<f64> {
  %y = ens.reduce_window max, %x {window_dimensions = array<i64: 2>}
      : tensor<4xf64> -> tensor<3xf64>
  %s = ens.reduce_sum %y {dims = array<i64: 0>} : tensor<3xf64> -> tensor<f64>
  return %s : tensor<f64>
}
func.func @main(%x: tensor<4xf64>) -> (tensor<f64>, tensor<4xf64>) {
  %v:2 = ens.value_and_grad @f(%x) {wrt = array<i64: 0>}
      : (tensor<4xf64>) -> (tensor<f64>, tensor<4xf64>)
  return %v#0, %v#1 : tensor<f64>, tensor<4xf64>
}
)mlir");
  ASSERT_TRUE(program.isValid());
  ASSERT_TRUE(program.apply({PassKind::Autodiff}));
  std::vector<HostTensor> results = run(
      program.getModule(), "main", {HostTensor(DType::F64, {4}, {1, 3, 3, 2})});
  ASSERT_EQ(results.size(), 2u);
  expectClose(results[1], HostTensor(DType::F64, {4}, {0, 2, 1, 0}), 0, 0,
              "gradient");
}

/// Windows that tile the operand take another rule (one pass over a
/// [2, 2, 2, 2] view); ties still go to the first maximum in row-major
/// order, and each window's own adjoint goes there. Worked by hand: the
/// windows' maxima 3, 3, 5, 7 sit first at (0,1), (0,2), (2,0), (2,3).
TEST(ReduceWindowVjpTest, TilingWindowsRouteToTheFirstMaximum) {
  Program program(R"mlir(
func.func @f(%x: tensor<4x4xf64>, %c: tensor<2x2xf64>) -> tensor<f64> {
  %y = ens.reduce_window max, %x {window_dimensions = array<i64: 2, 2>,
                                  window_strides = array<i64: 2, 2>}
      : tensor<4x4xf64> -> tensor<2x2xf64>
  %w = ens.mul %y, %c : tensor<2x2xf64>
  %s = ens.reduce_sum %w {dims = array<i64: 0, 1>} : tensor<2x2xf64> -> tensor<f64>
  return %s : tensor<f64>
}
func.func @main(%x: tensor<4x4xf64>, %c: tensor<2x2xf64>)
    -> (tensor<f64>, tensor<4x4xf64>) {
  %v:2 = ens.value_and_grad @f(%x, %c) {wrt = array<i64: 0>}
      : (tensor<4x4xf64>, tensor<2x2xf64>) -> (tensor<f64>, tensor<4x4xf64>)
  return %v#0, %v#1 : tensor<f64>, tensor<4x4xf64>
}
)mlir");
  ASSERT_TRUE(program.isValid());
  ASSERT_TRUE(program.apply({PassKind::Autodiff}));
  HostTensor x(DType::F64, {4, 4},
               {1, 3, 3, 2, //
                3, 0, 2, 2, //
                5, 5, 0, 7, //
                5, 5, 7, 7});
  HostTensor c(DType::F64, {2, 2}, {1, 2, 3, 4});
  std::vector<HostTensor> results = run(program.getModule(), "main", {x, c});
  ASSERT_EQ(results.size(), 2u);
  expectClose(results[1],
              HostTensor(DType::F64, {4, 4},
                         {0, 1, 2, 0, //
                          0, 0, 0, 0, //
                          3, 0, 0, 4, //
                          0, 0, 0, 0}),
              0, 0, "gradient");
}

//===----------------------------------------------------------------------===//
// Generators
//===----------------------------------------------------------------------===//

using ValueFn = std::function<HostTensor(Random &, const Shape &)>;

HostTensor anyValue(Random &r, const Shape &s) { return r.uniform(s); }
HostTensor positive(Random &r, const Shape &s) { return r.uniform(s, 0.3, 2); }
HostTensor awayFromZero(Random &r, const Shape &s) {
  return r.signedAway(s, 0.2, 1.5);
}

OpCase unaryCase(const char *op, ValueFn value = anyValue) {
  return {op, [=](Random &r) {
            Shape shape = r.shape(r.integer(0, 3));
            return Instance{
                {value(r, shape)},
                formatv("  %r = ens.{0} %a0 : {1}\n", op, typeOf(shape)),
                shape};
          }};
}

OpCase binaryCase(const char *op, ValueFn lhs = anyValue,
                  ValueFn rhs = anyValue) {
  return {op, [=](Random &r) {
            Shape shape = r.shape(r.integer(0, 3));
            return Instance{
                {lhs(r, shape), rhs(r, shape)},
                formatv("  %r = ens.{0} %a0, %a1 : {1}\n", op, typeOf(shape)),
                shape};
          }};
}

/// max and min: operands at least 0.1 apart, so there are no ties.
OpCase separatedCase(const char *op) {
  return {op, [=](Random &r) {
            Shape shape = r.shape(r.integer(0, 3));
            HostTensor lhs = r.uniform(shape);
            HostTensor rhs = r.signedAway(shape, 0.1, 1);
            for (auto [a, b] : llvm::zip_equal(lhs.values, rhs.values))
              b += a;
            return Instance{
                {lhs, rhs},
                formatv("  %r = ens.{0} %a0, %a1 : {1}\n", op, typeOf(shape)),
                shape};
          }};
}

Instance selectInstance(Random &r) {
  Shape shape = r.shape(r.integer(0, 3));
  std::string type = typeOf(shape);
  return {{r.uniform(shape), r.uniform(shape), r.signedAway(shape)},
          formatv("  %z = ens.constant dense<0.0> : {0}\n"
                  "  %m = ens.cmp gt, %a2, %z : {0}\n"
                  "  %r = ens.select %m, %a0, %a1 : {1}, {0}\n",
                  type, tensorType(shape, DType::I1)),
          shape};
}

/// f64 -> f32 -> f64 is the identity on dyadic inputs with few bits, whose
/// neighbours at a step of 2^-10 are exact in f32 too.
Instance convertInstance(Random &r) {
  Shape shape = r.shape(r.integer(0, 3));
  HostTensor dyadic(DType::F64, shape);
  for (double &value : dyadic.values)
    value = r.integer(-100, 100) / 64.0;
  Instance instance{{dyadic, r.uniform(shape)},
                    formatv("  %c = ens.convert %a0 : {0} -> {1}\n"
                            "  %d = ens.convert %c : {1} -> {0}\n"
                            "  %r = ens.mul %d, %a1 : {0}\n",
                            typeOf(shape), tensorType(shape, DType::F32)),
                    shape};
  instance.step = std::ldexp(1.0, -10);
  instance.roundsGradients = true;
  return instance;
}

Instance broadcastInstance(const Shape &in, const Shape &out, const Shape &dims,
                           Random &r) {
  return {{r.uniform(in)},
          formatv("  %r = ens.broadcast_in_dim %a0 {{dims = {0}} : {1} -> "
                  "{2}\n",
                  i64Array(dims), typeOf(in), typeOf(out)),
          out};
}

/// Random dims, in any order, with some operand dims of size 1 expanded.
Instance randomBroadcast(Random &r) {
  int64_t outRank = r.integer(0, 4), inRank = r.integer(0, outRank);
  Shape out = r.shape(outRank, 2, 4), permutation = r.permutation(outRank);
  Shape dims(permutation.begin(), permutation.begin() + inRank), in;
  for (int64_t d : dims)
    in.push_back(r.coin(0.3) ? 1 : out[d]);
  return broadcastInstance(in, out, dims, r);
}

Instance reshapeInstance(Random &r) {
  Shape in = r.shape(r.integer(0, 3));
  Shape out(in.rbegin(), in.rend());
  out.insert(out.begin() + r.integer(0, out.size()), 1);
  if (r.coin() && out.size() > 1) {
    out[0] *= out[1];
    out.erase(out.begin() + 1);
  }
  return {
      {r.uniform(in)},
      formatv("  %r = ens.reshape %a0 : {0} -> {1}\n", typeOf(in), typeOf(out)),
      out};
}

Instance transposeInstance(Random &r) {
  Shape in = r.shape(r.integer(1, 4), 1, 3);
  Shape permutation = r.permutation(in.size()), out;
  for (int64_t d : permutation)
    out.push_back(in[d]);
  return {{r.uniform(in)},
          formatv("  %r = ens.transpose %a0 {{permutation = {0}} : {1} -> "
                  "{2}\n",
                  i64Array(permutation), typeOf(in), typeOf(out)),
          out};
}

Instance sliceInstance(Random &r) {
  Shape in = r.shape(r.integer(1, 3), 1, 6), start, limit, stride, out;
  for (int64_t size : in) {
    start.push_back(r.integer(0, size - 1));
    limit.push_back(r.integer(start.back() + 1, size));
    stride.push_back(r.integer(1, 3));
    out.push_back((limit.back() - start.back() + stride.back() - 1) /
                  stride.back());
  }
  return {{r.uniform(in)},
          formatv("  %r = ens.slice %a0 {{start = {0}, limit = {1}, stride = "
                  "{2}} : {3} -> {4}\n",
                  i64Array(start), i64Array(limit), i64Array(stride),
                  typeOf(in), typeOf(out)),
          out};
}

Instance padInstance(Random &r) {
  Shape in = r.shape(r.integer(1, 3), 1, 3), low, high, interior, out;
  for (int64_t size : in) {
    low.push_back(r.integer(0, 2));
    high.push_back(r.integer(0, 2));
    interior.push_back(r.integer(0, 2));
    out.push_back(low.back() + high.back() + size +
                  (size - 1) * interior.back());
  }
  return {{r.uniform(in)},
          formatv("  %r = ens.pad %a0 {{low = {0}, high = {1}, interior = "
                  "{2}} : {3} -> {4}\n",
                  i64Array(low), i64Array(high), i64Array(interior), typeOf(in),
                  typeOf(out)),
          out};
}

Instance concatInstance(Random &r) {
  Shape out = r.shape(r.integer(1, 3));
  int64_t dim = r.integer(0, out.size() - 1), count = r.integer(1, 3);
  Instance instance;
  std::string names, types;
  out[dim] = 0;
  for (int64_t i = 0; i < count; ++i) {
    Shape shape = out;
    shape[dim] = r.integer(1, 3);
    out[dim] += shape[dim];
    instance.inputs.push_back(r.uniform(shape));
    names += formatv("{0}%a{1}", i ? ", " : "", i).str();
    types += (i ? ", " : "") + typeOf(shape);
  }
  instance.body = formatv("  %r = ens.concat {0} {{dim = {1} : i64} : {2} -> "
                          "{3}\n",
                          names, dim, types, typeOf(out));
  instance.resultShape = out;
  return instance;
}

/// take's gathered shape: table[:axis] + indices + table[axis+1:].
Shape gatheredShape(const Shape &table, const Shape &indices, int64_t axis) {
  Shape result(table.begin(), table.begin() + axis);
  result.insert(result.end(), indices.begin(), indices.end());
  result.insert(result.end(), table.begin() + axis + 1, table.end());
  return result;
}

/// Indices repeat (more of them than rows) and go out of range both ways.
Instance gatherInstance(Random &r, bool scatter) {
  Shape table = r.shape(r.integer(1, 3), 1, 3);
  int64_t axis = r.integer(0, table.size() - 1);
  Shape indexShape = r.shape(r.integer(0, 2), 1, 4);
  HostTensor indices = r.indices(indexShape, -2, table[axis] + 1);
  Shape gathered = gatheredShape(table, indexShape, axis);
  if (!scatter)
    return {{r.uniform(table), indices},
            formatv("  %r = ens.take %a0, %a1 {{axis = {0} : i64} : {1}, {2} "
                    "-> {3}\n",
                    axis, typeOf(table), tensorType(indices), typeOf(gathered)),
            gathered};
  return {{r.uniform(gathered), indices},
          formatv("  %r = ens.scatter_add %a0, %a1 {{axis = {0} : i64} : {1}, "
                  "{2} -> {3}\n",
                  axis, typeOf(gathered), tensorType(indices), typeOf(table)),
          table};
}

OpCase reduceCase(const char *op, ValueFn value = anyValue) {
  return {
      op, [=](Random &r) {
        Shape in = r.shape(r.integer(1, 3)), out;
        Shape order = r.permutation(in.size());
        Shape dims(order.begin(), order.begin() + r.integer(1, order.size()));
        for (auto [d, size] : llvm::enumerate(in))
          if (!llvm::is_contained(dims, static_cast<int64_t>(d)))
            out.push_back(size);
        return Instance{{value(r, in)},
                        formatv("  %r = ens.{0} %a0 {{dims = {1}} : {2} "
                                "-> {3}\n",
                                op, i64Array(dims), typeOf(in), typeOf(out)),
                        out};
      }};
}

OpCase softmaxCase(const char *op) {
  return {op, [=](Random &r) {
            Shape shape = r.shape(r.integer(1, 3));
            return Instance{{r.uniform(shape, -2, 2)},
                            formatv("  %r = ens.{0} %a0 {{dim = {1} : i64} : "
                                    "{2}\n",
                                    op, r.integer(0, shape.size() - 1),
                                    typeOf(shape)),
                            shape};
          }};
}

/// An einsum by `spec` with random label sizes.
OpCase einsumCase(std::string spec) {
  std::string name = "einsum_" + spec;
  for (char &c : name)
    if (!isalnum(c))
      c = '_';
  return {name, [=](Random &r) {
            size_t comma = spec.find(','), arrow = spec.find("->");
            std::string lhs = spec.substr(0, comma),
                        rhs = spec.substr(comma + 1, arrow - comma - 1),
                        out = spec.substr(arrow + 2);
            std::map<char, int64_t> sizes;
            auto shapeOf = [&](const std::string &labels) {
              Shape shape;
              for (char c : labels) {
                if (!sizes.count(c))
                  sizes[c] = r.integer(1, 4);
                shape.push_back(sizes[c]);
              }
              return shape;
            };
            Shape a = shapeOf(lhs), b = shapeOf(rhs), c = shapeOf(out);
            return Instance{{r.uniform(a), r.uniform(b)},
                            formatv("  %r = ens.einsum %a0, %a1 {{spec = "
                                    "\"{0}\"} : {1}, {2} -> {3}\n",
                                    spec, typeOf(a), typeOf(b), typeOf(c)),
                            c};
          }};
}

/// Random contracted pairs, in any order on either side.
Instance tensordotInstance(Random &r) {
  Shape lhs = r.shape(r.integer(1, 3)), rhs = r.shape(r.integer(1, 3));
  int64_t pairs = r.integer(0, std::min(lhs.size(), rhs.size()));
  Shape lhsOrder = r.permutation(lhs.size()),
        rhsOrder = r.permutation(rhs.size());
  Shape lhsDims(lhsOrder.begin(), lhsOrder.begin() + pairs),
      rhsDims(rhsOrder.begin(), rhsOrder.begin() + pairs), out;
  for (int64_t k = 0; k < pairs; ++k)
    rhs[rhsDims[k]] = lhs[lhsDims[k]];
  for (auto [d, size] : llvm::enumerate(lhs))
    if (!llvm::is_contained(lhsDims, static_cast<int64_t>(d)))
      out.push_back(size);
  for (auto [d, size] : llvm::enumerate(rhs))
    if (!llvm::is_contained(rhsDims, static_cast<int64_t>(d)))
      out.push_back(size);
  return {{r.uniform(lhs), r.uniform(rhs)},
          formatv("  %r = ens.tensordot %a0, %a1 {{lhs_dims = {0}, rhs_dims "
                  "= {1}} : {2}, {3} -> {4}\n",
                  i64Array(lhsDims), i64Array(rhsDims), typeOf(lhs),
                  typeOf(rhs), typeOf(out)),
          out};
}

/// A convolution from TestSupport's randomConv, so that random layouts,
/// strides, padding (negative included), dilations and feature groups all
/// reach both adjoints.
OpCase convCase(int64_t spatialRank) {
  return {formatv("conv_{0}d", spatialRank).str(), [=](Random &r) {
            RandomConv conv = randomConv(r, spatialRank);
            return Instance{
                {r.uniform(conv.lhsShape), r.uniform(conv.rhsShape)},
                formatv("  %r = ens.conv %a0, %a1 {{{0}} : {1}, {2} -> {3}\n",
                        conv.attributes(), typeOf(conv.lhsShape),
                        typeOf(conv.rhsShape), typeOf(conv.outShape)),
                conv.outShape};
          }};
}

/// A pooling of random windows, strides and padding over 1 to 3 dims;
/// max pooling draws distinct values, so that no window has a tie.
OpCase reduceWindowCase(const char *kind) {
  return {formatv("reduce_window_{0}", kind).str(), [=](Random &r) {
            bool isMax = llvm::StringRef(kind) == "max";
            Shape shape = r.shape(r.integer(1, 3), 1, 5), window, strides,
                  padding, out;
            for (int64_t size : shape) {
              window.push_back(r.integer(1, std::min<int64_t>(3, size)));
              strides.push_back(r.integer(1, 3));
              padding.push_back(r.integer(0, window.back() - 1));
              padding.push_back(r.integer(0, window.back() - 1));
              out.push_back((size + padding[padding.size() - 2] +
                             padding.back() - window.back()) /
                                strides.back() +
                            1);
            }
            return Instance{
                {isMax ? r.distinct(shape) : r.uniform(shape)},
                formatv("  %r = ens.reduce_window {0}, %a0 "
                        "{{window_dimensions = {1}, window_strides = {2}, "
                        "padding = {3}} : {4} -> {5}\n",
                        kind, i64Array(window), i64Array(strides),
                        i64Array(padding), typeOf(shape), typeOf(out)),
                out};
          }};
}

/// The normalisations and dropout of the standard library, as a model
/// calls them: `@lib` declared with `ens.stdlib = name` for f64 operands
/// of `types`, its first result `%r` of type `result`.
Instance stdlibInstance(const char *name, std::vector<HostTensor> inputs,
                        const std::string &results, const Shape &shape) {
  std::string types, args;
  for (auto [i, input] : llvm::enumerate(inputs)) {
    types += std::string(i ? ", " : "") + tensorType(input);
    args += formatv("{0}%a{1}", i ? ", " : "", i).str();
  }
  size_t count = llvm::StringRef(results).count("tensor");
  std::string defined =
      count == 1 ? "%r" : formatv("%r, %rest:{0}", count - 1).str();
  Instance instance{std::move(inputs),
                    formatv("  {0} = call @lib({1}) : ({2}) -> ({3})\n",
                            defined, args, types, results),
                    shape};
  instance.helpers = formatv("func.func private @lib({0}) -> ({1}) attributes "
                             "{{ens.stdlib = \"{2}\"}\n",
                             types, results, name);
  return instance;
}

Instance layerNormInstance(Random &r) {
  Shape shape = r.shape(r.integer(1, 3), 2, 4);
  Shape features{shape.back()};
  return stdlibInstance("layer_norm",
                        {r.uniform(shape), r.uniform(features),
                         r.uniform(features), r.uniform({}, 0.3, 2)},
                        typeOf(shape), shape);
}

/// Batch norm's normalised output; the running statistics it also returns
/// do not reach the loss.
Instance batchNormInstance(Random &r) {
  Shape shape = r.shape(r.integer(2, 3), 2, 4);
  Shape channels{shape.back()};
  std::string vector = typeOf(channels);
  return stdlibInstance("batch_norm",
                        {r.uniform(shape), r.uniform(channels),
                         r.uniform(channels), r.uniform(channels),
                         r.uniform(channels, 0.3, 2), r.uniform({}, 0, 1),
                         r.uniform({}, 0.3, 2)},
                        typeOf(shape) + ", " + vector + ", " + vector, shape);
}

/// Dropout's adjoint is the mask scaled by 1 / (1 - rate); the mask is
/// constant in the rate except where a draw equals it.
Instance dropoutInstance(Random &r) {
  Shape shape = r.shape(r.integer(1, 3), 2, 5);
  HostTensor key(DType::I32, {2}, {double(r.integer(0, 1000)), 7});
  return stdlibInstance("dropout",
                        {key, r.uniform(shape), r.uniform({}, 0.1, 0.6)},
                        typeOf(shape), shape);
}

/// numpy.matmul of operands of `lhs` and `rhs` shapes, where -1 stands for
/// a random size: vector operands, and batch dims that broadcast.
OpCase matmulCase(const char *name, Shape lhs, Shape rhs, Shape out) {
  return {std::string("matmul_") + name, [=](Random &r) {
            std::map<int64_t, int64_t> sizes;
            auto resolve = [&](Shape shape) {
              for (int64_t &size : shape)
                if (size < 0)
                  size = sizes.count(size) ? sizes[size]
                                           : sizes[size] = r.integer(1, 4);
              return shape;
            };
            Shape a = resolve(lhs), b = resolve(rhs), c = resolve(out);
            return Instance{{r.uniform(a), r.uniform(b)},
                            formatv("  %r = ens.matmul %a0, %a1 : {0}, {1} -> "
                                    "{2}\n",
                                    typeOf(a), typeOf(b), typeOf(c)),
                            c};
          }};
}

/// A helper called twice, the second time on its own result: the adjoints
/// of both calls' arguments must be summed.
Instance callInstance(Random &r) {
  Shape shape = r.shape(r.integer(0, 2));
  std::string type = typeOf(shape);
  Instance instance{{r.uniform(shape), r.uniform(shape)},
                    formatv("  %u = call @helper(%a0, %a1) : ({0}, {0}) -> "
                            "{0}\n"
                            "  %v = call @helper(%u, %a0) : ({0}, {0}) -> "
                            "{0}\n"
                            "  %r = ens.add %u, %v : {0}\n",
                            type),
                    shape};
  instance.helpers = formatv(R"mlir(
func.func private @helper(%x: {0}, %y: {0}) -> {0} {{
  %m = ens.mul %x, %y : {0}
  %t = ens.tanh %m : {0}
  %s = ens.sub %t, %y : {0}
  return %s : {0}
}
)mlir",
                             type);
  return instance;
}

/// The gradient of a loss that contains a gradient: second derivatives,
/// through the VJPs of the rules' own ops.
Instance secondOrderInstance(Random &r) {
  Shape shape = r.shape(r.integer(0, 2));
  std::string type = typeOf(shape);
  Instance instance{{r.uniform(shape), r.uniform(shape)},
                    formatv("  %v:2 = ens.value_and_grad @inner(%a0, %a1) "
                            "{{wrt = array<i64: 0>} : ({0}, {0}) -> "
                            "(tensor<f64>, {0})\n"
                            "  %r = ens.mul %v#1, %a1 : {0}\n",
                            type),
                    shape};
  instance.helpers = formatv(R"mlir(
func.func private @inner(%x: {0}, %y: {0}) -> tensor<f64> {{
  %m = ens.mul %x, %y : {0}
  %t = ens.tanh %m : {0}
  %e = ens.exp %x : {0}
  %p = ens.mul %t, %e : {0}
  %s = ens.sigmoid %p : {0}
  %l = ens.reduce_sum %s {{dims = {1}} : {0} -> tensor<f64>
  return %l : tensor<f64>
}
)mlir",
                             type, i64Array(iota(shape.size())));
  return instance;
}

/// A vmap inside the loss: members along axis 1 of the first argument,
/// the second shared.
Instance vmapInstance(Random &r) {
  Shape member = r.shape(r.integer(1, 2));
  int64_t size = r.integer(1, 3);
  Shape batched = member, out = member;
  batched.insert(batched.begin() + 1, size);
  out.insert(out.begin(), size);
  Instance instance{{r.uniform(batched), r.uniform(member)},
                    formatv("  %r = ens.vmap @member(%a0, %a1) {{in_axes = "
                            "array<i64: 1, -1>, out_axes = array<i64: 0>, "
                            "size = {0} : i64} : ({1}, {2}) -> {3}\n",
                            size, typeOf(batched), typeOf(member), typeOf(out)),
                    out};
  instance.helpers = formatv(R"mlir(
func.func private @member(%x: {0}, %y: {0}) -> {0} {{
  %m = ens.mul %x, %y : {0}
  %s = ens.tanh %m : {0}
  return %s : {0}
}
)mlir",
                             typeOf(member));
  return instance;
}

std::vector<OpCase> allCases() {
  std::vector<OpCase> cases = {
      binaryCase("add"),
      binaryCase("sub"),
      binaryCase("mul"),
      binaryCase("div", anyValue, awayFromZero),
      separatedCase("max"),
      separatedCase("min"),
      binaryCase("pow", positive),
      unaryCase("neg"),
      unaryCase("exp"),
      unaryCase("log", positive),
      unaryCase("tanh"),
      unaryCase("sigmoid"),
      unaryCase("relu", awayFromZero),
      unaryCase("sqrt", positive),
      unaryCase("rsqrt", positive),
      unaryCase("abs", awayFromZero),
      unaryCase("square"),
      {"select", selectInstance},
      {"convert", convertInstance},
      {"broadcast_in_dim", randomBroadcast},
      {"broadcast_in_dim_fixed",
       [](Random &r) {
         // Expands a size-1 dim and maps the others out of order.
         return broadcastInstance({3, 1, 2}, {2, 5, 3, 4}, {2, 3, 0}, r);
       }},
      {"reshape", reshapeInstance},
      {"transpose", transposeInstance},
      {"slice", sliceInstance},
      {"pad", padInstance},
      {"concat", concatInstance},
      {"take", [](Random &r) { return gatherInstance(r, false); }},
      {"scatter_add", [](Random &r) { return gatherInstance(r, true); }},
      reduceCase("reduce_sum"),
      reduceCase("reduce_max",
                 [](Random &r, const Shape &s) { return r.distinct(s); }),
      reduceCase("reduce_mean"),
      reduceCase("logsumexp"),
      softmaxCase("softmax"),
      softmaxCase("log_softmax"),
      {"tensordot", tensordotInstance},
      // Sizes -1 (m), -2 (k) and -3 (n) are drawn at random.
      matmulCase("2d", {-1, -2}, {-2, -3}, {-1, -3}),
      matmulCase("vector_matrix", {-2}, {-2, -3}, {-3}),
      matmulCase("matrix_vector", {-1, -2}, {-2}, {-1}),
      matmulCase("vector_vector", {-2}, {-2}, {}),
      matmulCase("broadcast_batch", {2, 1, 3, 4}, {5, 4, 2}, {2, 5, 3, 2}),
      matmulCase("batch_vector", {-1}, {3, -1, -3}, {3, -3}),
      matmulCase("broadcast_rhs", {3, -1, -2}, {1, -2, -3}, {3, -1, -3}),
      matmulCase("batch_matrix", {2, 3, -1, -2}, {-2, -3}, {2, 3, -1, -3}),
      convCase(1),
      convCase(2),
      convCase(3),
      reduceWindowCase("max"),
      reduceWindowCase("add"),
      {"layer_norm", layerNormInstance},
      {"batch_norm", batchNormInstance},
      {"dropout", dropoutInstance},
      {"call", callInstance},
      {"second_order", secondOrderInstance},
      {"vmap", vmapInstance},
      {"mul_same_value",
       [](Random &r) {
         Shape shape = r.shape(r.integer(0, 3));
         return Instance{
             {r.uniform(shape)},
             formatv("  %r = ens.mul %a0, %a0 : {0}\n", typeOf(shape)),
             shape};
       }},
  };
  for (const char *spec :
       {"ij,jk->ik", "ij,k->k", "k,ij->kj", "bij,bjk->bik", "i,j->ij",
        "kbi,ij->jbk", "ij,ij->", "i,i->i", "ijk,kj->i", "ab,cd->dbca"})
    cases.push_back(einsumCase(spec));
  return cases;
}

std::string caseName(const ::testing::TestParamInfo<OpCase> &info) {
  return info.param.name;
}

std::vector<OpCase> secondOrderCases() {
  std::vector<OpCase> cases;
  for (const OpCase &c : allCases()) {
    Random random(0);
    if (!c.generate(random).roundsGradients)
      cases.push_back(c);
  }
  return cases;
}

INSTANTIATE_TEST_SUITE_P(Ops, VjpTest, ::testing::ValuesIn(allCases()),
                         caseName);
INSTANTIATE_TEST_SUITE_P(Ops, SecondOrderVjpTest,
                         ::testing::ValuesIn(secondOrderCases()), caseName);

} // namespace
