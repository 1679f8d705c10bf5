//===- Executable.cpp - Compiled functions of the C++ API -----------------===//

#include "Internal.h"

#include "ens/Backend/Export.h"
#include "ens/Dialect/Ens/Transforms/Specialize.h"
#include "ens/Runtime/DLPack.h"

using namespace ens;
namespace me = mlir::ens;

me::Target ens::toInternal(Target target) {
  switch (target) {
  case Target::Interpreter:
    return me::Target::Interpreter;
  case Target::Cpu:
    return me::Target::Cpu;
  case Target::Cuda:
    return me::Target::Cuda;
  case Target::CudaEmu:
    return me::Target::CudaEmu;
  }
  throw Error("unknown target " + std::to_string(static_cast<int>(target)));
}

Executable Module::compile(const std::string &function, Target target,
                           const CompileOptions &options) const {
  return compileAt(function, nullptr, target, options);
}

Executable Module::compile(const std::string &function,
                           const std::vector<TensorType> &argTypes,
                           Target target, const CompileOptions &options) const {
  return compileAt(function, &argTypes, target, options);
}

/// Specializes `function` in `module` to `argTypes`, or to its own types
/// when it is static but reaches a `?` (a vmapped member written with `?`),
/// and returns the name to compile.
static std::string specialize(mlir::ModuleOp module,
                              const std::string &function,
                              const std::vector<TensorType> *argTypes,
                              const DiagnosticCollector &diagnostics) {
  auto entry = module.lookupSymbol<mlir::func::FuncOp>(function);
  std::vector<mlir::Type> types;
  if (argTypes) {
    for (const TensorType &type : *argTypes)
      types.push_back(toMlirType(module.getContext(), type));
  } else if (llvm::Error dynamic = me::checkStaticShapes(module, function)) {
    llvm::consumeError(std::move(dynamic));
    if (me::hasUnknownSizes(entry.getFunctionType()))
      return function; // compileExecutable says what to do
    llvm::append_range(types, entry.getArgumentTypes());
  } else {
    return function;
  }
  mlir::FailureOr<mlir::func::FuncOp> specialized =
      me::specializeEntryInPlace(module, function, types);
  if (failed(specialized))
    diagnostics.fail("cannot specialize @" + function);
  return specialized->getSymName().str();
}

Executable Module::compileAt(const std::string &function,
                             const std::vector<TensorType> *argTypes,
                             Target target,
                             const CompileOptions &options) const {
  std::lock_guard<std::recursive_mutex> lock(impl_->context->mutex);
  mlir::MLIRContext *context = &impl_->context->context;
  DiagnosticCollector diagnostics(context);
  if (!impl_->module->lookupSymbol<mlir::func::FuncOp>(function))
    throw Error("no function named '" + function + "'");
  mlir::OwningOpRef<mlir::ModuleOp> finished = cloneFinished(*impl_->module);
  std::string text;
  llvm::raw_string_ostream os(text);
  finished->print(os);
  std::string name = specialize(*finished, function, argTypes, diagnostics);
  auto entry = finished->lookupSymbol<mlir::func::FuncOp>(name);
  std::string keyName = function;
  if (argTypes)
    for (const TensorType &type : *argTypes)
      keyName += " " + type.str();
  if (options.threads < 0)
    throw Error("threads must be 0 (one per core) or more, got " +
                std::to_string(options.threads));
  if (options.maxBufferBytes < 0)
    throw Error("maxBufferBytes must be 0 (the default limit) or more, got " +
                std::to_string(options.maxBufferBytes));
  auto key =
      std::make_tuple(keyName, target, options.threads, options.maxBufferBytes,
                      options.cudaStrategy, options.cudaGemm,
                      options.gpuPrecision, std::move(text));
  auto &compiled = impl_->context->compiled;
  if (auto it = compiled.find(key); it != compiled.end())
    if (std::shared_ptr<const Executable::Impl> live = it->second.lock())
      return Executable(std::move(live));

  me::ExecutableOptions executableOptions;
  executableOptions.maxBufferBytes = options.maxBufferBytes;
  executableOptions.cpu.threads = options.threads;
  llvm::Expected<me::cuda::CodegenOptions> codegen =
      me::cuda::parseCodegenOptions(options.cudaStrategy, options.cudaGemm,
                                    options.gpuPrecision);
  if (!codegen)
    diagnostics.fail(llvm::toString(codegen.takeError()));
  executableOptions.cuda.codegen = *codegen;
  llvm::Expected<std::unique_ptr<me::Executable>> executable =
      me::compileExecutable(*finished, name, toInternal(target),
                            executableOptions);
  if (!executable)
    diagnostics.fail(llvm::toString(executable.takeError()));
  auto impl = std::make_shared<Executable::Impl>();
  impl->context = impl_->context;
  impl->target = target;
  impl->signature = toSignature(entry.getFunctionType());
  impl->executable = std::move(*executable);
  impl->module = std::move(finished);
  impl->function = name;
  impl->options = executableOptions;
  // The entries of code that no Executable holds any more go first.
  for (auto it = compiled.begin(); it != compiled.end();)
    it = it->second.expired() ? compiled.erase(it) : std::next(it);
  compiled.insert_or_assign(std::move(key), impl);
  return Executable(std::move(impl));
}

