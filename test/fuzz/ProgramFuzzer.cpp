//===- ProgramFuzzer.cpp - Random ens programs on every CPU-side backend --===//
//
// The input drives a small generator of well-typed ens programs, built
// through the public API (ens/ens.h): up to three f32 arguments of rank 0 to
// 3 with dimensions of size 1 to 3, then up to eight ops drawn from
// elementwise (unary, binary, compare and select), broadcast_in_dim, the
// reductions, softmax, matmul, einsum, reshape and transpose, where an op
// that needs a second operand of a given shape gets a constant. The
// function may then be differentiated (value_and_grad with respect to its
// first argument, after reducing its result to a scalar) and vmapped over 1
// to 3 members. Inputs are drawn from a seed in the input, uniform in
// [-2, 2).
//
// The program is compiled and run on the interpreter (the oracle), cpu and
// cuda-emu with each CUDA strategy forced. The property: either every backend
// throws ens::Error (a clean error) or none does, and then every result element
// agrees with the interpreter's: |x - ref| <= 1e-3 * (max(1, |ref|) + scale),
// where scale is the largest finite |ref| of that result, so that values lost
// to cancellation in a differently ordered sum compare by the sum's magnitude.
// Where the interpreter gives NaN or an infinity, the backend must give a
// non-finite value too. The API must accept every op the generator builds:
// an ens::Error while building the program escapes and fails the run.
// ENS_FUZZ_PRINT_PROGRAM=1 in the environment prints each program first.
//
//===----------------------------------------------------------------------===//

#include "ens/ens.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <optional>
#include <string>
#include <vector>

namespace {
using Shape = std::vector<int64_t>;

/// The generator's choices, read from the front of the input. An exhausted
/// input chooses the smallest value, so every input gives a program.
class Choices {
public:
  Choices(const uint8_t *data, size_t size) : data(data), size(size) {}
  /// A value in [low, high], from as many bytes as the range needs.
  template <typename T> T inRange(T low, T high) {
    uint64_t range = static_cast<uint64_t>(high) - static_cast<uint64_t>(low);
    uint64_t value = 0;
    for (uint64_t seen = 0; seen < range && size > 0; seen = seen << 8 | 0xff) {
      value = value << 8 | *data++;
      --size;
    }
    return static_cast<T>(static_cast<uint64_t>(low) +
                          (range == UINT64_MAX ? value : value % (range + 1)));
  }
  bool flip() { return inRange<int>(0, 1); }

private:
  const uint8_t *data;
  size_t size;
};

/// A deterministic stream of input values (SplitMix64), uniform in [-2, 2).
class Values {
public:
  explicit Values(uint64_t seed) : state(seed) {}
  std::vector<double> next(const Shape &shape) {
    int64_t count = std::accumulate(shape.begin(), shape.end(), int64_t(1),
                                    std::multiplies<int64_t>());
    std::vector<double> values(count);
    for (double &value : values) {
      uint64_t z = (state += 0x9e3779b97f4a7c15ull);
      z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
      z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
      z ^= z >> 31;
      value = static_cast<double>(z >> 11) * 0x1.0p-53 * 4 - 2;
    }
    return values;
  }

private:
  uint64_t state;
};

/// Emits ops into a function, choosing them from the fuzz input.
class Generator {
public:
  Generator(Choices &input, ens::FunctionBuilder &f, Values &values,
            size_t numArgs)
      : input(input), f(f), values(values) {
    for (size_t i = 0; i < numArgs; ++i)
      pool.push_back(f.arg(i));
  }

  /// Adds one op whose operands are in the pool; its result joins the pool.
  void step() {
    ens::Value x = pick();
    std::optional<ens::Value> y;
    switch (input.inRange<int>(0, 9)) {
    case 0:
      y = unary(x);
      break;
    case 1:
      y = binary(x);
      break;
    case 2:
      y = broadcast(x);
      break;
    case 3:
      y = reduce(x);
      break;
    case 4:
      y = matmul(x);
      break;
    case 5:
      y = einsum(x);
      break;
    case 6:
      y = reshape(x);
      break;
    case 7:
      y = transpose(x);
      break;
    case 8:
      y = softmax(x);
      break;
    case 9:
      y = f.select(f.cmp(static_cast<ens::Predicate>(input.inRange<int>(0, 5)),
                         x, sameShape(x)),
                   x, sameShape(x));
      break;
    }
    if (y)
      pool.push_back(*y);
  }

