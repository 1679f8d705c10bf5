//===- ens.h - The ens C++ API ----------------------------------*- C++ -*-===//
//
// The public interface of ens, for embedding it as a JIT in C++ programs and
// ML frameworks. It exposes no MLIR or LLVM types: a program needs only this
// header, <dlpack/dlpack.h> and libens.
//
//   ens::Context context;
//   ens::Module module = context.parse(text);        // or build one
//   std::string batched = module.vmap("member", {-1, 0}, {0}, 128);
//   ens::Executable step = module.compile(batched, ens::Target::Cpu);
//   std::vector<ens::Tensor> out = step.run({x, weights});
//
// Every failure (malformed IR, shapes that do not fit, a wrong buffer, a
// target that cannot run here) throws ens::Error with one clear message.
// A Context, and the Modules and Executables made from it, may be used from
// several threads at once.
//
//===----------------------------------------------------------------------===//

#ifndef ENS_ENS_H
#define ENS_ENS_H

#include <dlpack/dlpack.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#if defined(__GNUC__)
#define ENS_API __attribute__((visibility("default")))
#else
#define ENS_API
#endif

namespace ens {

/// What every failure of the API throws.
class ENS_API Error : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

/// Element types.
enum class DType { F16, BF16, F32, F64, I32, I1 };

/// The MLIR spelling of `dtype`: "f32", "i1", ...
ENS_API const char *toString(DType dtype);

/// A ranked tensor type with a static shape; Module::signature gives -1 for
/// a `?` size (docs/shapes.md), which compile() and Tensor do not accept.
struct ENS_API TensorType {
  DType dtype = DType::F32;
  std::vector<int64_t> shape;

  int64_t numElements() const;
  /// The MLIR spelling, e.g. "tensor<2x3xf32>".
  std::string str() const;
  bool operator==(const TensorType &other) const {
    return dtype == other.dtype && shape == other.shape;
  }
  bool operator!=(const TensorType &other) const { return !(*this == other); }
};

/// A dense row-major tensor in host memory owned by ens. Elements are stored
/// as in C: float, double, int32_t, and one byte per i1.
class ENS_API Tensor {
public:
  /// A tensor of `type` filled with zeros.
  explicit Tensor(TensorType type);
  /// A tensor of `type` holding `values` (one per element, converted).
  Tensor(TensorType type, const std::vector<double> &values);

