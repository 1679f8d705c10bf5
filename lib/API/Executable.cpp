//===- Executable.cpp - Compiled functions of the C++ API -----------------===//

#include "Internal.h"

#include "ens/Dialect/Ens/Transforms/Passes.h"
#include "ens/Interpreter/Interpreter.h"

#include "mlir/Pass/PassManager.h"

using namespace ens;
namespace me = mlir::ens;

Executable Module::compile(const std::string &function, Target target,
                           const CompileOptions &options) const {
  std::lock_guard<std::recursive_mutex> lock(impl_->context->mutex);
  mlir::MLIRContext *context = &impl_->context->context;
  DiagnosticCollector diagnostics(context);
  auto entry = impl_->module->lookupSymbol<mlir::func::FuncOp>(function);
  if (!entry)
    throw Error("no function named '" + function + "'");
  mlir::OwningOpRef<mlir::ModuleOp> finished =
      cloneFinished(*impl_->module);
  std::string text;
  llvm::raw_string_ostream os(text);
  finished->print(os);
  if (options.threads < 0)
    throw Error("threads must be 0 (one per core) or more, got " +
                std::to_string(options.threads));
  if (options.maxBufferBytes < 0)
    throw Error("maxBufferBytes must be 0 (the default limit) or more, got " +
                std::to_string(options.maxBufferBytes));
  auto key =
      std::make_tuple(function, target, options.threads,
                      options.maxBufferBytes, std::move(text));
  if (auto it = impl_->context->compiled.find(key);
      it != impl_->context->compiled.end())
    return Executable(it->second);

  auto impl = std::make_shared<Executable::Impl>();
  impl->context = impl_->context;
  impl->target = target;
  impl->signature = toSignature(entry.getFunctionType());
  impl->function = function;
  switch (target) {
  case Target::Interpreter: {
    impl->module = std::move(finished);
    mlir::PassManager pm(context);
    // The interpreter runs ens.vmap by its definition, member by member.
    me::EnsFrontPipelineOptions front;
    front.batch = false;
    me::buildEnsFrontPipeline(pm, front);
    if (failed(pm.run(*impl->module)))
      diagnostics.fail("cannot prepare @" + function + " for the interpreter");
    break;
  }
  case Target::Cpu: {
    me::CpuOptions cpuOptions;
    cpuOptions.threads = options.threads;
    cpuOptions.maxBufferBytes = options.maxBufferBytes;
    llvm::Expected<std::unique_ptr<me::CpuExecutable>> cpu =
        me::CpuExecutable::compile(*finished, function, cpuOptions);
    if (!cpu)
      throw Error(llvm::toString(cpu.takeError()));
    impl->cpu = std::move(*cpu);
    break;
  }
  case Target::Cuda: {
    if (llvm::Error noDevice = me::cuda::loadCudaDriver())
      throw Error(llvm::toString(std::move(noDevice)));
    llvm::Expected<me::cuda::CudaProgram> program =
        me::cuda::generateCuda(*finished, function, options.maxBufferBytes);
    if (!program)
      throw Error(llvm::toString(program.takeError()));
    llvm::Expected<std::unique_ptr<me::cuda::DeviceExecutable>> device =
        me::cuda::DeviceExecutable::compile(std::move(*program));
    if (!device)
      throw Error(llvm::toString(device.takeError()));
    impl->device = std::move(*device);
    break;
  }
  case Target::CudaEmu: {
    llvm::Expected<me::cuda::CudaProgram> program =
        me::cuda::generateCuda(*finished, function, options.maxBufferBytes);
    if (!program)
      throw Error(llvm::toString(program.takeError()));
    llvm::Expected<std::unique_ptr<me::cuda::EmulatedExecutable>> emulated =
        me::cuda::EmulatedExecutable::compile(std::move(*program));
    if (!emulated)
      throw Error(llvm::toString(emulated.takeError()));
    impl->emulated = std::move(*emulated);
    break;
  }
  }
  impl_->context->compiled.emplace(std::move(key), impl);
  return Executable(std::move(impl));
}

Executable::Executable(std::shared_ptr<const Impl> impl)
    : impl_(std::move(impl)) {}

const Signature &Executable::signature() const { return impl_->signature; }

Target Executable::target() const { return impl_->target; }

unsigned Executable::threads() const {
  return impl_->cpu ? impl_->cpu->getNumThreads() : 1;
}

