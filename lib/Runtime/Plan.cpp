//===- Plan.cpp - Element types, signatures and launch plans --------------===//
//
// The sizes and spellings of element types, and the check that a launch
// plan, wherever it came from, can run as its signature says.
//
//===----------------------------------------------------------------------===//

#include "ens/Runtime/Plan.h"
#include "ens/Runtime/Bytes.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstring>

using namespace ens::runtime;

namespace {
struct DTypeInfo {
  DType dtype;
  const char *spelling;
  size_t bytes;
};
constexpr DTypeInfo kDTypes[] = {
    {DType::F16, "f16", 2}, {DType::BF16, "bf16", 2}, {DType::F32, "f32", 4},
    {DType::F64, "f64", 8}, {DType::I32, "i32", 4},   {DType::I1, "i1", 1},
};
} // namespace

const char *ens::runtime::getDTypeSpelling(DType dtype) {
  for (const DTypeInfo &info : kDTypes)
    if (info.dtype == dtype)
      return info.spelling;
  return "?";
}

std::optional<DType> ens::runtime::parseDTypeSpelling(std::string_view name) {
  for (const DTypeInfo &info : kDTypes)
    if (name == info.spelling)
      return info.dtype;
  return std::nullopt;
}

size_t ens::runtime::getDTypeBytes(DType dtype) {
  for (const DTypeInfo &info : kDTypes)
    if (info.dtype == dtype)
      return info.bytes;
  return 0;
}

std::optional<int64_t>
ens::runtime::getDenseBytes(DType dtype, const std::vector<int64_t> &shape) {
  int64_t bytes = static_cast<int64_t>(getDTypeBytes(dtype));
  for (int64_t dim : shape)
    if (dim < 0 || __builtin_mul_overflow(bytes, dim, &bytes))
      return std::nullopt;
  return bytes;
}

double ens::runtime::loadElement(const void *data, DType dtype, int64_t i) {
  auto load = [&](auto value) {
    std::memcpy(&value, static_cast<const char *>(data) + i * sizeof(value),
                sizeof(value));
    return value;
  };
  switch (dtype) {
  case DType::F32:
    return load(float());
  case DType::F64:
    return load(double());
  case DType::I32:
    return load(int32_t());
  case DType::I1:
    return load(uint8_t()) & 1;
  case DType::BF16: {
    // The upper half of an f32.
    uint32_t bits = uint32_t(load(uint16_t())) << 16;
    float value;
    std::memcpy(&value, &bits, sizeof(value));
    return value;
  }
  case DType::F16: {
    uint16_t bits = load(uint16_t());
    int exponent = bits >> 10 & 0x1f, mantissa = bits & 0x3ff;
    double magnitude = exponent == 0 ? std::ldexp(mantissa, -24)
                       : exponent == 31
                           ? (mantissa ? NAN : INFINITY)
                           : std::ldexp(mantissa + 1024, exponent - 25);
    return bits & 0x8000 ? -magnitude : magnitude;
  }
  }
  return NAN;
}

std::string TensorSpec::getTypeString() const {
  std::string text = "tensor<";
  for (int64_t dim : shape)
    text += std::to_string(dim) + "x";
  return text + getDTypeSpelling(dtype) + ">";
}

static const char *const kBufferKindNames[] = {"input", "output", "temporary",
                                               "constant"};

const char *ens::runtime::getBufferKindName(BufferKind kind) {
  return kBufferKindNames[static_cast<int>(kind)];
}

std::optional<BufferKind>
ens::runtime::parseBufferKindName(std::string_view name) {
  for (int i = 0; i < 4; ++i)
    if (name == kBufferKindNames[i])
      return static_cast<BufferKind>(i);
  return std::nullopt;
}

int64_t LaunchPlan::getPeakDeviceBytes() const {
  int64_t bytes = arenaBytes;
  for (const BufferInfo &buffer : buffers)
    if (buffer.kind != BufferKind::Temporary)
      bytes += buffer.bytes;
  return bytes;
}