  const TensorType &type() const { return type_; }
  void *data() { return bytes_.data(); }
  const void *data() const { return bytes_.data(); }
  size_t byteSize() const { return bytes_.size(); }
  /// Element `i` (row-major), converted to double.
  double at(int64_t i) const;
  /// All elements, converted to double.
  std::vector<double> values() const;
  /// A non-owning DLPack view of this tensor (valid while it lives).
  DLTensor dlpack();

private:
  TensorType type_;
  std::vector<std::byte> bytes_;
  std::vector<int64_t> dlShape_;
};

/// The types a function takes and returns.
struct ENS_API Signature {
  std::vector<TensorType> inputs, results;
};

/// Where compiled code runs.
enum class Target {
  /// The reference interpreter: slow and exact, the oracle of ens.
  Interpreter,
  /// Native code JIT-compiled for this CPU.
  Cpu,
  /// CUDA kernels on the first GPU, through the CUDA Driver API loaded at
  /// run time (compiling reports "no CUDA device" without a driver or a
  /// device).
  Cuda,
  /// The CUDA kernels, the same source, executed by ens's CPU emulation of
  /// the CUDA execution model (needs a host C++ compiler at run time).
  CudaEmu,
};

/// How to compile.
struct ENS_API CompileOptions {
  /// Threads the CPU target runs on; 0 means one per core. Running on more
  /// than one needs LLVM's OpenMP runtime (libomp.so.5); without it, code
  /// runs on one thread.
  int threads = 0;
  /// The largest buffer (argument, result or intermediate) compiled code
  /// may allocate, and the most a CUDA launch plan may take in all; 0 means
  /// the default: half of physical memory, at most half of the
  /// address-space limit, or $ENS_MAX_BUFFER_BYTES. A larger program is
  /// refused by compile() with an Error.
  int64_t maxBufferBytes = 0;
  /// How the CUDA targets share out loops over members: "member-per-block",
  /// "tiled", "members-per-block", or "" (or "auto") for the performance
  /// model's pick per loop (docs/cuda.md, "Strategies"). Another name is
  /// refused by compile().
  std::string cudaStrategy;
  /// Who computes the CUDA targets' contractions that are matrix products:
  /// "generated" kernels, "cublas" (vendor GEMM steps), or "" (or "auto")
  /// for the performance model's pick (docs/cuda.md, "Vendor GEMM steps").
  /// Another name is refused by compile().
  std::string cudaGemm;
  /// How the CUDA targets compute contractions' products: "f32" (or "",
  /// the default), "tf32" (TF32 tensor cores) or "3xtf32" (three TF32
  /// products each) (docs/cuda.md, "TF32 tensor cores"). Another name is
  /// refused by compile().
  std::string gpuPrecision;
};

/// A function compiled for a target.
class ENS_API Executable {
public:
  const Signature &signature() const;
  Target target() const;
  /// The threads the code runs on (1 for the interpreter).
  unsigned threads() const;
  /// Whether `other` runs the same compiled code (see Module::compile).
  bool sharesCodeWith(const Executable &other) const {
    return impl_ == other.impl_;
  }

  /// Runs on ens-owned tensors and returns new ones.
  std::vector<Tensor> run(const std::vector<Tensor> &args) const;

  /// Runs on caller-owned DLPack tensors: reads `args` and writes `results`,
  /// which must be allocated with the signature's types, and must not
  /// overlap the arguments or each other (an Error says which do). On the
  /// CPU target nothing is copied; tensors must be on the CPU and compact
  /// row-major.
  void run(const std::vector<const DLTensor *> &args,
           const std::vector<DLTensor *> &results) const;
  /// The same for managed tensors, as PyTorch and JAX export them.
  void run(const std::vector<DLManagedTensor *> &args,
           const std::vector<DLManagedTensor *> &results) const;

  /// Saves the compiled function as an artifact that libens-runtime runs
  /// without the compiler, in this process or another (docs/runtime.md),
  /// compiled with this executable's options: for Cpu the code for this
  /// kind of CPU, for Cuda and CudaEmu a cuda artifact (CUBIN for sm_80 and
  /// sm_90, PTX, and the emulator's build, so that it runs on cuda-emu
  /// too). The file is written atomically. Throws an Error for the
  /// interpreter, which has no compiled code, or when the file cannot be
  /// written.
  void save(const std::string &path) const;

  struct Impl;

private:
  friend class Module;
  explicit Executable(std::shared_ptr<const Impl> impl);
  std::shared_ptr<const Impl> impl_;
};

class FunctionBuilder;

/// A value of a function being built: an argument or an op's result.
class ENS_API Value {
public:
  Value() = default;
  const TensorType &type() const { return type_; }

private:
  friend class FunctionBuilder;
  Value(const void *owner, int64_t id, TensorType type)
      : owner_(owner), id_(id), type_(std::move(type)) {}
  const void *owner_ = nullptr;
  int64_t id_ = -1;
  TensorType type_;
};

/// Comparison predicates of FunctionBuilder::cmp.
enum class Predicate { Lt, Le, Gt, Ge, Eq, Ne };

/// A hyperparameter of a FunctionBuilder method: a number, which becomes a
/// constant of the element type it meets, or a rank-0 Value, for example an
/// argument that ens.vmap gives each member its own of.
class ENS_API Scalar {
public:
  Scalar(double number) : number_(number) {}
  Scalar(Value value) : value_(std::move(value)), isValue_(true) {}

private:
  friend class FunctionBuilder;
  Value value_;
  double number_ = 0;
  bool isValue_ = false;
};

/// The new state from FunctionBuilder::sgdMomentum.
struct ENS_API SgdMomentumState {
  Value param, velocity;
};

/// The new state from FunctionBuilder::adam.
struct ENS_API AdamState {
  Value param, m, v;
};

/// Builds one function op by op. Each op is checked when it is added: bad
/// operands or attributes throw, and the function is left unchanged.
class ENS_API FunctionBuilder {
public:
  ~FunctionBuilder();
  FunctionBuilder(FunctionBuilder &&);

