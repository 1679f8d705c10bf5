//===- BatchPropertyTest.cpp - Property tests of the ens-batch pass -------===//
//
// Generates random member functions as MLIR text, maps each over a batch
// with `ens.vmap` from a `@main`, and checks the defining property of the
// ens-batch pass: the reference interpreter runs a vmap by definition, one
// member at a time, so the batched program, which has no vmap left, must
// compute the same results.
//
// The generator tracks every SSA value with its type, whether it depends on
// a batched argument, and a bound on its magnitude. Operands of log, sqrt,
// rsqrt, div and pow are made positive and exponents small, so no NaN or
// infinity makes a comparison vacuous. Each op kind has a generator; the
// random-chain test strings 3 to 8 of them together, and the per-op tests
// run each generator alone with every mix of batched and shared operands.
// Calls and nested vmaps build helper functions, which later sites may call
// or map again with other axes, so one function is batched several ways;
// vmaps also repeat earlier signatures, or change one part of them, to test
// the cache of generated functions. Random draws run under either
// randomness. Coverage counts only live ops, whose results reach a return
// and so are compared.
//
//===----------------------------------------------------------------------===//

#include "ens/Backend/CpuBackend.h"
#include "ens/Backend/Cuda/Codegen.h"
#include "ens/Backend/Cuda/Emulator.h"
#include "ens/Backend/Cuda/Nvrtc.h"
#include "ens/Dialect/Ens/IR/EnsOps.h"
#include "ens/Dialect/Ens/Transforms/Passes.h"
#include "ens/InitAllDialects.h"
#include "ens/Interpreter/Interpreter.h"
#include "ens/Support/HostTensor.h"

#include "TestSupport.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <vector>

using namespace mlir;
using namespace mlir::ens;

namespace {

//===----------------------------------------------------------------------===//
// Limits of the generated programs
//===----------------------------------------------------------------------===//

/// f32 operands above this magnitude are squashed with tanh first, so that
/// no value of a program overflows.
constexpr double kMaxBound = 1e4;
/// The largest magnitude of exp's operands and of pow's bases (before they
/// are made positive); pow's exponents are at most 3.
constexpr double kExpLimit = 10;
/// f32 arguments of helper and inner functions are at most this large; the
/// caller squashes what it passes.
constexpr double kHelperBound = 4;
constexpr double kI32Bound = 2147483648.0;
/// Member inputs are uniform in [-2, 2) (f32) or integers in [-2, 5] (i32,
/// which indexes axes of size 1 to 4 also out of range).
constexpr double kF32InputBound = 2;
constexpr int64_t kI32InputMin = -2, kI32InputMax = 5;
/// Functions at this depth call and map no further functions.
constexpr unsigned kMaxNestingDepth = 2;

constexpr int kNumChains = 2000;
constexpr int kSeedsPerOp = 48;

//===----------------------------------------------------------------------===//
// Random choices and types
//===----------------------------------------------------------------------===//

using Shape = std::vector<int64_t>;

class Random {
public:
  explicit Random(unsigned seed) : engine(seed) {}

  /// Uniform in [lo, hi].
  int64_t integer(int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(engine);
  }
  double real(double lo, double hi) {
    return std::uniform_real_distribution<double>(lo, hi)(engine);
  }
  bool coin(double probability = 0.5) {
    return std::bernoulli_distribution(probability)(engine);
  }
  template <typename T> const T &pick(const std::vector<T> &items) {
    return items[integer(0, items.size() - 1)];
  }
  template <typename T> void shuffle(T &items) {
    std::shuffle(items.begin(), items.end(), engine);
  }
  /// `rank` sizes in [1, 4].
  Shape shape(int64_t rank) {
    Shape shape;
    for (int64_t d = 0; d < rank; ++d)
      shape.push_back(integer(1, 4));
    return shape;
  }
  Shape permutation(int64_t n) {
    Shape permutation;
    for (int64_t i = 0; i < n; ++i)
      permutation.push_back(i);
    shuffle(permutation);
    return permutation;
  }

private:
  std::mt19937 engine;
};

int64_t numElements(const Shape &shape) {
  int64_t count = 1;
  for (int64_t size : shape)
    count *= size;
  return count;
}

struct TensorType {
  Shape shape;
  DType dtype = DType::F32;

  int64_t rank() const { return shape.size(); }
  bool operator==(const TensorType &other) const {
    return shape == other.shape && dtype == other.dtype;
  }
  /// "tensor<2x3xf32>".
  std::string str() const {
    std::string text = "tensor<";
    for (int64_t size : shape)
      text += std::to_string(size) + "x";
    return text + getDTypeName(dtype).str() + ">";
  }
};

/// `type` with a batch dimension of `size` at `axis` (none for -1).
TensorType withBatchDim(TensorType type, int64_t axis, int64_t size) {
  if (axis != -1)
    type.shape.insert(type.shape.begin() + axis, size);
  return type;
}

const std::vector<DType> kFloat = {DType::F32};
/// Arithmetic types, f32 weighted twice.
const std::vector<DType> kNumeric = {DType::F32, DType::F32, DType::I32};
const std::vector<DType> kAnyType = {DType::F32, DType::F32, DType::I32,
                                     DType::I1};

//===----------------------------------------------------------------------===//
// Text helpers
//===----------------------------------------------------------------------===//

template <typename Range, typename Fn>
std::string join(const Range &items, Fn format) {
  std::string text;
  for (const auto &item : items)
    text += (text.empty() ? "" : ", ") + format(item);
  return text;
}

/// "array<i64: 1, 2>" or "array<i64>".
std::string i64Array(const Shape &values) {
  if (values.empty())
    return "array<i64>";
  return "array<i64: " +
         join(values, [](int64_t v) { return std::to_string(v); }) + ">";
}

std::string typeList(const std::vector<TensorType> &types) {
  return join(types, [](const TensorType &t) { return t.str(); });
}

/// The names of an op's `count` results: "%r" or "%r#0, %r#1, ...".
std::vector<std::string> resultNames(const std::string &base, size_t count) {
  if (count == 1)
    return {base};
  std::vector<std::string> names;
  for (size_t i = 0; i < count; ++i)
    names.push_back(base + "#" + std::to_string(i));
  return names;
}

/// "%r = " or "%r:2 = ".
std::string resultDef(const std::string &base, size_t count) {
  return base + (count == 1 ? "" : ":" + std::to_string(count)) + " = ";
}

/// The text of an `ens.vmap` op, without its results. An empty
/// `randomness` leaves the default ("different").
std::string vmapOp(const std::string &callee,
                   const std::vector<std::string> &args,
                   const std::vector<TensorType> &argTypes, const Shape &inAxes,
                   const Shape &outAxes,
                   const std::vector<TensorType> &resultTypes, int64_t size,
                   const std::string &randomness) {
  return llvm::formatv(
      "ens.vmap @{0}({1}) {{in_axes = {2}, out_axes = {3}, size = {4} : "
      "i64{5}} : ({6}) -> ({7})",
      callee, join(args, [](const std::string &s) { return s; }),
      i64Array(inAxes), i64Array(outAxes), size,
      randomness.empty() ? "" : ", randomness = \"" + randomness + "\"",
      typeList(argTypes), typeList(resultTypes));
}

/// The randomness of a generated vmap: the default or either explicitly.
std::string randomRandomness(Random &rng) {
  return rng.pick(std::vector<std::string>{"", "different", "same"});
}

/// A dense literal of `values` in the nested-list syntax of `shape`.
std::string denseLiteral(const Shape &shape, const std::vector<double> &values,
                         DType dtype, size_t dim = 0, int64_t offset = 0) {
  if (dim == shape.size()) {
    double v = values[offset];
    if (dtype == DType::I1)
      return v != 0 ? "true" : "false";
    if (dtype == DType::I32)
      return std::to_string(static_cast<int64_t>(v));
    return llvm::formatv("{0:F2}", v).str();
  }
  int64_t stride = numElements(Shape(shape.begin() + dim + 1, shape.end()));
  std::string text = "[";
  for (int64_t i = 0; i < shape[dim]; ++i)
    text += (i ? ", " : "") +
            denseLiteral(shape, values, dtype, dim + 1, offset + i * stride);
  return text + "]";
}

//===----------------------------------------------------------------------===//
// Program builders
//===----------------------------------------------------------------------===//

/// A value of the generated program.
struct GenValue {
  std::string name;
  TensorType type;
  /// An upper bound on the magnitude of every element.
  double bound = 0;
  /// Whether the value depends on a batched argument of its function.
  bool batched = false;
};

std::vector<std::string> namesOf(const std::vector<GenValue> &values) {
  std::vector<std::string> names;
  for (const GenValue &value : values)
    names.push_back(value.name);
  return names;
}

/// What an op generator asks of an operand.
enum class Sharing { Any, Batched, Shared };

/// A parameter of a generated function and, for the member, the axis @main
/// batches it along (-1: shared by every member).
struct Param {
  GenValue value;
  int64_t axis = -1;
};

/// How often each op was emitted, how often it was live (its results reach
/// a return of its function, so the test compares them), and which mixes of
/// batched (B) and shared (S) operands its live instances in the vmapped
/// member saw.
struct OpCoverage {
  int64_t emitted = 0;
  int64_t live = 0;
  std::set<std::string> signatures;
};
using Coverage = std::map<std::string, OpCoverage>;

/// A finished function that call and vmap sites may use.
struct Callee {
  std::string name;
  std::vector<TensorType> params;
  /// The types and bounds of the results.
  std::vector<GenValue> results;
};

/// The batching signature of a vmap: what ens-batch generates one function
/// for.
struct VmapSite {
  Callee callee;
  Shape inAxes;
  int64_t size;
  std::string randomness;
};

/// Collects the functions of one generated module.
class ModuleBuilder {
public:
  ModuleBuilder(Random &rng, Coverage &coverage)
      : rng(rng), coverage(coverage) {}