/// A view of `tensor` for the CPU backend.
static me::BufferRef toBuffer(const Tensor &tensor) {
  return {const_cast<void *>(tensor.data()), toInternal(tensor.type().dtype),
          tensor.type().shape};
}

/// Runs `run` on host-tensor copies of `args` and copies its results into
/// `results`: for the backends that do not run on caller memory.
static void runOnCopies(
    llvm::ArrayRef<me::BufferRef> args, llvm::ArrayRef<me::BufferRef> results,
    llvm::function_ref<llvm::Expected<std::vector<me::HostTensor>>(
        llvm::ArrayRef<me::HostTensor>)>
        run) {
  std::vector<me::HostTensor> hostArgs;
  for (const me::BufferRef &arg : args) {
    Tensor copy(TensorType{toPublic(arg.dtype),
                           std::vector<int64_t>(arg.shape.begin(),
                                                arg.shape.end())});
    std::memcpy(copy.data(), arg.data, copy.byteSize());
    hostArgs.emplace_back(arg.dtype, arg.shape, copy.values());
  }
  llvm::Expected<std::vector<me::HostTensor>> values = run(hostArgs);
  if (!values)
    throw Error(llvm::toString(values.takeError()));
  for (auto [result, value] : llvm::zip_equal(results, *values)) {
    Tensor tensor(TensorType{toPublic(value.dtype),
                             std::vector<int64_t>(value.shape.begin(),
                                                  value.shape.end())},
                  value.values);
    std::memcpy(result.data, tensor.data(), tensor.byteSize());
  }
}

/// Checks buffers against types, as the CPU backend does for its own.
static void check(const char *what, llvm::ArrayRef<me::BufferRef> buffers,
                  const std::vector<TensorType> &types) {
  if (buffers.size() != types.size())
    throw Error(std::string("expected ") + std::to_string(types.size()) + " " +
                what + ", got " + std::to_string(buffers.size()));
  for (auto [i, buffer, type] : llvm::enumerate(buffers, types)) {
    TensorType given{toPublic(buffer.dtype),
                     std::vector<int64_t>(buffer.shape.begin(),
                                          buffer.shape.end())};
    if (given != type)
      throw Error(std::string(what) + " " + std::to_string(i) +
                  ": expected " + type.str() + ", got " + given.str());
  }
}

/// The bytes of `buffer`.
static std::pair<uintptr_t, uintptr_t> getExtent(const me::BufferRef &buffer) {
  auto begin = reinterpret_cast<uintptr_t>(buffer.data);
  return {begin, begin + me::getNumElements(buffer.shape) *
                             me::getElementSize(buffer.dtype)};
}

/// Compiled code writes results while it still reads arguments (and other
/// results), so no result may share memory with another buffer.
static void checkSeparate(llvm::ArrayRef<me::BufferRef> args,
                          llvm::ArrayRef<me::BufferRef> results) {
  for (auto [r, result] : llvm::enumerate(results)) {
    auto [begin, end] = getExtent(result);
    // Copies: C++17 lambdas cannot capture structured bindings (clang).
    auto overlaps = [&, begin = begin,
                     end = end](const me::BufferRef &other) {
      auto [otherBegin, otherEnd] = getExtent(other);
      return begin < otherEnd && otherBegin < end;
    };
    for (auto [a, arg] : llvm::enumerate(args))
      if (overlaps(arg))
        throw Error("result " + std::to_string(r) + " overlaps argument " +
                    std::to_string(a) +
                    ": results must be memory of their own");
    for (auto [o, other] : llvm::enumerate(results.take_front(r)))
      if (overlaps(other))
        throw Error("result " + std::to_string(r) + " overlaps result " +
                    std::to_string(o) +
                    ": results must be memory of their own");
  }
}

static void runOnBuffers(const Executable::Impl &impl,
                         llvm::ArrayRef<me::BufferRef> args,
                         llvm::ArrayRef<me::BufferRef> results) {
  check("arguments", args, impl.signature.inputs);
  check("results", results, impl.signature.results);
  checkSeparate(args, results);
  if (impl.cpu) {
    if (llvm::Error error = impl.cpu->run(args, results))
      throw Error(llvm::toString(std::move(error)));
    return;
  }
  if (impl.emulated) {
    runOnCopies(args, results, [&](llvm::ArrayRef<me::HostTensor> hostArgs) {
      return impl.emulated->run(hostArgs);
    });
    return;
  }
  if (impl.device) {
    runOnCopies(args, results, [&](llvm::ArrayRef<me::HostTensor> hostArgs) {
      return impl.device->run(hostArgs);
    });
    return;
  }
  runOnCopies(args, results, [&](llvm::ArrayRef<me::HostTensor> hostArgs) {
    // The interpreter reads IR, which other threads may be creating.
    std::lock_guard<std::recursive_mutex> lock(impl.context->mutex);
    return me::Interpreter(*impl.module).run(impl.function, hostArgs);
  });
}