  /// Argument `i` of the function.
  Value arg(size_t i) const;

  /// Elementwise ops. Operands have equal shapes, except that a rank-0
  /// operand combines with a tensor of any shape: it is broadcast to it
  /// first (ens.broadcast_in_dim), so a scalar needs no shapes spelled out.
  /// Element types must be equal. The same holds for cmp and select.
  Value add(Value lhs, Value rhs);
  Value sub(Value lhs, Value rhs);
  Value mul(Value lhs, Value rhs);
  Value div(Value lhs, Value rhs);
  Value max(Value lhs, Value rhs);
  Value min(Value lhs, Value rhs);
  Value pow(Value lhs, Value rhs);
  /// The same with a number, made a constant of the other operand's type:
  /// `mul(x, 0.5)`, `sub(1.0, x)`.
  Value add(Value lhs, double rhs);
  Value add(double lhs, Value rhs);
  Value sub(Value lhs, double rhs);
  Value sub(double lhs, Value rhs);
  Value mul(Value lhs, double rhs);
  Value mul(double lhs, Value rhs);
  Value div(Value lhs, double rhs);
  Value div(double lhs, Value rhs);
  Value max(Value lhs, double rhs);
  Value max(double lhs, Value rhs);
  Value min(Value lhs, double rhs);
  Value min(double lhs, Value rhs);
  Value pow(Value lhs, double rhs);
  Value pow(double lhs, Value rhs);
  Value neg(Value x);
  Value exp(Value x);
  Value log(Value x);
  Value tanh(Value x);
  Value sigmoid(Value x);
  Value relu(Value x);
  Value sqrt(Value x);
  Value rsqrt(Value x);
  Value abs(Value x);
  Value square(Value x);
  Value cmp(Predicate predicate, Value lhs, Value rhs);
  /// `lhs` compared with a constant `rhs` of its type: `cmp(Gt, x, 0.0)`.
  Value cmp(Predicate predicate, Value lhs, double rhs);
  Value select(Value cond, Value onTrue, Value onFalse);
  Value convert(Value x, DType dtype);

  /// A constant of `type` with one value per element, or one for all.
  Value constant(TensorType type, const std::vector<double> &values);
  Value broadcastInDim(Value x, std::vector<int64_t> shape,
                       std::vector<int64_t> dims);
  Value reshape(Value x, std::vector<int64_t> shape);
  Value transpose(Value x, std::vector<int64_t> permutation);
  Value slice(Value x, std::vector<int64_t> start, std::vector<int64_t> limit,
              std::vector<int64_t> stride);
  Value concat(const std::vector<Value> &inputs, int64_t dim);
  Value take(Value table, Value indices, int64_t axis);
  Value oneHot(Value indices, int64_t depth, DType dtype);

  Value reduceSum(Value x, std::vector<int64_t> dims);
  Value reduceMax(Value x, std::vector<int64_t> dims);
  Value reduceMean(Value x, std::vector<int64_t> dims);
  Value logsumexp(Value x, std::vector<int64_t> dims);
  Value softmax(Value x, int64_t dim);
  Value logSoftmax(Value x, int64_t dim);