  std::string uniqueName(const std::string &prefix) {
    return prefix + "_" + std::to_string(numNames++);
  }
  void addFunction(std::string text) { functions.push_back(std::move(text)); }
  std::string str() const {
    std::string text;
    for (const std::string &function : functions)
      text += function;
    return text;
  }

  Random &rng;
  Coverage &coverage;
  /// The helper and inner functions built so far: a function only ever
  /// calls or maps finished ones, so programs are not recursive.
  std::vector<Callee> callees;
  /// The vmaps generated so far.
  std::vector<VmapSite> vmapSites;

private:
  std::vector<std::string> functions;
  unsigned numNames = 0;
};

/// Builds one function line by line. Parameters are created on demand: an
/// op that needs an operand of some type reuses a value in scope, makes a
/// constant, or adds a parameter.
class FunctionBuilder {
public:
  /// Depth 0 is the member, which @main maps: its parameters get batch
  /// axes. Helper and inner functions have depth 1 and more.
  FunctionBuilder(ModuleBuilder &module, std::string name, unsigned depth)
      : module(module), name(std::move(name)), depth(depth) {}

  ModuleBuilder &getModule() { return module; }
  const std::string &getName() const { return name; }
  Random &rng() { return module.rng; }
  unsigned getDepth() const { return depth; }
  const std::vector<Param> &getParams() const { return params; }

  /// Makes `sharing(i)` return `plan[i]` rather than `Any`.
  void forceSharing(std::vector<Sharing> plan) { forced = std::move(plan); }
  /// What the op being generated asks of its `i`-th principal operand.
  Sharing sharing(size_t i) const {
    return i < forced.size() ? forced[i] : Sharing::Any;
  }

  //===--------------------------------------------------------------------===//
  // Operands
  //===--------------------------------------------------------------------===//

  /// With `probability`, a value in scope that `accept`s and has the
  /// `sharing` asked for, preferring the most recent so that ops chain.
  std::optional<GenValue>
  findExisting(llvm::function_ref<bool(const GenValue &)> accept,
               Sharing sharing, double probability) {
    std::vector<GenValue> candidates;
    for (const GenValue &value : values)
      if (accept(value) && matches(value, sharing))
        candidates.push_back(value);
    if (candidates.empty() || !rng().coin(probability))
      return std::nullopt;
    return rng().coin(0.6) ? candidates.back() : rng().pick(candidates);
  }

  /// A value of one of `dtypes` with a rank in [minRank, maxRank].
  GenValue source(const std::vector<DType> &dtypes, int64_t minRank,
                  int64_t maxRank, Sharing sharing) {
    std::optional<GenValue> existing = findExisting(
        [&](const GenValue &v) {
          return llvm::is_contained(dtypes, v.type.dtype) &&
                 v.type.rank() >= minRank && v.type.rank() <= maxRank;
        },
        sharing, /*probability=*/0.85);
    if (existing)
      return bounded(*existing, kMaxBound);
    TensorType type{rng().shape(rng().integer(minRank, maxRank)),
                    rng().pick(dtypes)};
    return newParam(type, sharing);
  }

  /// A value of exactly `type`.
  GenValue operand(const TensorType &type, Sharing sharing) {
    std::optional<GenValue> existing =
        findExisting([&](const GenValue &v) { return v.type == type; }, sharing,
                     /*probability=*/0.6);
    if (existing)
      return bounded(*existing, kMaxBound);
    if (sharing != Sharing::Batched && rng().coin(0.2))
      return constant(type);
    return newParam(type, sharing);
  }

  /// A constant of `type`: `splat` everywhere, or random small values.
  GenValue constant(const TensorType &type,
                    std::optional<double> splat = std::nullopt) {
    std::vector<double> values;
    for (int64_t i = 0, e = numElements(type.shape); i < e; ++i) {
      if (splat)
        values.push_back(*splat);
      else if (type.dtype == DType::I1)
        values.push_back(rng().coin());
      else if (type.dtype == DType::I32)
        values.push_back(rng().integer(kI32InputMin, kI32InputMax));
      else
        values.push_back(0.25 * rng().integer(-8, 8));
    }
    double bound = 0;
    for (double v : values)
      bound = std::max(bound, std::fabs(v));
    std::string literal = splat ? denseLiteral({}, values, type.dtype)
                                : denseLiteral(type.shape, values, type.dtype);
    return emit("constant", {},
                "ens.constant dense<" + literal + "> : " + type.str(), type,
                bound);
  }

  /// `value`, squashed with tanh if it may exceed `limit`.
  GenValue bounded(const GenValue &value, double limit) {
    if (value.type.dtype != DType::F32 || value.bound <= limit)
      return value;
    return emitElementwise("tanh", {value}, 1);
  }

  /// `abs(value) + 0.5`: a valid operand of log, sqrt, rsqrt, pow and div.
  GenValue positive(const GenValue &value) {
    GenValue magnitude = emitElementwise("abs", {value}, value.bound);
    GenValue half = constant(value.type, 0.5);
    return emitElementwise("add", {magnitude, half}, value.bound + 0.5);
  }

  //===--------------------------------------------------------------------===//
  // Emission
  //===--------------------------------------------------------------------===//

  /// Emits `text`, an op of the single result `type`.
  GenValue emit(const std::string &mnemonic,
                const std::vector<GenValue> &operands, const std::string &text,
                const TensorType &type, double bound) {
    return emitResults(mnemonic, operands, text, {type}, {bound}).front();
  }

  /// Emits `text`, an op with results of `types`.
  std::vector<GenValue> emitResults(const std::string &mnemonic,
                                    const std::vector<GenValue> &operands,
                                    const std::string &text,
                                    const std::vector<TensorType> &types,
                                    const std::vector<double> &bounds) {
    std::string base = "%v" + std::to_string(ops.size());
    lines.push_back("  " + resultDef(base, types.size()) + text);
    bool batched = llvm::any_of(operands, [](auto &v) { return v.batched; });
    EmittedOp op{mnemonic, "", namesOf(operands),
                 resultNames(base, types.size())};
    for (const GenValue &operand : operands)
      op.signature += operand.batched ? 'B' : 'S';
    ops.push_back(std::move(op));
    std::vector<GenValue> results;
    for (auto [resultName, type, bound] :
         llvm::zip_equal(ops.back().results, types, bounds)) {
      results.push_back(
          {resultName, type, capBound(type.dtype, bound), batched});
      values.push_back(results.back());
    }
    return results;
  }

  /// `ens.<op> %a, %b : type` for an elementwise op of one type.
  GenValue emitElementwise(const std::string &op,
                           const std::vector<GenValue> &operands,
                           double bound) {
    const TensorType &type = operands.front().type;
    std::string text =
        "ens." + op + " " +
        join(operands, [](const GenValue &v) { return v.name; }) + " : " +
        type.str();
    return emit(op, operands, text, type, bound);
  }

  //===--------------------------------------------------------------------===//
  // Finishing
  //===--------------------------------------------------------------------===//

  /// The last value, which the last op produced, and usually an op result
  /// that nothing uses yet, or sometimes any other value.
  std::vector<GenValue> pickResults() {
    std::vector<GenValue> results = {values.back()};
    std::set<std::string> used;
    for (const EmittedOp &op : ops)
      used.insert(op.operands.begin(), op.operands.end());
    std::vector<GenValue> unused;
    for (const GenValue &value : llvm::drop_end(values))
      if (!used.count(value.name) && !isParam(value))
        unused.push_back(value);
    if (!unused.empty() && rng().coin(0.8))
      results.push_back(rng().pick(unused));
    else if (rng().coin(0.3))
      results.push_back(rng().pick(values));
    return results;
  }

  /// Adds the function returning `results` to the module.
  void finish(const std::vector<GenValue> &results) {
    std::vector<TensorType> resultTypes;
    for (const GenValue &result : results)
      resultTypes.push_back(result.type);
    std::string text = "func.func @" + name + "(" +
                       join(params,
                            [](const Param &p) {
                              return p.value.name + ": " + p.value.type.str();
                            }) +
                       ") -> (" + typeList(resultTypes) + ") {\n";
    for (const std::string &line : lines)
      text += line + "\n";
    text += "  return " +
            join(results, [](const GenValue &v) { return v.name; }) + " : " +
            typeList(resultTypes) + "\n}\n";
    module.addFunction(std::move(text));
    recordCoverage(results);
    if (depth != 0) {
      Callee callee{name, {}, results};
      for (const Param &param : params)
        callee.params.push_back(param.value.type);
      module.callees.push_back(std::move(callee));
    }
  }

private:
  bool isParam(const GenValue &value) const {
    return llvm::any_of(
        params, [&](const Param &p) { return p.value.name == value.name; });
  }

  static bool matches(const GenValue &value, Sharing sharing) {
    return sharing == Sharing::Any ||
           value.batched == (sharing == Sharing::Batched);
  }

  static double capBound(DType dtype, double bound) {
    if (dtype == DType::I1)
      return 1;
    if (dtype == DType::I32)
      return std::min(bound, kI32Bound);
    return bound;
  }

  /// The bound the body may assume of a parameter: the member sees the test
  /// inputs, helpers what their callers pass.
  double paramBound(DType dtype) const {
    switch (dtype) {
    case DType::I1:
      return 1;
    case DType::I32:
      return depth == 0 ? std::max(-kI32InputMin, kI32InputMax) : kI32Bound;
    default:
      return depth == 0 ? kF32InputBound : kHelperBound;
    }
  }