  /// The function's results: the newest value, and possibly another.
  std::vector<ens::Value> results() {
    std::vector<ens::Value> results = {pool.back()};
    if (pool.size() > 1 && input.flip())
      results.push_back(pool[input.inRange<size_t>(0, pool.size() - 2)]);
    return results;
  }

private:
  ens::Value pick() { return pool[input.inRange<size_t>(0, pool.size() - 1)]; }
  int64_t size() { return input.inRange<int64_t>(1, 3); }
  ens::Value constant(const Shape &shape) {
    return f.constant({ens::DType::F32, shape}, values.next(shape));
  }
  /// Another value of `x`'s shape: one from the pool, or a constant.
  ens::Value sameShape(ens::Value x) {
    std::vector<ens::Value> candidates;
    for (const ens::Value &value : pool)
      if (value.type() == x.type())
        candidates.push_back(value);
    if (input.flip())
      return candidates[input.inRange<size_t>(0, candidates.size() - 1)];
    return constant(x.type().shape);
  }

  /// Domain-sensitive ops take |x| (+ 1), so that most values stay finite.
  ens::Value unary(ens::Value x) {
    switch (input.inRange<int>(0, 11)) {
    case 0:
      return f.neg(x);
    case 1:
      return f.exp(x);
    case 2:
      return f.tanh(x);
    case 3:
      return f.sigmoid(x);
    case 4:
      return f.relu(x);
    case 5:
      return f.abs(x);
    case 6:
      return f.square(x);
    case 7:
      return f.sqrt(f.abs(x));
    case 8:
      return f.log(f.add(f.abs(x), ones(x)));
    case 9:
      return f.rsqrt(f.add(f.abs(x), ones(x)));
    case 10:
      return f.convert(f.convert(x, ens::DType::F64), ens::DType::F32);
    default:
      return f.neg(f.neg(x));
    }
  }
  ens::Value ones(ens::Value x) {
    const Shape &shape = x.type().shape;
    return f.constant(
        {ens::DType::F32, shape},
        std::vector<double>(
            ens::TensorType{ens::DType::F32, shape}.numElements(), 1.0));
  }
  ens::Value binary(ens::Value x) {
    ens::Value y = sameShape(x);
    switch (input.inRange<int>(0, 6)) {
    case 0:
      return f.add(x, y);
    case 1:
      return f.sub(x, y);
    case 2:
      return f.mul(x, y);
    case 3:
      return f.div(x, f.add(f.abs(y), ones(y)));
    case 4:
      return f.max(x, y);
    case 5:
      return f.min(x, y);
    default:
      return f.pow(f.add(f.abs(x), ones(x)), y);
    }
  }
  /// Inserts up to two new dimensions around x's, which keep their order.
  std::optional<ens::Value> broadcast(ens::Value x) {
    const Shape &shape = x.type().shape;
    int64_t extra = input.inRange<int64_t>(0, 2);
    if (shape.size() + extra > 4)
      return std::nullopt;
    Shape result;
    std::vector<int64_t> dims;
    size_t next = 0;
    while (next < shape.size() || extra > 0) {
      if (extra > 0 && (next == shape.size() || input.flip())) {
        result.push_back(size());
        --extra;
      } else {
        dims.push_back(result.size());
        result.push_back(shape[next++]);
      }
    }
    return f.broadcastInDim(x, result, dims);
  }
  std::optional<ens::Value> reduce(ens::Value x) {
    int64_t rank = x.type().shape.size();
    if (rank == 0)
      return std::nullopt;
    std::vector<int64_t> dims;
    for (int64_t d = 0; d < rank; ++d)
      if (input.flip())
        dims.push_back(d);
    if (dims.empty())
      dims.push_back(input.inRange<int64_t>(0, rank - 1));
    switch (input.inRange<int>(0, 3)) {
    case 0:
      return f.reduceSum(x, dims);
    case 1:
      return f.reduceMax(x, dims);
    case 2:
      return f.reduceMean(x, dims);
    default:
      return f.logsumexp(x, dims);
    }
  }
  std::optional<ens::Value> softmax(ens::Value x) {
    int64_t rank = x.type().shape.size();
    if (rank == 0)
      return std::nullopt;
    int64_t dim = input.inRange<int64_t>(0, rank - 1);
    return input.flip() ? f.softmax(x, dim) : f.logSoftmax(x, dim);
  }
  std::optional<ens::Value> matmul(ens::Value x) {
    const Shape &shape = x.type().shape;
    if (shape.size() != 2)
      return std::nullopt;
    return f.matmul(x, constant({shape[1], size()}));
  }
  /// x's labels, then a constant's: each of x's labels is also the
  /// constant's with probability 1/2, and such a shared label is either
  /// contracted or kept (a batch label); the constant has up to two labels
  /// of its own, which are kept.
  std::optional<ens::Value> einsum(ens::Value x) {
    const Shape &shape = x.type().shape;
    if (shape.empty())
      return std::nullopt;
    std::string lhs, rhs, out;
    Shape rhsShape;
    for (size_t i = 0; i < shape.size(); ++i) {
      char label = static_cast<char>('a' + i);
      lhs += label;
      bool shared = input.flip();
      if (shared) {
        rhs += label;
        rhsShape.push_back(shape[i]);
      }
      if (!shared || input.flip())
        out += label;
    }
    int64_t own = input.inRange<int64_t>(0, 2);
    for (int64_t i = 0; i < own; ++i) {
      char label = static_cast<char>('p' + i);
      rhs += label;
      out += label;
      rhsShape.push_back(size());
    }
    if (rhs.empty() || out.size() > 4)
      return std::nullopt;
    return f.einsum(x, constant(rhsShape), lhs + "," + rhs + "->" + out);
  }
  /// Flattens, inserts a 1, drops a 1, or merges two adjacent dimensions.
  std::optional<ens::Value> reshape(ens::Value x) {
    Shape shape = x.type().shape;
    switch (input.inRange<int>(0, 3)) {
    case 0:
      shape = {x.type().numElements()};
      break;
    case 1:
      if (shape.size() == 4)
        return std::nullopt;
      shape.insert(shape.begin() + input.inRange<size_t>(0, shape.size()), 1);
      break;
    case 2: {
      auto one = std::find(shape.begin(), shape.end(), 1);
      if (one == shape.end())
        return std::nullopt;
      shape.erase(one);
      break;
    }
    default: {
      if (shape.size() < 2)
        return std::nullopt;
      size_t i = input.inRange<size_t>(0, shape.size() - 2);
      shape[i] *= shape[i + 1];
      shape.erase(shape.begin() + i + 1);
      break;
    }
    }
    return f.reshape(x, shape);
  }
  std::optional<ens::Value> transpose(ens::Value x) {
    std::vector<int64_t> permutation(x.type().shape.size());
    if (permutation.size() < 2)
      return std::nullopt;
    std::iota(permutation.begin(), permutation.end(), 0);
    for (size_t i = permutation.size() - 1; i > 0; --i)
      std::swap(permutation[i], permutation[input.inRange<size_t>(0, i)]);
    return f.transpose(x, permutation);
  }