  Value einsum(Value lhs, Value rhs, const std::string &spec);
  Value tensordot(Value lhs, Value rhs, std::vector<int64_t> lhsDims,
                  std::vector<int64_t> rhsDims);
  Value matmul(Value lhs, Value rhs);

  /// Random numbers of `type` from `key`, a tensor<2xi32>, or a batch of
  /// keys tensor<...x2xi32> whose batch shape then leads the result's:
  /// uniform in [0, 1), or standard normal. Under Module::vmap each member
  /// draws its own.
  Value randomUniform(Value key, TensorType type);
  Value randomNormal(Value key, TensorType type);
  /// `count` independent keys from `key`: tensor<...x2xi32> ->
  /// tensor<...x`count`x2xi32>.
  Value randomSplit(Value key, int64_t count);
  /// The key derived from `key` and the i32 `data` (of the key batch shape).
  Value randomFoldIn(Value key, Value data);

  /// The standard library (docs/stdlib.md). Each method checks its
  /// operands and calls the library function at their types with
  /// `ens.stdlib_call`, exactly as IR using the library does. Wrong ranks or
  /// types throw an Error naming the method and the types.
  ///
  /// The mean squared error over all elements of two equal float tensors.
  Value mse(Value predictions, Value targets);
  /// The batch mean of -log_softmax(logits)[b, labels[b]], for float
  /// logits [B, C] and i32 labels [B].
  Value softmaxCrossEntropy(Value logits, Value labels);
  /// Plain SGD: param - lr * grad.
  Value sgd(Value param, Value grad, Scalar lr);
  /// SGD with momentum and L2 weight decay, as PyTorch's SGD.
  SgdMomentumState sgdMomentum(Value param, Value grad, Value velocity,
                               Scalar lr, Scalar momentum,
                               Scalar weightDecay = 0.0);
  /// Adam with bias correction (`step` counts from 1); a nonzero
  /// `weightDecay` is decoupled, as AdamW.
  AdamState adam(Value param, Value grad, Value m, Value v, Scalar step,
                 Scalar lr, Scalar beta1 = 0.9, Scalar beta2 = 0.999,
                 Scalar eps = 1e-8, Scalar weightDecay = 0.0);
  /// Initial weights of float `type` (rank 2 or more) from a tensor<2xi32>
  /// key, U(-b, b) with fan_in the product of all dimensions but the last
  /// and fan_out the last: b = sqrt(6 / (fan_in + fan_out)) for Xavier
  /// (Glorot), sqrt(6 / fan_in) for Kaiming (He, ReLU gain).
  Value xavierUniform(Value key, TensorType type);
  Value kaimingUniform(Value key, TensorType type);

  /// Calls another function of the module.
  std::vector<Value> call(const std::string &function,
                          const std::vector<Value> &args);

  /// Finishes the function, returning `results`. No op may follow.
  void ret(const std::vector<Value> &results);

  struct Impl;

private:
  friend class Module;
  explicit FunctionBuilder(std::unique_ptr<Impl> impl);
  /// The builder's index of `value`, checking that it belongs here.
  int64_t id(const Value &value, const char *op) const;
  /// The Value for the builder's value at `id`.
  Value wrap(int64_t id) const;
  Value unary(const char *op, Value x);
  Value binary(const char *op, Value lhs, Value rhs);
  /// `op` of `x` and a constant `number` of its type, `number` first if
  /// `numberFirst`.
  Value binary(const char *op, Value x, double number, bool numberFirst);
  /// `hyperparameter` as a rank-0 Value of `dtype`, for operand `name` of
  /// `method`.
  Value scalar(const Scalar &hyperparameter, DType dtype, const char *method,
               const char *name);
  /// Calls the library function `name` on `args` for `method` with
  /// `ens.stdlib_call`, its results of types `results`.
  std::vector<Value> callStdlib(const char *method, const char *name,
                                const std::vector<Value> &args,
                                const std::vector<TensorType> &results);
  std::unique_ptr<Impl> impl_;
};

/// One group of a heterogeneous ensemble (Module::groups): `size` members
/// of the one-member function `function`. Argument i carries the members
/// along `inAxes[i]` or is shared by all groups (-1); result j holds them
/// along `outAxes[j]`, as in Module::vmap.
struct ENS_API Group {
  std::string function;
  std::vector<int64_t> inAxes, outAxes;
  int64_t size = 1;
};

/// A set of functions in the ens IR.
class ENS_API Module {
public:
  /// The module as MLIR text.
  std::string str() const;
  std::vector<std::string> functionNames() const;
  Signature signature(const std::string &function) const;