  GenValue newParam(const TensorType &type, Sharing sharing) {
    int64_t axis = -1;
    if (depth == 0) {
      bool shared = sharing == Sharing::Shared ||
                    (sharing == Sharing::Any && rng().coin(0.3));
      if (!shared)
        axis = rng().integer(0, type.rank());
    }
    GenValue value{"%p" + std::to_string(params.size()), type,
                   paramBound(type.dtype), axis != -1};
    params.push_back({value, axis});
    values.push_back(value);
    return value;
  }

  /// Records every op, and which are live: those whose results `results`
  /// depend on.
  void recordCoverage(const std::vector<GenValue> &results) {
    std::set<std::string> live;
    for (const GenValue &result : results)
      live.insert(result.name);
    for (const EmittedOp &op : llvm::reverse(ops)) {
      OpCoverage &entry = module.coverage[op.mnemonic];
      ++entry.emitted;
      if (llvm::none_of(op.results,
                        [&](const std::string &r) { return live.count(r); }))
        continue;
      live.insert(op.operands.begin(), op.operands.end());
      ++entry.live;
      if (depth == 0)
        entry.signatures.insert(op.signature);
    }
  }

  ModuleBuilder &module;
  std::string name;
  unsigned depth;
  std::vector<Sharing> forced;
  std::vector<Param> params;
  std::vector<GenValue> values;
  std::vector<std::string> lines;
  struct EmittedOp {
    std::string mnemonic;
    /// B or S for each operand.
    std::string signature;
    std::vector<std::string> operands, results;
  };
  std::vector<EmittedOp> ops;
};

//===----------------------------------------------------------------------===//
// Op generators
//===----------------------------------------------------------------------===//

/// add, sub, mul, max and min on f32 or i32.
void genArithmetic(FunctionBuilder &b, const std::string &op) {
  GenValue lhs = b.source(kNumeric, 0, 4, b.sharing(0));
  GenValue rhs = b.operand(lhs.type, b.sharing(1));
  double bound = std::max(lhs.bound, rhs.bound);
  if (op == "add" || op == "sub")
    bound = lhs.bound + rhs.bound;
  else if (op == "mul")
    bound = lhs.bound * rhs.bound;
  b.emitElementwise(op, {lhs, rhs}, bound);
}

/// Divides by a positive divisor.
void genDiv(FunctionBuilder &b) {
  GenValue lhs = b.source(kFloat, 0, 4, b.sharing(0));
  GenValue rhs = b.positive(b.operand(lhs.type, b.sharing(1)));
  b.emitElementwise("div", {lhs, rhs}, lhs.bound / 0.5);
}

/// A positive base to a small exponent.
void genPow(FunctionBuilder &b) {
  GenValue base =
      b.positive(b.bounded(b.source(kFloat, 0, 4, b.sharing(0)), kExpLimit));
  GenValue exponent = b.bounded(b.operand(base.type, b.sharing(1)), 3);
  double bound = std::max(std::pow(base.bound, exponent.bound),
                          std::pow(2.0, exponent.bound));
  b.emitElementwise("pow", {base, exponent}, bound);
}

/// Where a unary op's operand must lie.
enum class Domain { Any, Small, Positive };

void genUnary(FunctionBuilder &b, const std::string &op,
              const std::vector<DType> &dtypes, Domain domain,
              double (*bound)(double)) {
  GenValue x = b.source(dtypes, 0, 4, b.sharing(0));
  if (domain == Domain::Small)
    x = b.bounded(x, kExpLimit);
  else if (domain == Domain::Positive)
    x = b.positive(x);
  b.emitElementwise(op, {x}, bound(x.bound));
}

/// A mask comparing two numeric values.
GenValue emitCmp(FunctionBuilder &b, Sharing lhsSharing, Sharing rhsSharing) {
  GenValue lhs = b.source(kNumeric, 0, 4, lhsSharing);
  GenValue rhs = b.operand(lhs.type, rhsSharing);
  static const std::vector<std::string> predicates = {"lt", "le", "gt",
                                                      "ge", "eq", "ne"};
  std::string text =
      llvm::formatv("ens.cmp {0}, {1}, {2} : {3}", b.rng().pick(predicates),
                    lhs.name, rhs.name, lhs.type.str());
  return b.emit("cmp", {lhs, rhs}, text, {lhs.type.shape, DType::I1}, 1);
}

void genCmp(FunctionBuilder &b) { emitCmp(b, b.sharing(0), b.sharing(1)); }

/// Chooses by a mask, a fresh comparison or a value in scope.
void genSelect(FunctionBuilder &b) {
  Sharing maskSharing = b.sharing(0);
  GenValue mask = b.rng().coin()
                      ? emitCmp(b, maskSharing,
                                maskSharing == Sharing::Shared ? Sharing::Shared
                                                               : Sharing::Any)
                      : b.source({DType::I1}, 0, 4, maskSharing);
  TensorType type{mask.type.shape, b.rng().pick(kAnyType)};
  GenValue onTrue = b.operand(type, b.sharing(1));
  GenValue onFalse = b.operand(type, b.sharing(2));
  std::string text =
      llvm::formatv("ens.select {0}, {1}, {2} : {3}, {4}", mask.name,
                    onTrue.name, onFalse.name, mask.type.str(), type.str());
  b.emit("select", {mask, onTrue, onFalse}, text, type,
         std::max(onTrue.bound, onFalse.bound));
}

void genConvert(FunctionBuilder &b) {
  GenValue x = b.source(kAnyType, 0, 4, b.sharing(0));
  std::vector<DType> targets;
  for (DType dtype : {DType::F32, DType::I32, DType::I1})
    if (dtype != x.type.dtype)
      targets.push_back(dtype);
  TensorType type{x.type.shape, b.rng().pick(targets)};
  double bound = x.bound;
  if (x.type.dtype == DType::F32 && type.dtype == DType::I32)
    bound = std::floor(bound);
  b.emit("convert", {x},
         "ens.convert " + x.name + " : " + x.type.str() + " -> " + type.str(),
         type, bound);
}

/// A constant combined, on either side, with a value in scope.
void genConstant(FunctionBuilder &b) {
  GenValue x = b.source(kNumeric, 0, 4, b.sharing(0));
  GenValue c = b.constant(x.type);
  static const std::vector<std::string> ops = {"add", "sub", "mul", "max",
                                               "min"};
  const std::string &op = b.rng().pick(ops);
  double bound = op == "mul"
                     ? x.bound * c.bound
                     : (op == "max" || op == "min" ? std::max(x.bound, c.bound)
                                                   : x.bound + c.bound);
  if (b.rng().coin())
    std::swap(x, c);
  b.emitElementwise(op, {x, c}, bound);
}

/// One unary op on `x` of attribute `attrs` and result `type`, written
/// `ens.<op> %x {attrs} : T -> R` (or `: T` when `sameType`).
GenValue emitShapeOp(FunctionBuilder &b, const std::string &op,
                     const GenValue &x, const std::string &attrs,
                     const TensorType &type, double bound,
                     bool sameType = false) {
  std::string text = "ens." + op + " " + x.name +
                     (attrs.empty() ? "" : " {" + attrs + "}") + " : " +
                     x.type.str() + (sameType ? "" : " -> " + type.str());
  return b.emit(op, {x}, text, type, bound);
}

/// Maps each operand dimension to a random result dimension, broadcasting
/// those of size 1 and adding new ones.
void genBroadcastInDim(FunctionBuilder &b) {
  GenValue x = b.source(kAnyType, 0, 3, b.sharing(0));
  int64_t rank = b.rng().integer(x.type.rank(), 4);
  Shape dims = b.rng().permutation(rank);
  dims.resize(x.type.rank());
  TensorType type{b.rng().shape(rank), x.type.dtype};
  for (auto [size, dim] : llvm::zip_equal(x.type.shape, dims))
    if (size != 1)
      type.shape[dim] = size;
  emitShapeOp(b, "broadcast_in_dim", x, "dims = " + i64Array(dims), type,
              x.bound);
}

/// Reshapes to a random factorisation of the element count.
void genReshape(FunctionBuilder &b) {
  GenValue x = b.source(kAnyType, 0, 4, b.sharing(0));
  int64_t remaining = numElements(x.type.shape);
  int64_t rank = b.rng().integer(remaining == 1 ? 0 : 1, 4);
  Shape shape;
  for (int64_t d = 0; d + 1 < rank; ++d) {
    Shape divisors;
    for (int64_t k = 1; k <= remaining; ++k)
      if (remaining % k == 0)
        divisors.push_back(k);
    shape.push_back(b.rng().pick(divisors));
    remaining /= shape.back();
  }
  if (rank > 0)
    shape.push_back(remaining);
  b.rng().shuffle(shape);
  emitShapeOp(b, "reshape", x, "", {shape, x.type.dtype}, x.bound);
}

void genTranspose(FunctionBuilder &b) {
  GenValue x = b.source(kAnyType, 0, 4, b.sharing(0));
  Shape permutation = b.rng().permutation(x.type.rank());
  TensorType type{{}, x.type.dtype};
  for (int64_t d : permutation)
    type.shape.push_back(x.type.shape[d]);
  emitShapeOp(b, "transpose", x, "permutation = " + i64Array(permutation), type,
              x.bound);
}

/// A non-empty strided box.
void genSlice(FunctionBuilder &b) {
  GenValue x = b.source(kAnyType, 0, 4, b.sharing(0));
  Shape start, limit, stride;
  TensorType type{{}, x.type.dtype};
  for (int64_t size : x.type.shape) {
    start.push_back(b.rng().integer(0, size - 1));
    limit.push_back(b.rng().integer(start.back() + 1, size));
    stride.push_back(b.rng().integer(1, 3));
    type.shape.push_back((limit.back() - start.back() - 1) / stride.back() + 1);
  }
  std::string attrs = "start = " + i64Array(start) +
                      ", limit = " + i64Array(limit) +
                      ", stride = " + i64Array(stride);
  emitShapeOp(b, "slice", x, attrs, type, x.bound);
}

/// Joins 2 or 3 values along a random dimension.
void genConcat(FunctionBuilder &b) {
  GenValue first = b.source(kAnyType, 1, 4, b.sharing(0));
  int64_t dim = b.rng().integer(0, first.type.rank() - 1);
  std::vector<GenValue> inputs = {first};
  TensorType type = first.type;
  for (size_t i = 1, e = b.rng().integer(2, 3); i < e; ++i) {
    TensorType inputType = first.type;
    inputType.shape[dim] = b.rng().integer(1, 4);
    inputs.push_back(b.operand(inputType, b.sharing(i)));
    type.shape[dim] += inputType.shape[dim];
  }
  if (b.rng().coin())
    b.rng().shuffle(inputs);
  double bound = 0;
  std::vector<TensorType> types;
  for (const GenValue &input : inputs) {
    bound = std::max(bound, input.bound);
    types.push_back(input.type);
  }
  std::string text =
      llvm::formatv("ens.concat {0} {{dim = {1} : i64} : {2} -> {3}",
                    join(inputs, [](const GenValue &v) { return v.name; }), dim,
                    typeList(types), type.str());
  b.emit("concat", inputs, text, type, bound);
}

/// Gathers with i32 indices, which may be out of range (take clamps them).
void genTake(FunctionBuilder &b) {
  GenValue table = b.source(kAnyType, 1, 4, b.sharing(0));
  int64_t axis = b.rng().integer(0, table.type.rank() - 1);
  int64_t maxIndexRank = std::min<int64_t>(3, 5 - table.type.rank());
  GenValue indices = b.source({DType::I32}, 0, maxIndexRank, b.sharing(1));
  TensorType type{
      Shape(table.type.shape.begin(), table.type.shape.begin() + axis),
      table.type.dtype};
  llvm::append_range(type.shape, indices.type.shape);
  type.shape.insert(type.shape.end(), table.type.shape.begin() + axis + 1,
                    table.type.shape.end());
  std::string text = llvm::formatv(
      "ens.take {0}, {1} {{axis = {2} : i64} : {3}, {4} -> {5}", table.name,
      indices.name, axis, table.type.str(), indices.type.str(), type.str());
  b.emit("take", {table, indices}, text, type, table.bound);
}

void genOneHot(FunctionBuilder &b) {
  GenValue indices = b.source({DType::I32}, 0, 3, b.sharing(0));
  TensorType type{indices.type.shape, b.rng().pick(kNumeric)};
  type.shape.push_back(b.rng().integer(1, 5));
  emitShapeOp(b, "one_hot", indices, "", type, 1);
}

/// Zeros before, after and between the elements of each dimension.
void genPad(FunctionBuilder &b) {
  GenValue x = b.source(kAnyType, 0, 4, b.sharing(0));
  Shape low, high, interior;
  TensorType type{{}, x.type.dtype};
  for (int64_t size : x.type.shape) {
    low.push_back(b.rng().integer(0, 2));
    high.push_back(b.rng().integer(0, 2));
    interior.push_back(b.rng().integer(0, 2));
    type.shape.push_back(low.back() + size + (size - 1) * interior.back() +
                         high.back());
  }
  std::string attrs = "low = " + i64Array(low) + ", high = " + i64Array(high) +
                      ", interior = " + i64Array(interior);
  emitShapeOp(b, "pad", x, attrs, type, x.bound);
}

/// Adds updates into rows of a zero table at clamped indices: the updates'
/// dimensions split into the table's leading dims, the indices' dims and
/// the table's trailing dims.
void genScatterAdd(FunctionBuilder &b) {
  GenValue updates = b.source(kNumeric, 0, 4, b.sharing(0));
  const Shape &shape = updates.type.shape;
  int64_t rank = shape.size();
  // The table has rank `rank - indexRank + 1`, at most 4.
  int64_t minIndexRank = std::max<int64_t>(0, rank - 3);
  int64_t axis = b.rng().integer(0, rank - minIndexRank);
  int64_t indexRank = b.rng().integer(minIndexRank, rank - axis);
  TensorType indexType{
      Shape(shape.begin() + axis, shape.begin() + axis + indexRank),
      DType::I32};
  TensorType type{Shape(shape.begin(), shape.begin() + axis),
                  updates.type.dtype};
  type.shape.push_back(b.rng().integer(1, 4));
  type.shape.insert(type.shape.end(), shape.begin() + axis + indexRank,
                    shape.end());
  GenValue indices = b.operand(indexType, b.sharing(1));
  std::string text = llvm::formatv(
      "ens.scatter_add {0}, {1} {{axis = {2} : i64} : {3}, {4} -> {5}",
      updates.name, indices.name, axis, updates.type.str(), indices.type.str(),
      type.str());
  b.emit("scatter_add", {updates, indices}, text, type,
         updates.bound * numElements(indexType.shape));
}

/// A batch of 0 to `maxBatchRank` dimensions of random keys,
/// `tensor<...x2xi32>`.
GenValue keys(FunctionBuilder &b, Sharing sharing, int64_t maxBatchRank) {
  std::optional<GenValue> existing = b.findExisting(
      [&](const GenValue &v) {
        return v.type.dtype == DType::I32 && v.type.rank() >= 1 &&
               v.type.rank() <= maxBatchRank + 1 && v.type.shape.back() == 2;
      },
      sharing, /*probability=*/0.6);
  if (existing)
    return *existing;
  Shape shape = b.rng().shape(b.rng().integer(0, maxBatchRank));
  shape.push_back(2);
  return b.operand({shape, DType::I32}, sharing);
}

/// random_uniform and random_normal: each key draws a block of any shape.
void genDraw(FunctionBuilder &b, const std::string &op) {
  GenValue key = keys(b, b.sharing(0), 2);
  TensorType type{Shape(key.type.shape.begin(), key.type.shape.end() - 1),
                  DType::F32};
  llvm::append_range(type.shape,
                     b.rng().shape(b.rng().integer(0, 4 - type.rank())));
  // A normal draw is at most sqrt(-2 log(2^-23)) < 6 in magnitude.
  emitShapeOp(b, op, key, "", type, op == "random_uniform" ? 1 : 6);
}

void genRandomSplit(FunctionBuilder &b) {
  GenValue key = keys(b, b.sharing(0), 2);
  TensorType type = key.type;
  type.shape.insert(type.shape.end() - 1, b.rng().integer(1, 3));
  emitShapeOp(b, "random_split", key, "", type, kI32Bound);
}

void genRandomFoldIn(FunctionBuilder &b) {
  GenValue key = keys(b, b.sharing(0), 3);
  TensorType dataType{Shape(key.type.shape.begin(), key.type.shape.end() - 1),
                      DType::I32};
  GenValue data = b.operand(dataType, b.sharing(1));
  std::string text =
      llvm::formatv("ens.random_fold_in {0}, {1} : {2}, {3} -> {2}", key.name,
                    data.name, key.type.str(), dataType.str());
  b.emit("random_fold_in", {key, data}, text, key.type, kI32Bound);
}

/// reduce_sum, reduce_max, reduce_mean and logsumexp over a random subset
/// of the dimensions, in random order.
void genReduce(FunctionBuilder &b, const std::string &op) {
  bool floatOnly = op == "reduce_mean" || op == "logsumexp";
  GenValue x = b.source(floatOnly ? kFloat : kNumeric, 0, 4, b.sharing(0));
  Shape dims;
  TensorType type{{}, x.type.dtype};
  int64_t count = 1;
  for (int64_t d = 0; d < x.type.rank(); ++d) {
    if (b.rng().coin()) {
      dims.push_back(d);
      count *= x.type.shape[d];
    } else {
      type.shape.push_back(x.type.shape[d]);
    }
  }
  b.rng().shuffle(dims);
  double bound = x.bound;
  if (op == "reduce_sum")
    bound *= count;
  else if (op == "logsumexp")
    bound += std::log(count);
  emitShapeOp(b, op, x, "dims = " + i64Array(dims), type, bound);
}

void genSoftmax(FunctionBuilder &b, const std::string &op) {
  GenValue x = b.source(kFloat, 1, 4, b.sharing(0));
  int64_t dim = b.rng().integer(0, x.type.rank() - 1);
  double bound =
      op == "softmax" ? 1 : 2 * x.bound + std::log(x.type.shape[dim]);
  emitShapeOp(b, op, x, "dim = " + std::to_string(dim) + " : i64", x.type,
              bound, /*sameType=*/true);
}

/// `ens.<op> %lhs, %rhs {attrs} : L, R -> type`.
void emitContraction(FunctionBuilder &b, const std::string &op,
                     const GenValue &lhs, const GenValue &rhs,
                     const std::string &attrs, const TensorType &type,
                     int64_t summed) {
  std::string text = "ens." + op + " " + lhs.name + ", " + rhs.name +
                     (attrs.empty() ? "" : " {" + attrs + "}") + " : " +
                     lhs.type.str() + ", " + rhs.type.str() + " -> " +
                     type.str();
  b.emit(op, {lhs, rhs}, text, type, lhs.bound * rhs.bound * summed);
}

/// Random labels from the whole alphabet: the rhs shares some of the lhs's
/// and adds its own; the output keeps a random subset in random order, so
/// labels may be contracted, batch-like, or summed within one operand.
void genEinsum(FunctionBuilder &b) {
  GenValue lhs = b.source(kNumeric, 0, 4, b.sharing(0));
  std::string letters = "abcdefghijklmnopqrstuvwxyz";
  b.rng().shuffle(letters);
  std::map<char, int64_t> sizes;
  std::string lhsLabels = letters.substr(0, lhs.type.rank());
  for (auto [label, size] : llvm::zip_equal(lhsLabels, lhs.type.shape))
    sizes[label] = size;
  std::string rhsLabels;
  for (char label : lhsLabels)
    if (b.rng().coin())
      rhsLabels += label;
  int64_t fresh =
      b.rng().integer(0, std::min<int64_t>(2, 4 - rhsLabels.size()));
  for (int64_t i = 0; i < fresh; ++i) {
    char label = letters[lhsLabels.size() + i];
    sizes[label] = b.rng().integer(1, 4);
    rhsLabels += label;
  }
  b.rng().shuffle(rhsLabels);
  std::string outLabels;
  for (auto [label, size] : sizes)
    if (outLabels.size() < 4 && b.rng().coin())
      outLabels += label;
  b.rng().shuffle(outLabels);

  TensorType rhsType{{}, lhs.type.dtype}, type{{}, lhs.type.dtype};
  for (char label : rhsLabels)
    rhsType.shape.push_back(sizes[label]);
  for (char label : outLabels)
    type.shape.push_back(sizes[label]);
  int64_t summed = 1;
  for (auto [label, size] : sizes)
    if (outLabels.find(label) == std::string::npos)
      summed *= size;
  GenValue rhs = b.operand(rhsType, b.sharing(1));
  if (b.rng().coin()) {
    std::swap(lhs, rhs);
    std::swap(lhsLabels, rhsLabels);
  }
  std::string spec = lhsLabels + "," + rhsLabels + "->" + outLabels;
  emitContraction(b, "einsum", lhs, rhs, "spec = \"" + spec + "\"", type,
                  summed);
}

/// Contracts any number of dimension pairs, in any order.
void genTensordot(FunctionBuilder &b) {
  GenValue lhs = b.source(kNumeric, 0, 4, b.sharing(0));
  int64_t rank = lhs.type.rank();
  int64_t contracted = b.rng().integer(0, rank);
  int64_t free =
      b.rng().integer(0, std::min(4 - contracted, 4 - (rank - contracted)));
  Shape lhsDims = b.rng().permutation(rank);
  lhsDims.resize(contracted);
  Shape rhsDims = b.rng().permutation(contracted + free);
  rhsDims.resize(contracted);
  TensorType rhsType{b.rng().shape(contracted + free), lhs.type.dtype};
  int64_t summed = 1;
  for (auto [l, r] : llvm::zip_equal(lhsDims, rhsDims)) {
    rhsType.shape[r] = lhs.type.shape[l];
    summed *= lhs.type.shape[l];
  }
  TensorType type{{}, lhs.type.dtype};
  for (int64_t d = 0; d < rank; ++d)
    if (!llvm::is_contained(lhsDims, d))
      type.shape.push_back(lhs.type.shape[d]);
  for (int64_t d = 0; d < rhsType.rank(); ++d)
    if (!llvm::is_contained(rhsDims, d))
      type.shape.push_back(rhsType.shape[d]);
  GenValue rhs = b.operand(rhsType, b.sharing(1));
  std::string attrs =
      "lhs_dims = " + i64Array(lhsDims) + ", rhs_dims = " + i64Array(rhsDims);
  emitContraction(b, "tensordot", lhs, rhs, attrs, type, summed);
}

/// A 1-D or 2-D convolution in a random layout with random strides,
/// padding, dilations and feature groups (TestSupport's randomConv), so
/// that every batching case (input, filters or both batched) meets them.
void genConv(FunctionBuilder &b) {
  test::RandomSource source(b.rng().integer(0, 1 << 30));
  test::RandomConv conv = test::randomConv(source, b.rng().integer(1, 2));
  GenValue lhs = b.operand({conv.lhsShape, DType::F32}, b.sharing(0));
  GenValue rhs = b.operand({conv.rhsShape, DType::F32}, b.sharing(1));
  int64_t summed = numElements(conv.rhsShape) / conv.rhsShape[conv.rhsDims[0]];
  emitContraction(b, "conv", lhs, rhs, conv.attributes(),
                  {conv.outShape, DType::F32}, summed);
}

/// Max or sum pooling with a random window, strides and padding per dim.
void genReduceWindow(FunctionBuilder &b, const std::string &kind) {
  GenValue x = b.source(kFloat, 1, 4, b.sharing(0));
  Shape window, strides, padding;
  TensorType type{{}, x.type.dtype};
  int64_t count = 1;
  for (int64_t size : x.type.shape) {
    window.push_back(b.rng().integer(1, std::min<int64_t>(3, size)));
    strides.push_back(b.rng().integer(1, 2));
    padding.push_back(b.rng().integer(0, window.back() - 1));
    padding.push_back(b.rng().integer(0, window.back() - 1));
    type.shape.push_back(
        (size + padding[padding.size() - 2] + padding.back() - window.back()) /
            strides.back() +
        1);
    count *= window.back();
  }
  std::string text = "ens.reduce_window " + kind + ", " + x.name +
                     " {window_dimensions = " + i64Array(window) +
                     ", window_strides = " + i64Array(strides) +
                     ", padding = " + i64Array(padding) +
                     "} : " + x.type.str() + " -> " + type.str();
  b.emit("reduce_window", {x}, text, type,
         kind == "max" ? x.bound : x.bound * count);
}

/// An lhs for matmul with batch dimensions of size 1 to broadcast, or a
/// vector.
TensorType broadcastingMatmulLhs(Random &rng) {
  TensorType type{rng.shape(rng.coin(0.25) ? 1 : rng.integer(2, 4)),
                  rng.pick(kNumeric)};
  for (int64_t d = 0; d + 2 < type.rank(); ++d)
    if (rng.coin(0.5))
      type.shape[d] = 1;
  return type;
}

/// numpy.matmul with vector operands and broadcasting batch dimensions, as
/// in [2, 1, 3, 4] x [5, 4, 2] -> [2, 5, 3, 2].
void genMatmul(FunctionBuilder &b) {
  GenValue lhs = b.rng().coin()
                     ? b.source(kNumeric, 1, 4, b.sharing(0))
                     : b.operand(broadcastingMatmulLhs(b.rng()), b.sharing(0));
  const Shape &lhsShape = lhs.type.shape;
  bool lhsVector = lhsShape.size() == 1;
  int64_t k = lhsShape.back();
  Shape lhsBatch(lhsShape.begin(), lhsShape.end() - (lhsVector ? 1 : 2));
  bool rhsVector = b.rng().coin(0.25);
  Shape rhsBatch = b.rng().shape(rhsVector ? 0 : b.rng().integer(0, 2));
  // Right-aligned batch dimensions must be equal, or one of them 1.
  for (size_t i = 0; i < rhsBatch.size(); ++i) {
    int64_t l = static_cast<int64_t>(lhsBatch.size()) -
                static_cast<int64_t>(rhsBatch.size()) + i;
    if (l >= 0 && lhsBatch[l] != 1)
      rhsBatch[i] = b.rng().coin(0.3) ? 1 : lhsBatch[l];
  }
  TensorType rhsType{rhsBatch, lhs.type.dtype};
  rhsType.shape.push_back(k);
  if (!rhsVector)
    rhsType.shape.push_back(b.rng().integer(1, 4));

  size_t batchRank = std::max(lhsBatch.size(), rhsBatch.size());
  TensorType type{{}, lhs.type.dtype};
  for (size_t i = 0; i < batchRank; ++i) {
    auto sizeIn = [&](const Shape &batch) -> int64_t {
      size_t offset = batchRank - batch.size();
      return i < offset ? 1 : batch[i - offset];
    };
    type.shape.push_back(std::max(sizeIn(lhsBatch), sizeIn(rhsBatch)));
  }
  if (!lhsVector)
    type.shape.push_back(lhsShape[lhsShape.size() - 2]);
  if (!rhsVector)
    type.shape.push_back(rhsType.shape.back());
  GenValue rhs = b.operand(rhsType, b.sharing(1));
  emitContraction(b, "matmul", lhs, rhs, "", type, k);
}

void runChain(FunctionBuilder &b, int64_t length);

std::vector<TensorType> typesOf(const std::vector<GenValue> &values) {
  std::vector<TensorType> types;
  for (const GenValue &value : values)
    types.push_back(value.type);
  return types;
}

std::vector<double> boundsOf(const std::vector<GenValue> &values) {
  std::vector<double> bounds;
  for (const GenValue &value : values)
    bounds.push_back(value.bound);
  return bounds;
}

/// Sometimes a function built before, so that one function is called and
/// mapped with different batch axes; otherwise a new one of 1 to 3 random
/// ops at the next depth.
Callee pickCallee(FunctionBuilder &b, const std::string &prefix) {
  ModuleBuilder &module = b.getModule();
  if (!module.callees.empty() && b.rng().coin(0.3))
    return b.rng().pick(module.callees);
  FunctionBuilder callee(module, module.uniqueName(prefix), b.getDepth() + 1);
  runChain(callee, b.rng().integer(1, 3));
  callee.finish(callee.pickResults());
  return module.callees.back();
}

/// Operands of `types` for a callee, squashed to what callees assume.
std::vector<GenValue> calleeOperands(FunctionBuilder &b,
                                     const std::vector<TensorType> &types) {
  std::vector<GenValue> operands;
  for (auto [i, type] : llvm::enumerate(types))
    operands.push_back(b.bounded(b.operand(type, b.sharing(i)), kHelperBound));
  return operands;
}

/// A func.call of a helper function.
void genCall(FunctionBuilder &b) {
  Callee callee = pickCallee(b, "helper");
  std::vector<GenValue> args = calleeOperands(b, callee.params);
  std::vector<TensorType> resultTypes = typesOf(callee.results);
  std::string text =
      llvm::formatv("func.call @{0}({1}) : ({2}) -> ({3})", callee.name,
                    join(args, [](const GenValue &v) { return v.name; }),
                    typeList(callee.params), typeList(resultTypes));
  b.emitResults("call", args, text, resultTypes, boundsOf(callee.results));
}

/// A vmap of an inner function with random in_axes (-1 for a third of the
/// arguments), size and randomness.
VmapSite randomVmapSite(FunctionBuilder &b) {
  VmapSite site{pickCallee(b, "inner"),
                {},
                b.rng().integer(1, 4),
                randomRandomness(b.rng())};
  for (const TensorType &param : site.callee.params)
    site.inAxes.push_back(b.rng().coin(0.3) ? -1
                                            : b.rng().integer(0, param.rank()));
  return site;
}

/// An earlier vmap's signature, kept or changed in exactly one of size,
/// randomness and one in_axis, so that ens-batch's cache of generated
/// functions must tell them apart (or share one).
VmapSite variantVmapSite(FunctionBuilder &b) {
  VmapSite site = b.rng().pick(b.getModule().vmapSites);
  switch (b.rng().integer(0, 3)) {
  case 0:
    break;
  case 1:
    site.size = site.size % 4 + 1;
    break;
  case 2:
    site.randomness = site.randomness == "same" ? "" : "same";
    break;
  default:
    if (site.inAxes.empty())
      break;
    size_t i = b.rng().integer(0, site.inAxes.size() - 1);
    site.inAxes[i] =
        (site.inAxes[i] + 2) % (site.callee.params[i].rank() + 2) - 1;
  }
  return site;
}

/// An ens.vmap, random or a variant of an earlier one, with random out_axes.
void genVmap(FunctionBuilder &b) {
  ModuleBuilder &module = b.getModule();
  VmapSite site = !module.vmapSites.empty() && b.rng().coin(0.3)
                      ? variantVmapSite(b)
                      : randomVmapSite(b);
  module.vmapSites.push_back(site);
  Shape outAxes;
  std::vector<TensorType> argTypes, resultTypes;
  for (auto [param, axis] : llvm::zip_equal(site.callee.params, site.inAxes))
    argTypes.push_back(withBatchDim(param, axis, site.size));
  for (const GenValue &result : site.callee.results) {
    outAxes.push_back(b.rng().integer(0, result.type.rank()));
    resultTypes.push_back(withBatchDim(result.type, outAxes.back(), site.size));
  }
  std::vector<GenValue> args = calleeOperands(b, argTypes);
  std::string text =
      vmapOp(site.callee.name, namesOf(args), argTypes, site.inAxes, outAxes,
             resultTypes, site.size, site.randomness);
  b.emitResults("vmap", args, text, resultTypes, boundsOf(site.callee.results));
}

struct OpGenerator {
  /// The mnemonic of the op generated (func.call is "call").
  std::string name;
  std::function<void(FunctionBuilder &)> generate;
  /// Whether the op has several principal operands, each of which the
  /// per-op test batches or shares in every combination.
  bool mixesOperands = false;
  /// Whether the op needs a function of its own, which bounds nesting.
  bool nests = false;
};

/// One generator per op kind of ens.
const std::vector<OpGenerator> &generators() {
  static const std::vector<OpGenerator> table = [] {
    std::vector<OpGenerator> table;
    auto add = [&](std::string name, std::function<void(FunctionBuilder &)> fn,
                   bool mixesOperands = false, bool nests = false) {
      table.push_back({std::move(name), std::move(fn), mixesOperands, nests});
    };
    for (std::string op : {"add", "sub", "mul", "max", "min"})
      add(
          op, [op](FunctionBuilder &b) { genArithmetic(b, op); }, true);
    add("div", genDiv, true);
    add("pow", genPow, true);

    auto unary = [&](std::string op, const std::vector<DType> &dtypes,
                     Domain domain, double (*bound)(double)) {
      add(op,
          [=](FunctionBuilder &b) { genUnary(b, op, dtypes, domain, bound); });
    };
    auto same = [](double x) { return x; };
    auto one = [](double) { return 1.0; };
    unary("neg", kNumeric, Domain::Any, same);
    unary("abs", kNumeric, Domain::Any, same);
    unary("square", kNumeric, Domain::Any, [](double x) { return x * x; });
    unary("exp", kFloat, Domain::Small, [](double x) { return std::exp(x); });
    unary("log", kFloat, Domain::Positive,
          [](double x) { return std::max(std::log(x), std::log(2.0)); });
    unary("tanh", kFloat, Domain::Any, one);
    unary("sigmoid", kFloat, Domain::Any, one);
    unary("relu", kFloat, Domain::Any, same);
    unary("sqrt", kFloat, Domain::Positive,
          [](double x) { return std::sqrt(x); });
    unary("rsqrt", kFloat, Domain::Positive,
          [](double) { return std::sqrt(2.0); });

    add("cmp", genCmp, true);
    add("select", genSelect, true);
    add("convert", genConvert);
    add("constant", genConstant);
    add("broadcast_in_dim", genBroadcastInDim);
    add("reshape", genReshape);
    add("transpose", genTranspose);
    add("slice", genSlice);
    add("concat", genConcat, true);
    add("take", genTake, true);
    add("one_hot", genOneHot);
    add("pad", genPad);
    add("scatter_add", genScatterAdd, true);
    for (std::string op : {"random_uniform", "random_normal"})
      add(op, [op](FunctionBuilder &b) { genDraw(b, op); });
    add("random_split", genRandomSplit);
    add("random_fold_in", genRandomFoldIn, true);
    for (std::string op :
         {"reduce_sum", "reduce_max", "reduce_mean", "logsumexp"})
      add(op, [op](FunctionBuilder &b) { genReduce(b, op); });
    for (std::string op : {"softmax", "log_softmax"})
      add(op, [op](FunctionBuilder &b) { genSoftmax(b, op); });
    add("einsum", genEinsum, true);
    add("tensordot", genTensordot, true);
    add("matmul", genMatmul, true);
    add("conv", genConv, true);
    add("reduce_window", [](FunctionBuilder &b) {
      genReduceWindow(b, b.rng().coin() ? "max" : "add");
    });
    add("call", genCall, false, /*nests=*/true);
    add("vmap", genVmap, false, /*nests=*/true);
    return table;
  }();
  return table;
}

/// Appends `length` random ops to `b`.
void runChain(FunctionBuilder &b, int64_t length) {
  const std::vector<OpGenerator> &table = generators();
  for (int64_t i = 0; i < length; ++i) {
    const OpGenerator *generator = &b.rng().pick(table);
    while (generator->nests && b.getDepth() >= kMaxNestingDepth)
      generator = &b.rng().pick(table);
    generator->generate(b);
  }
}

//===----------------------------------------------------------------------===//
// Whole programs
//===----------------------------------------------------------------------===//

struct Program {
  std::string text;
  /// The argument types of @main.
  std::vector<TensorType> inputs;
};

/// `@main`, which maps `callee` over its arguments and returns the results.
std::string mainFunction(const std::string &callee,
                         const std::vector<TensorType> &argTypes,
                         const Shape &inAxes, const Shape &outAxes,
                         const std::vector<TensorType> &resultTypes,
                         int64_t size, const std::string &randomness) {
  std::vector<std::string> args;
  std::string params;
  for (auto [i, type] : llvm::enumerate(argTypes)) {
    args.push_back("%a" + std::to_string(i));
    params += (i ? ", " : "") + args.back() + ": " + type.str();
  }
  std::vector<std::string> results = resultNames("%r", resultTypes.size());
  return "func.func @main(" + params + ") -> (" + typeList(resultTypes) +
         ") {\n  " + resultDef("%r", resultTypes.size()) +
         vmapOp(callee, args, argTypes, inAxes, outAxes, resultTypes, size,
                randomness) +
         "\n  return " + join(results, [](auto &s) { return s; }) + " : " +
         typeList(resultTypes) + "\n}\n";
}

/// A module whose `@member` `fillMember` builds and whose `@main` maps it
/// over a batch of random size, axes, sharing and randomness.
Program buildProgram(Random &rng, Coverage &coverage,
                     llvm::function_ref<void(FunctionBuilder &)> fillMember) {
  ModuleBuilder module(rng, coverage);
  FunctionBuilder member(module, "member", /*depth=*/0);
  fillMember(member);
  std::vector<GenValue> results = member.pickResults();
  member.finish(results);

  int64_t size = rng.integer(1, 4);
  Shape inAxes, outAxes;
  std::vector<TensorType> argTypes, resultTypes;
  for (const Param &param : member.getParams()) {
    inAxes.push_back(param.axis);
    argTypes.push_back(withBatchDim(param.value.type, param.axis, size));
  }
  for (const GenValue &result : results) {
    outAxes.push_back(rng.integer(0, result.type.rank()));
    resultTypes.push_back(withBatchDim(result.type, outAxes.back(), size));
  }
  module.addFunction(mainFunction("member", argTypes, inAxes, outAxes,
                                  resultTypes, size, randomRandomness(rng)));
  return {module.str(), argTypes};
}

/// Inputs in the ranges that the generator's bounds assume.
std::vector<HostTensor> randomInputs(Random &rng,
                                     const std::vector<TensorType> &types) {
  std::vector<HostTensor> inputs;
  for (const TensorType &type : types) {
    std::vector<double> values;
    for (int64_t i = 0, e = numElements(type.shape); i < e; ++i) {
      if (type.dtype == DType::I1)
        values.push_back(rng.coin());
      else if (type.dtype == DType::I32)
        values.push_back(rng.integer(kI32InputMin, kI32InputMax));
      else
        values.push_back(rng.real(-kF32InputBound, kF32InputBound));
    }
    inputs.emplace_back(type.dtype, type.shape, std::move(values));
  }
  return inputs;
}

//===----------------------------------------------------------------------===//
// The property
//===----------------------------------------------------------------------===//

/// Collects the diagnostics emitted while it lives.
class DiagnosticCollector {
public:
  explicit DiagnosticCollector(MLIRContext &context)
      : handler(&context, [this](Diagnostic &diagnostic) {
          llvm::raw_string_ostream os(text);
          os << diagnostic.getLocation() << ": " << diagnostic << "\n";
          for (const Diagnostic &note : diagnostic.getNotes())
            os << "  note: " << note << "\n";
          return success();
        }) {}
  const std::string &str() const { return text; }

private:
  std::string text;
  ScopedDiagnosticHandler handler;
};

std::string printModule(ModuleOp module) {
  std::string text;
  llvm::raw_string_ostream os(text);
  module.print(os);
  return text;
}

std::optional<std::vector<HostTensor>>
runMain(ModuleOp module, ArrayRef<HostTensor> inputs, const char *what) {
  llvm::Expected<std::vector<HostTensor>> results =
      Interpreter(module).run("main", inputs);
  if (!results) {
    ADD_FAILURE() << "interpreting " << what
                  << " failed: " << llvm::toString(results.takeError());
    return std::nullopt;
  }
  return std::move(*results);
}

/// i32 and i1 exactly; f32 to 1e-5 relative plus 1e-6 absolute. NaN
/// matches NaN, and infinities must be equal.
bool sameElement(double expected, double actual, DType dtype) {
  if (std::isnan(expected) || std::isnan(actual))
    return std::isnan(expected) && std::isnan(actual);
  if (!isFloatDType(dtype) || std::isinf(expected) || std::isinf(actual))
    return expected == actual;
  return std::fabs(actual - expected) <= 1e-5 * std::fabs(expected) + 1e-6;
}

/// Compares the batched program's results with the loop's, reporting at
/// most five mismatching elements.
bool expectSameResults(ArrayRef<HostTensor> expected,
                       ArrayRef<HostTensor> actual) {
  if (expected.size() != actual.size()) {
    ADD_FAILURE() << "the loop gives " << expected.size()
                  << " results, the batched program " << actual.size();
    return false;
  }
  int mismatches = 0;
  for (auto [r, want, got] : llvm::enumerate(expected, actual)) {
    if (want.getTypeString() != got.getTypeString()) {
      ADD_FAILURE() << "result " << r << " is " << got.getTypeString()
                    << " but the loop gives " << want.getTypeString();
      return false;
    }
    for (size_t i = 0; i < want.values.size() && mismatches < 5; ++i) {
      if (sameElement(want.values[i], got.values[i], want.dtype))
        continue;
      ++mismatches;
      ADD_FAILURE() << "result " << r << ", element " << i << ": batched "
                    << llvm::formatv("{0:e9}", got.values[i]).str() << ", loop "
                    << llvm::formatv("{0:e9}", want.values[i]).str();
    }
  }
  return mismatches == 0;
}

/// Checks that the CPU backend, which batches then compiles, computes what
/// the loop does.
bool checkCpu(ModuleOp module, ArrayRef<HostTensor> inputs,
              ArrayRef<HostTensor> expected) {
  llvm::Expected<std::unique_ptr<CpuExecutable>> executable =
      CpuExecutable::compile(module, "main");
  if (!executable) {
    ADD_FAILURE() << "compiling for the CPU failed: "
                  << llvm::toString(executable.takeError());
    return false;
  }
  llvm::Expected<std::vector<HostTensor>> actual = (*executable)->run(inputs);
  if (!actual) {
    ADD_FAILURE() << "running on the CPU failed: "
                  << llvm::toString(actual.takeError());
    return false;
  }
  return expectSameResults(expected, *actual);
}

/// Checks that the CUDA backend's kernels, which NVRTC must compile for
/// sm_80 and sm_90, compute on the emulator what the loop does.
bool checkCudaEmu(ModuleOp module, ArrayRef<HostTensor> inputs,
                  ArrayRef<HostTensor> expected) {
  llvm::Expected<cuda::CudaProgram> program =
      cuda::generateCuda(module, "main");
  if (!program) {
    ADD_FAILURE() << "generating CUDA failed: "
                  << llvm::toString(program.takeError());
    return false;
  }
  if (cuda::isNvrtcAvailable())
    for (StringRef arch : {"sm_80", "sm_90"}) {
      llvm::Expected<cuda::CompiledCuda> compiled =
          cuda::compileWithNvrtc(program->source, "main.cu", arch);
      if (!compiled) {
        ADD_FAILURE() << llvm::toString(compiled.takeError());
        return false;
      }
    }
  llvm::Expected<std::unique_ptr<cuda::EmulatedExecutable>> executable =
      cuda::EmulatedExecutable::compile(std::move(*program));
  if (!executable) {
    ADD_FAILURE() << "building the emulated kernels failed: "
                  << llvm::toString(executable.takeError());
    return false;
  }
  llvm::Expected<std::vector<HostTensor>> actual = (*executable)->run(inputs);
  if (!actual) {
    ADD_FAILURE() << "running the emulated kernels failed: "
                  << llvm::toString(actual.takeError());
    return false;
  }
  return expectSameResults(expected, *actual);
}

/// Backends that also run a program, besides the interpreter.
enum class AlsoRunOn { None, Cpu, CudaEmu };

/// Checks that ens-batch removes every vmap of `text`, leaves a valid
/// module, and preserves what @main computes on `inputs`; with `backend`,
/// that backend too. Returns the batched module, or null after reporting a
/// failure.
OwningOpRef<ModuleOp> checkBatching(MLIRContext &context, StringRef text,
                                    ArrayRef<HostTensor> inputs,
                                    AlsoRunOn backend = AlsoRunOn::None) {
  DiagnosticCollector diagnostics(context);
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(text, &context);
  if (!module) {
    ADD_FAILURE() << "the generated program is invalid:\n" << diagnostics.str();
    return nullptr;
  }
  std::optional<std::vector<HostTensor>> expected =
      runMain(*module, inputs, "the vmap program");
  if (!expected)
    return nullptr;

  OwningOpRef<ModuleOp> batched = module->clone();
  PassManager pm(&context);
  pm.addPass(createEnsBatch());
  if (failed(pm.run(*batched))) {
    ADD_FAILURE() << "ens-batch failed:\n" << diagnostics.str();
    return nullptr;
  }
  if (batched->walk([](VmapOp) { return WalkResult::interrupt(); })
          .wasInterrupted()) {
    ADD_FAILURE() << "an ens.vmap survived ens-batch:\n"
                  << printModule(*batched);
    return nullptr;
  }
  if (failed(verify(*batched))) {
    ADD_FAILURE() << "ens-batch produced an invalid module:\n"
                  << diagnostics.str() << printModule(*batched);
    return nullptr;
  }
  std::optional<std::vector<HostTensor>> actual =
      runMain(*batched, inputs, "the batched program");
  if (!actual || !expectSameResults(*expected, *actual)) {
    ADD_FAILURE() << "batched program:\n" << printModule(*batched);
    return nullptr;
  }
  if (backend == AlsoRunOn::Cpu && !checkCpu(*module, inputs, *expected))
    return nullptr;
  if (backend == AlsoRunOn::CudaEmu &&
      !checkCudaEmu(*module, inputs, *expected))
    return nullptr;
  return batched;
}

DialectRegistry makeRegistry() {
  DialectRegistry registry;
  registerAllDialects(registry);
  registerCpuBackendDialects(registry);
  return registry;
}

void printCoverage(const Coverage &coverage, int programs) {
  llvm::outs() << "live / emitted ops over " << programs
               << " programs, with the batched (B) / shared (S) operand "
                  "mixes of the live ones in @member:\n";
  for (const auto &[op, entry] : coverage)
    llvm::outs() << llvm::formatv(
        "  {0,-17} {1,5} / {2,-5}  {3}\n", op, entry.live, entry.emitted,
        join(entry.signatures, [](const std::string &s) {
          return s.empty() ? std::string("-") : s;
        }));
  llvm::outs().flush();
}

/// Whether some instance of the op had batched and shared operands and,
/// for a binary op, both orders occurred.
void expectMixedOperands(const std::string &op, const OpCoverage &entry) {
  auto mixed = [](const std::string &signature) {
    return signature.find('B') != std::string::npos &&
           signature.find('S') != std::string::npos;
  };
  EXPECT_TRUE(llvm::any_of(entry.signatures, mixed))
      << op << " never had both batched and shared operands";
  if (entry.signatures.count("BB")) {
    EXPECT_TRUE(entry.signatures.count("BS")) << op;
    EXPECT_TRUE(entry.signatures.count("SB")) << op;
  }
}

/// The per-op tests batch (B) or share (S) the first three operands as the
/// bits of the seed say.
std::vector<Sharing> sharingPlan(int seed) {
  std::vector<Sharing> plan;
  for (int i = 0; i < 3; ++i)
    plan.push_back((seed >> i) & 1 ? Sharing::Shared : Sharing::Batched);
  return plan;
}

//===----------------------------------------------------------------------===//
// Tests
//===----------------------------------------------------------------------===//

class BatchPropertyTest : public ::testing::Test {
protected:
  BatchPropertyTest()
      : context(makeRegistry(), MLIRContext::Threading::DISABLED) {}