/// Checks the buffers of `plan` against `signature`.
static Error verifyBuffers(const LaunchPlan &plan, const Signature &signature) {
  std::vector<int> inputs(signature.args.size()),
      outputs(signature.results.size());
  for (size_t i = 0; i < plan.buffers.size(); ++i) {
    const BufferInfo &buffer = plan.buffers[i];
    std::string name = "buffer " + std::to_string(i);
    std::optional<int64_t> bytes = getDenseBytes(buffer.dtype, buffer.shape);
    if (!bytes || *bytes != buffer.bytes)
      return Error(name + " has " + std::to_string(buffer.bytes) +
                   " bytes, which is not the size of its type");
    const std::vector<TensorSpec> *specs = nullptr;
    std::vector<int> *seen = nullptr;
    switch (buffer.kind) {
    case BufferKind::Input:
      specs = &signature.args, seen = &inputs;
      break;
    case BufferKind::Output:
      specs = &signature.results, seen = &outputs;
      break;
    case BufferKind::Temporary:
      if (buffer.arenaOffset < 0 ||
          buffer.arenaOffset > plan.arenaBytes - buffer.bytes)
        return Error(name + " lies outside the arena");
      break;
    case BufferKind::Constant:
      if (static_cast<int64_t>(buffer.init.size()) != buffer.bytes)
        return Error(name + " is a constant without its bytes");
      break;
    }
    if (!specs)
      continue;
    const char *what = specs == &signature.args ? "argument" : "result";
    if (buffer.index >= specs->size())
      return Error(name + " is " + what + " " + std::to_string(buffer.index) +
                   ", which the signature lacks");
    const TensorSpec &spec = (*specs)[buffer.index];
    if (spec.dtype != buffer.dtype || spec.shape != buffer.shape)
      return Error(name + " does not have the type of " + what + " " +
                   std::to_string(buffer.index) + ", " + spec.getTypeString());
    ++(*seen)[buffer.index];
  }
  for (auto [counts, what] :
       {std::pair(&inputs, "argument"), std::pair(&outputs, "result")})
    for (size_t i = 0; i < counts->size(); ++i)
      if ((*counts)[i] != 1)
        return Error(std::string(what) + " " + std::to_string(i) + " has " +
                     std::to_string((*counts)[i]) +
                     " buffers in the plan; it must have one");
  return Error::success();
}

/// An error if operand `x` (called `name`) of a GEMM step, a `rows` x
/// `cols` matrix in memory per batch, is not an f32 buffer of `plan` that
/// holds every element it addresses with a leading dimension BLAS takes.
static Error verifyOperand(const LaunchPlan &plan, const GemmOperand &x,
                           const std::string &name, int64_t rows, int64_t cols,
                           int64_t batch) {
  if (x.buffer < 0 || static_cast<size_t>(x.buffer) >= plan.buffers.size())
    return Error(name + " is unknown buffer " + std::to_string(x.buffer));
  const BufferInfo &buffer = plan.buffers[x.buffer];
  if (buffer.dtype != DType::F32)
    return Error(name + " is not a buffer of f32");
  if (x.ld < std::max<int64_t>(1, rows) || x.ld > INT_MAX)
    return Error(name + " has leading dimension " + std::to_string(x.ld) +
                 " for " + std::to_string(rows) + " rows");
  if (x.offset < 0 || x.stride < 0)
    return Error(name + " has a negative offset or stride");
  if (rows == 0 || cols == 0 || batch == 0)
    return Error::success();
  __int128 last = static_cast<__int128>(x.offset) +
                  static_cast<__int128>(batch - 1) * x.stride +
                  static_cast<__int128>(cols - 1) * x.ld + (rows - 1);
  if (last >= buffer.bytes / 4)
    return Error(name + " reaches past the end of buffer " +
                 std::to_string(x.buffer));
  return Error::success();
}