  /// Starts a new function taking `args`; finish it with
  /// FunctionBuilder::ret.
  FunctionBuilder function(const std::string &name,
                           const std::vector<TensorType> &args);

  /// Adds a function computing `function` for `size` members (ens.vmap):
  /// argument i carries the members along `inAxes[i]` or is shared (-1),
  /// result j holds them along `outAxes[j]`. Returns the new function's name
  /// (`name`, or one derived from `function`).
  std::string vmap(const std::string &function, std::vector<int64_t> inAxes,
                   std::vector<int64_t> outAxes, int64_t size,
                   const std::string &name = "");

  /// Adds a function computing several groups of members side by side, one
  /// ens.vmap per group (a heterogeneous ensemble, docs/batching.md): each
  /// group computes exactly what Module::vmap of it alone would. The k-th
  /// shared argument (in_axes -1) of every group is the new function's k-th
  /// argument, so every group must have as many shared arguments, of the
  /// same types; the groups' own arguments follow, group after group, and
  /// the results are each group's in group order. Returns the new
  /// function's name (`name`, or one derived from the first group's).
  std::string groups(const std::vector<Group> &groups,
                     const std::string &name = "");

  /// Adds a function returning `function`'s loss (its first result, a
  /// rank-0 float) and the gradients with respect to the arguments `wrt`
  /// (ens.value_and_grad). Returns the new function's name.
  std::string valueAndGrad(const std::string &function,
                           std::vector<int64_t> wrt,
                           const std::string &name = "");

  /// Compiles `function` for `target`. Compiled code is cached in the
  /// Context while an Executable holds it: compiling again while the module
  /// is unchanged returns the same Executable at no cost.
  Executable compile(const std::string &function, Target target = Target::Cpu,
                     const CompileOptions &options = {}) const;

  /// Compiles `function` specialized to the argument types `argTypes`: a
  /// function written with `?` sizes (docs/shapes.md) takes its sizes from
  /// them. The Executable's signature has the specialized types. Compiled
  /// code is cached per function, argument types, target and options.
  Executable compile(const std::string &function,
                     const std::vector<TensorType> &argTypes,
                     Target target = Target::Cpu,
                     const CompileOptions &options = {}) const;

  struct Impl;

private:
  friend class Context;
  explicit Module(std::shared_ptr<Impl> impl);
  /// Both compile()s: `argTypes` is null for a function's own types.
  Executable compileAt(const std::string &function,
                       const std::vector<TensorType> *argTypes, Target target,
                       const CompileOptions &options) const;
  std::shared_ptr<Impl> impl_;
};

/// Owns everything ens needs to parse, transform and compile programs.
class ENS_API Context {
public:
  Context();
  ~Context();

  /// Parses and verifies a module in the ens IR.
  Module parse(const std::string &text) const;
  /// As parse(text), for the text of the file `fileName`: an error located
  /// in it reads "<fileName>:<line>:<col>: error: <message>".
  Module parse(const std::string &text, const std::string &fileName) const;
  /// An empty module, to build functions in.
  Module createModule() const;

  struct Impl;

private:
  std::shared_ptr<Impl> impl_;
};

} // namespace ens

#endif // ENS_ENS_H