  MLIRContext context;
};

TEST_F(BatchPropertyTest, RandomChainsBatchLikeTheLoop) {
  Coverage coverage;
  int failures = 0;
  for (int seed = 0; seed < kNumChains && failures < 5; ++seed) {
    Random rng(seed);
    Program program = buildProgram(rng, coverage, [&](FunctionBuilder &b) {
      runChain(b, rng.integer(3, 8));
    });
    SCOPED_TRACE("seed " + std::to_string(seed) + ", program:\n" +
                 program.text);
    // Every 20th program also runs on the CPU backend, and every 40th
    // other one as emulated CUDA kernels.
    AlsoRunOn backend = seed % 20 == 0    ? AlsoRunOn::Cpu
                        : seed % 40 == 10 ? AlsoRunOn::CudaEmu
                                          : AlsoRunOn::None;
    if (!checkBatching(context, program.text, randomInputs(rng, program.inputs),
                       backend))
      ++failures;
  }
  printCoverage(coverage, kNumChains);
  for (const OpGenerator &generator : generators())
    EXPECT_GT(coverage[generator.name].live, 0)
        << generator.name << " was never generated where it matters";
}

class BatchOpTest : public BatchPropertyTest,
                    public ::testing::WithParamInterface<size_t> {};

TEST_P(BatchOpTest, BatchesLikeTheLoop) {
  const OpGenerator &generator = generators()[GetParam()];
  Coverage coverage;
  for (int seed = 0; seed < kSeedsPerOp; ++seed) {
    Random rng(1000 * (GetParam() + 1) + seed);
    Program program = buildProgram(rng, coverage, [&](FunctionBuilder &b) {
      b.forceSharing(sharingPlan(seed));
      generator.generate(b);
    });
    SCOPED_TRACE("seed " + std::to_string(seed) + ", program:\n" +
                 program.text);
    // Every 8th seed also runs on the CPU backend, and every 16th other
    // one as emulated CUDA kernels.
    AlsoRunOn backend = seed % 8 == 0    ? AlsoRunOn::Cpu
                        : seed % 16 == 4 ? AlsoRunOn::CudaEmu
                                         : AlsoRunOn::None;
    if (!checkBatching(context, program.text, randomInputs(rng, program.inputs),
                       backend))
      break;
  }
  EXPECT_GT(coverage[generator.name].live, 0);
  if (generator.mixesOperands)
    expectMixedOperands(generator.name, coverage[generator.name]);
}

INSTANTIATE_TEST_SUITE_P(EveryOp, BatchOpTest,
                         ::testing::Range<size_t>(0, generators().size()),
                         [](const ::testing::TestParamInfo<size_t> &info) {
                           return generators()[info.param].name;
                         });

/// Two vmaps of one callee with the same in_axes, size and randomness
/// share one generated function, whatever their out_axes; another size or
/// randomness gets its own.
TEST_F(BatchPropertyTest, BatchesEachSignatureOnce) {
  const char *source = R"mlir(
func.func @member(%x: tensor<3xf32>, %k: tensor<2xi32>) -> tensor<3xf32> {
  %u = ens.random_uniform %k : tensor<2xi32> -> tensor<3xf32>
  %y = ens.mul %x, %u : tensor<3xf32>
  return %y : tensor<3xf32>
}
func.func @main(%x: tensor<4x3xf32>, %k: tensor<2xi32>, %v: tensor<2x3xf32>)
    -> (tensor<4x3xf32>, tensor<3x4xf32>, tensor<2x3xf32>, tensor<4x3xf32>) {
  %a = ens.vmap @member(%x, %k) {in_axes = array<i64: 0, -1>,
                                 out_axes = array<i64: 0>, size = 4 : i64}
      : (tensor<4x3xf32>, tensor<2xi32>) -> tensor<4x3xf32>
  %b = ens.vmap @member(%x, %k) {in_axes = array<i64: 0, -1>,
                                 out_axes = array<i64: 1>, size = 4 : i64}
      : (tensor<4x3xf32>, tensor<2xi32>) -> tensor<3x4xf32>
  %c = ens.vmap @member(%v, %k) {in_axes = array<i64: 0, -1>,
                                 out_axes = array<i64: 0>, size = 2 : i64}
      : (tensor<2x3xf32>, tensor<2xi32>) -> tensor<2x3xf32>
  %d = ens.vmap @member(%x, %k) {in_axes = array<i64: 0, -1>,
                                 out_axes = array<i64: 0>, size = 4 : i64,
                                 randomness = "same"}
      : (tensor<4x3xf32>, tensor<2xi32>) -> tensor<4x3xf32>
  return %a, %b, %c, %d
      : tensor<4x3xf32>, tensor<3x4xf32>, tensor<2x3xf32>, tensor<4x3xf32>
}
)mlir";
  Random rng(1);
  std::vector<TensorType> inputs = {
      {{4, 3}, DType::F32}, {{2}, DType::I32}, {{2, 3}, DType::F32}};
  OwningOpRef<ModuleOp> batched =
      checkBatching(context, source, randomInputs(rng, inputs));
  ASSERT_TRUE(batched);
  std::vector<std::string> callees;
  batched->lookupSymbol<func::FuncOp>("main").walk(
      [&](func::CallOp call) { callees.push_back(call.getCallee().str()); });
  ASSERT_EQ(callees.size(), 4u) << printModule(*batched);
  EXPECT_EQ(callees[0], callees[1]) << printModule(*batched);
  EXPECT_NE(callees[0], callees[2]) << printModule(*batched);
  EXPECT_NE(callees[0], callees[3]) << printModule(*batched);
  // @main, @member and the three generated functions.
  EXPECT_EQ(llvm::range_size(batched->getOps<func::FuncOp>()), 5u)
      << printModule(*batched);
}