  Choices &input;
  ens::FunctionBuilder &f;
  Values &values;
  std::vector<ens::Value> pool;
};

/// What a backend made of the program: results, or the error it threw.
struct Outcome {
  std::vector<ens::Tensor> results;
  std::string error;
};

Outcome runOn(const ens::Module &module, const std::string &function,
              ens::Target target, const std::vector<ens::Tensor> &args,
              const ens::CompileOptions &options = {}) {
  Outcome outcome;
  try {
    outcome.results = module.compile(function, target, options).run(args);
  } catch (const ens::Error &error) {
    outcome.error = error.what();
    if (outcome.error.empty())
      outcome.error = "(an ens::Error without a message)";
  }
  return outcome;
}

[[noreturn]] void disagree(const std::string &program, const char *backend,
                           const std::string &what) {
  std::fprintf(stderr, "fuzz: %s disagrees with the interpreter: %s\n%s\n",
               backend, what.c_str(), program.c_str());
  std::abort();
}

void compare(const std::string &program, const char *backend,
             const Outcome &reference, const Outcome &outcome) {
  if (reference.error.empty() != outcome.error.empty())
    disagree(program, backend,
             reference.error.empty()
                 ? "it fails: " + outcome.error
                 : "the interpreter fails (" + reference.error +
                       ") but it does not");
  if (!reference.error.empty())
    return;
  if (outcome.results.size() != reference.results.size())
    disagree(program, backend, "another number of results");
  for (size_t r = 0; r < reference.results.size(); ++r) {
    const ens::Tensor &want = reference.results[r];
    const ens::Tensor &got = outcome.results[r];
    if (got.type() != want.type())
      disagree(program, backend,
               "result " + std::to_string(r) + " has type " + got.type().str() +
                   ", not " + want.type().str());
    std::vector<double> wantValues = want.values(), gotValues = got.values();
    double scale = 0;
    for (double value : wantValues)
      if (std::isfinite(value))
        scale = std::max(scale, std::fabs(value));
    for (size_t i = 0; i < wantValues.size(); ++i) {
      double w = wantValues[i], g = gotValues[i];
      bool agrees =
          std::isfinite(w)
              ? std::fabs(g - w) <= 1e-3 * (std::max(1.0, std::fabs(w)) + scale)
              : !std::isfinite(g);
      if (!agrees)
        disagree(program, backend,
                 "result " + std::to_string(r) + " element " +
                     std::to_string(i) + " is " + std::to_string(g) +
                     ", the interpreter's " + std::to_string(w));
    }
  }
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  Choices input(data, size);
  // A context per input: the constants of one input must not stay interned
  // for the rest of a long run, and a failing input must fail alone too.
  ens::Context context;
  ens::Module module = context.createModule();
  Values values(input.inRange<uint32_t>(0, UINT32_MAX));

  std::vector<ens::TensorType> argTypes(input.inRange<size_t>(1, 3));
  for (ens::TensorType &type : argTypes) {
    type.shape.resize(input.inRange<size_t>(0, 3));
    for (int64_t &dim : type.shape)
      dim = input.inRange<int64_t>(1, 3);
  }
  bool differentiate;
  {
    ens::FunctionBuilder f = module.function("f", argTypes);
    Generator generator(input, f, values, argTypes.size());
    int numOps = input.inRange<int>(1, 8);
    for (int i = 0; i < numOps; ++i)
      generator.step();
    std::vector<ens::Value> results = generator.results();
    differentiate = input.flip();
    if (differentiate) {
      ens::Value y = results.front();
      std::vector<int64_t> all(y.type().shape.size());
      std::iota(all.begin(), all.end(), 0);
      results = {all.empty() ? y : f.reduceSum(y, all)};
    }
    f.ret(results);
  }
  std::string function =
      differentiate ? module.valueAndGrad("f", {0}) : std::string("f");
  if (int64_t members = input.inRange<int64_t>(0, 3)) {
    ens::Signature signature = module.signature(function);
    // The first argument is always batched, the others by choice.
    std::vector<int64_t> inAxes(signature.inputs.size(), 0);
    for (size_t i = 1; i < inAxes.size(); ++i)
      inAxes[i] = input.flip() ? 0 : -1;
    function =
        module.vmap(function, inAxes,
                    std::vector<int64_t>(signature.results.size(), 0), members);
  }

  std::vector<ens::Tensor> args;
  for (const ens::TensorType &type : module.signature(function).inputs)
    args.emplace_back(type, values.next(type.shape));
  std::string program = module.str();
  // For triage: a backend that crashes prints no disagreement, so the
  // program can be printed before anything runs.
  if (std::getenv("ENS_FUZZ_PRINT_PROGRAM"))
    std::fprintf(stderr, "%s\n", program.c_str());
  Outcome reference = runOn(module, function, ens::Target::Interpreter, args);
  compare(program, "cpu", reference,
          runOn(module, function, ens::Target::Cpu, args));
  // Each CUDA strategy, forced on every loop over members.
  for (const char *strategy : {"member-per-block", "tiled"}) {
    ens::CompileOptions options;
    options.cudaStrategy = strategy;
    compare(program, ("cuda-emu, " + std::string(strategy)).c_str(), reference,
            runOn(module, function, ens::Target::CudaEmu, args, options));
  }
  return 0;
}