Error ens::runtime::verifyGemmSteps(const LaunchPlan &plan) {
  size_t after = 0;
  for (size_t i = 0; i < plan.gemms.size(); ++i) {
    const GemmStep &gemm = plan.gemms[i];
    std::string name = "gemm step " + std::to_string(i);
    if (gemm.after < after || gemm.after > plan.launches.size())
      return Error(name + " is out of order with the launches");
    after = gemm.after;
    for (int64_t size : {gemm.m, gemm.n, gemm.k, gemm.batch})
      if (size < 0 || size > INT_MAX)
        return Error(name + " has a size outside [0, 2^31)");
    struct {
      const GemmOperand &x;
      const char *name;
      int64_t rows, cols;
    } operands[] = {
        {gemm.a, "'s A", gemm.transA ? gemm.k : gemm.m,
         gemm.transA ? gemm.m : gemm.k},
        {gemm.b, "'s B", gemm.transB ? gemm.n : gemm.k,
         gemm.transB ? gemm.k : gemm.n},
        {gemm.c, "'s C", gemm.m, gemm.n},
    };
    for (const auto &operand : operands)
      if (Error failure = verifyOperand(plan, operand.x, name + operand.name,
                                        operand.rows, operand.cols, gemm.batch))
        return failure;
    BufferKind kind = plan.buffers[gemm.c.buffer].kind;
    if (kind != BufferKind::Output && kind != BufferKind::Temporary)
      return Error(name + " writes " + getBufferKindName(kind) + " buffer " +
                   std::to_string(gemm.c.buffer));
  }
  return Error::success();
}

Error ens::runtime::verifyPlan(const LaunchPlan &plan,
                               const Signature &signature) {
  if (plan.arenaBytes < 0)
    return Error("the arena has a negative size");
  if (Error failure = verifyBuffers(plan, signature))
    return failure;
  for (size_t i = 0; i < plan.launches.size(); ++i) {
    const KernelLaunch &launch = plan.launches[i];
    std::string name = "launch " + std::to_string(i);
    if (launch.kernel >= plan.kernels.size())
      return Error(name + " names kernel " + std::to_string(launch.kernel) +
                   " of " + std::to_string(plan.kernels.size()));
    const KernelInfo &kernel = plan.kernels[launch.kernel];
    for (unsigned size : launch.grid)
      if (size == 0)
        return Error(name + " has an empty grid");
    for (unsigned size : launch.block)
      if (size == 0)
        return Error(name + " has an empty block");
    if (launch.args.size() != kernel.paramTypes.size())
      return Error(name + " passes " + std::to_string(launch.args.size()) +
                   " arguments to " + kernel.name + ", which takes " +
                   std::to_string(kernel.paramTypes.size()));
    for (size_t a = 0; a < launch.args.size(); ++a) {
      bool pointer = kernel.paramTypes[a].find('*') != std::string::npos;
      const KernelArg &arg = launch.args[a];
      if (pointer != arg.isBuffer)
        return Error(name + " passes a " +
                     (arg.isBuffer ? "buffer" : "scalar") + " as argument " +
                     std::to_string(a) + " of " + kernel.name + ", a " +
                     kernel.paramTypes[a]);
      if (arg.isBuffer && (arg.value < 0 || static_cast<size_t>(arg.value) >=
                                                plan.buffers.size()))
        return Error(name + " passes unknown buffer " +
                     std::to_string(arg.value));
    }
  }
  return verifyGemmSteps(plan);
}