/// Under randomness "different" every member draws its own numbers, also in
/// a callee whose operands all members share; under "same" they share them.
/// ens-batch used to clone such a call unbatched, so all members drew alike.
TEST_F(BatchPropertyTest, DrawsOfSharedCallsDependOnRandomness) {
  const std::string callees = R"mlir(
func.func @draw(%k: tensor<2xi32>) -> tensor<3xf32> {
  %u = ens.random_uniform %k : tensor<2xi32> -> tensor<3xf32>
  return %u : tensor<3xf32>
}
func.func @member(%k: tensor<2xi32>) -> tensor<3xf32> {
  %u = func.call @draw(%k) : (tensor<2xi32>) -> tensor<3xf32>
  return %u : tensor<3xf32>
}
)mlir";
  const std::vector<TensorType> argTypes = {{{2}, DType::I32}};
  const std::vector<TensorType> resultTypes = {{{4, 3}, DType::F32}};
  Random rng(3);
  for (const char *randomness : {"", "different", "same"}) {
    std::string text =
        callees + mainFunction("member", argTypes, /*inAxes=*/{-1},
                               /*outAxes=*/{0}, resultTypes, 4, randomness);
    SCOPED_TRACE("program:\n" + text);
    EXPECT_TRUE(checkBatching(context, text, randomInputs(rng, argTypes)));
  }
}