std::vector<Tensor> Executable::run(const std::vector<Tensor> &args) const {
  std::vector<Tensor> results;
  for (const TensorType &type : impl_->signature.results)
    results.emplace_back(type);
  std::vector<me::BufferRef> argRefs, resultRefs;
  for (const Tensor &arg : args)
    argRefs.push_back(toBuffer(arg));
  for (const Tensor &result : results)
    resultRefs.push_back(toBuffer(result));
  runOnBuffers(*impl_, argRefs, resultRefs);
  return results;
}

//===----------------------------------------------------------------------===//
// DLPack
//===----------------------------------------------------------------------===//

/// The element type of a DLPack dtype, if ens has it.
static DType toDType(DLDataType type, int64_t index) {
  if (type.lanes == 1) {
    if (type.code == kDLFloat && type.bits == 32)
      return DType::F32;
    if (type.code == kDLFloat && type.bits == 64)
      return DType::F64;
    if (type.code == kDLFloat && type.bits == 16)
      return DType::F16;
    if (type.code == kDLBfloat && type.bits == 16)
      return DType::BF16;
    if (type.code == kDLInt && type.bits == 32)
      return DType::I32;
    // DLPack 0.6 has no boolean code; frameworks export bool as uint8.
    if (type.code == kDLUInt && type.bits == 8)
      return DType::I1;
  }
  throw Error("tensor " + std::to_string(index) + " has DLPack dtype (code " +
              std::to_string(type.code) + ", " + std::to_string(type.bits) +
              " bits, " + std::to_string(type.lanes) +
              " lanes), which ens does not support");
}

/// A view of a caller's DLPack tensor, checked for what ens can read.
static me::BufferRef fromDLPack(const DLTensor *tensor, int64_t index,
                                Target target) {
  if (!tensor)
    throw Error("tensor " + std::to_string(index) + " is null");
  if (target != Target::Cuda && tensor->device.device_type != kDLCPU)
    throw Error("tensor " + std::to_string(index) + " is on DLPack device " +
                std::to_string(tensor->device.device_type) +
                "; this target needs host (kDLCPU) memory");
  llvm::ArrayRef<int64_t> shape(tensor->shape, tensor->ndim);
  if (tensor->strides) {
    llvm::SmallVector<int64_t, 4> compact = me::getRowMajorStrides(shape);
    for (int32_t d = 0; d < tensor->ndim; ++d)
      if (shape[d] != 1 && tensor->strides[d] != compact[d])
        throw Error("tensor " + std::to_string(index) +
                    " is strided; ens needs compact row-major tensors "
                    "(make it contiguous first)");
  }
  return {static_cast<char *>(tensor->data) + tensor->byte_offset,
          toInternal(toDType(tensor->dtype, index)), shape};
}

void Executable::run(const std::vector<const DLTensor *> &args,
                     const std::vector<DLTensor *> &results) const {
  std::vector<me::BufferRef> argRefs, resultRefs;
  for (auto [i, arg] : llvm::enumerate(args))
    argRefs.push_back(fromDLPack(arg, i, impl_->target));
  for (auto [i, result] : llvm::enumerate(results))
    resultRefs.push_back(fromDLPack(result, args.size() + i, impl_->target));
  runOnBuffers(*impl_, argRefs, resultRefs);
}

void Executable::run(const std::vector<DLManagedTensor *> &args,
                     const std::vector<DLManagedTensor *> &results) const {
  std::vector<const DLTensor *> argViews;
  std::vector<DLTensor *> resultViews;
  for (DLManagedTensor *arg : args)
    argViews.push_back(arg ? &arg->dl_tensor : nullptr);
  for (DLManagedTensor *result : results)
    resultViews.push_back(result ? &result->dl_tensor : nullptr);
  run(argViews, resultViews);
}