namespace {
/// FNV-1a over the fields fed to it, each as 8 little-endian bytes or as
/// its length and bytes, so that no two sequences of fields collide by
/// concatenation.
class PlanHasher {
public:
  void add(uint64_t value) {
    unsigned char bytes[8];
    putLittleEndian64(bytes, value);
    hash.addBytes(bytes, sizeof(bytes));
  }
  void add(const std::string &text) {
    add(text.size());
    hash.addBytes(text.data(), text.size());
  }
  template <typename Range> void addAll(const Range &values) {
    add(values.size());
    for (const auto &value : values)
      add(static_cast<uint64_t>(value));
  }
  uint64_t get() const { return hash.get(); }

private:
  Fnv1a hash;
};

void addOperand(PlanHasher &hasher, const GemmOperand &operand) {
  for (int64_t field :
       {operand.buffer, operand.offset, operand.ld, operand.stride})
    hasher.add(static_cast<uint64_t>(field));
}
} // namespace

std::string ens::runtime::getPlanKernelName(const LaunchPlan &plan) {
  PlanHasher hasher;
  hasher.add(plan.buffers.size());
  for (const BufferInfo &buffer : plan.buffers) {
    for (uint64_t field :
         {uint64_t(buffer.kind), uint64_t(buffer.index), uint64_t(buffer.dtype),
          uint64_t(buffer.bytes), uint64_t(buffer.arenaOffset),
          uint64_t(buffer.init.size())})
      hasher.add(field);
    hasher.addAll(buffer.shape);
  }
  hasher.add(plan.arenaBytes);
  hasher.add(plan.kernels.size());
  for (const KernelInfo &kernel : plan.kernels) {
    hasher.add(kernel.name);
    hasher.add(kernel.paramTypes.size());
    for (const std::string &type : kernel.paramTypes)
      hasher.add(type);
  }
  hasher.add(plan.launches.size());
  for (const KernelLaunch &launch : plan.launches) {
    hasher.add(launch.kernel);
    hasher.addAll(launch.grid);
    hasher.addAll(launch.block);
    hasher.add(launch.sharedBytes);
    hasher.add(launch.args.size());
    for (const KernelArg &arg : launch.args) {
      hasher.add(arg.isBuffer);
      hasher.add(static_cast<uint64_t>(arg.value));
    }
  }
  hasher.add(plan.gemms.size());
  for (const GemmStep &gemm : plan.gemms) {
    for (int64_t field :
         {int64_t(gemm.after), int64_t(gemm.transA), int64_t(gemm.transB),
          gemm.m, gemm.n, gemm.k, gemm.batch})
      hasher.add(static_cast<uint64_t>(field));
    uint32_t alpha, beta;
    std::memcpy(&alpha, &gemm.alpha, sizeof(alpha));
    std::memcpy(&beta, &gemm.beta, sizeof(beta));
    hasher.add(alpha);
    hasher.add(beta);
    addOperand(hasher, gemm.a);
    addOperand(hasher, gemm.b);
    addOperand(hasher, gemm.c);
  }
  char hex[17];
  std::snprintf(hex, sizeof(hex), "%016llx",
                static_cast<unsigned long long>(hasher.get()));
  return std::string("ens_plan_") + hex;
}

std::string ens::runtime::getPlanKernelDefinition(const LaunchPlan &plan) {
  return "extern \"C\" __global__ void " + getPlanKernelName(plan) + "() {}\n";
}

Error ens::runtime::checkPlanMatchesCode(
    const LaunchPlan &plan,
    const std::function<bool(const std::string &)> &hasKernel) {
  if (hasKernel(getPlanKernelName(plan)))
    return Error::success();
  return Error("the launch plan is not the one its kernels were written "
               "for (they declare no " +
               getPlanKernelName(plan) +
               "): the artifact's metadata disagrees with its code");
}

std::string ens::runtime::getSignatureString(const Signature &signature) {
  std::string text = "(";
  for (size_t i = 0; i < signature.args.size(); ++i)
    text += (i ? ", " : "") + signature.args[i].getTypeString();
  text += ") -> (";
  for (size_t i = 0; i < signature.results.size(); ++i)
    text += (i ? ", " : "") + signature.results[i].getTypeString();
  return text + ")";
}