/// main -> vmap(f), where f calls g and g maps h: the outer batch reaches
/// the inner vmap through a call, for every choice of outer axes.
TEST_F(BatchPropertyTest, BatchesVmapNestedInCallChain) {
  const std::string callees = R"mlir(
func.func @h(%a: tensor<2xf32>, %s: tensor<f32>) -> tensor<2xf32> {
  %b = ens.broadcast_in_dim %s {dims = array<i64>}
      : tensor<f32> -> tensor<2xf32>
  %c = ens.mul %a, %b : tensor<2xf32>
  %d = ens.tanh %c : tensor<2xf32>
  return %d : tensor<2xf32>
}
func.func @g(%x: tensor<3x2xf32>, %s: tensor<f32>) -> tensor<2x3xf32> {
  %y = ens.vmap @h(%x, %s) {in_axes = array<i64: 0, -1>,
                            out_axes = array<i64: 1>, size = 3 : i64}
      : (tensor<3x2xf32>, tensor<f32>) -> tensor<2x3xf32>
  return %y : tensor<2x3xf32>
}
func.func @f(%x: tensor<3x2xf32>, %s: tensor<f32>, %w: tensor<2x3xf32>)
    -> (tensor<2x3xf32>, tensor<f32>) {
  %y = func.call @g(%x, %s) : (tensor<3x2xf32>, tensor<f32>) -> tensor<2x3xf32>
  %z = ens.add %y, %w : tensor<2x3xf32>
  %t = ens.reduce_sum %z {dims = array<i64: 1, 0>}
      : tensor<2x3xf32> -> tensor<f32>
  return %z, %t : tensor<2x3xf32>, tensor<f32>
}
)mlir";
  const std::vector<TensorType> params = {
      {{3, 2}, DType::F32}, {{}, DType::F32}, {{2, 3}, DType::F32}};
  const std::vector<TensorType> results = {{{2, 3}, DType::F32},
                                           {{}, DType::F32}};
  Random rng(7);
  for (int64_t xAxis = -1; xAxis <= 2; ++xAxis) {
    for (int64_t sAxis = -1; sAxis <= 0; ++sAxis) {
      for (int64_t wAxis = -1; wAxis <= 2; ++wAxis) {
        int64_t size = rng.integer(1, 4);
        Shape inAxes = {xAxis, sAxis, wAxis};
        Shape outAxes = {rng.integer(0, 2), 0};
        std::vector<TensorType> argTypes, resultTypes;
        for (auto [type, axis] : llvm::zip_equal(params, inAxes))
          argTypes.push_back(withBatchDim(type, axis, size));
        for (auto [type, axis] : llvm::zip_equal(results, outAxes))
          resultTypes.push_back(withBatchDim(type, axis, size));
        std::string text =
            callees + mainFunction("f", argTypes, inAxes, outAxes, resultTypes,
                                   size, /*randomness=*/"");
        SCOPED_TRACE("program:\n" + text);
        EXPECT_TRUE(checkBatching(context, text, randomInputs(rng, argTypes)));
      }
    }
  }
}

} // namespace