void Executable::save(const std::string &path) const {
  if (impl_->target == Target::Interpreter)
    throw Error("the interpreter has no compiled code to save; compile for "
                "Cpu, Cuda or CudaEmu");
  std::lock_guard<std::recursive_mutex> lock(impl_->context->mutex);
  DiagnosticCollector diagnostics(&impl_->context->context);
  me::ExportOptions options;
  options.target = impl_->target == Target::Cpu
                       ? ::ens::runtime::ArtifactTarget::Cpu
                       : ::ens::runtime::ArtifactTarget::Cuda;
  options.emulator = true;
  options.compile = impl_->options;
  llvm::Expected<::ens::runtime::Artifact> artifact =
      me::exportFunction(*impl_->module, impl_->function, options);
  if (!artifact)
    diagnostics.fail(llvm::toString(artifact.takeError()));
  if (::ens::runtime::Error failure =
          ::ens::runtime::writeArtifact(path, *artifact))
    throw Error(failure.getMessage());
}

Executable::Executable(std::shared_ptr<const Impl> impl)
    : impl_(std::move(impl)) {}

const Signature &Executable::signature() const { return impl_->signature; }

Target Executable::target() const { return impl_->target; }

unsigned Executable::threads() const {
  return impl_->executable->getNumThreads();
}

/// A view of `tensor` for the internal executable.
static me::BufferRef toBuffer(const Tensor &tensor) {
  return {const_cast<void *>(tensor.data()), toInternal(tensor.type().dtype),
          tensor.type().shape};
}

static void runOnBuffers(const Executable::Impl &impl,
                         llvm::ArrayRef<me::BufferRef> args,
                         llvm::ArrayRef<me::BufferRef> results) {
  // The interpreter reads IR, which other threads may be creating.
  std::unique_lock<std::recursive_mutex> lock(impl.context->mutex,
                                              std::defer_lock);
  if (impl.target == Target::Interpreter)
    lock.lock();
  if (llvm::Error error = impl.executable->run(args, results))
    throw Error(llvm::toString(std::move(error)));
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

/// The element type of a DLPack dtype; an Error if ens has none.
static me::DType toDType(DLDataType type, int64_t index) {
  if (std::optional<me::DType> dtype = ::ens::runtime::getDTypeOfDLPack(type))
    return *dtype;
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
  if (!::ens::runtime::isCompactRowMajor(*tensor))
    throw Error("tensor " + std::to_string(index) +
                " is strided; ens needs compact row-major tensors "
                "(make it contiguous first)");
  return {static_cast<char *>(tensor->data) + tensor->byte_offset,
          toDType(tensor->dtype, index), shape};
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
