//===- CpuBackend.cpp - JIT-compiled ens functions on the CPU -------------===//
//
// Loads the function's code from the persistent cache (CodeCache.h) where
// it can; otherwise lowers the function for the host (CpuLowering.h) and
// compiles the LLVM dialect in-process with MLIR's ExecutionEngine.
// Multi-threaded code loads LLVM's OpenMP runtime into the JIT; without one,
// the code runs on one thread. Buffers are allocated through the runtime's
// buffer cache. The entry is called through its C interface with one memref
// descriptor per argument and result.
//
//===----------------------------------------------------------------------===//

#include "ens/Backend/CpuBackend.h"
#include "ens/Backend/Cpu/CodeCache.h"
#include "ens/Backend/Cpu/Passes.h"
#include "ens/Runtime/BufferCache.h"
#include "ens/Runtime/Runner.h"
#include "ens/Support/DiskCache.h"
#include "ens/Support/FileSystem.h"
#include "ens/Support/TensorTypes.h"

#include "CpuLowering.h"

#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/OpenMP/OpenMPToLLVMIRTranslation.h"
#include "llvm/IR/Module.h"

#include <cstring>

using namespace mlir;
using namespace mlir::ens;
namespace rt = ::ens::runtime;

void mlir::ens::registerCpuBackendDialects(DialectRegistry &registry) {
  registerEnsCpuPipelineDialects(registry);
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
  registerOpenMPDialectTranslation(registry);
}

/// The allocation functions that memref lowering calls with generic
/// functions enabled, bound to the runtime's buffer cache.
static llvm::orc::SymbolMap
getBufferCacheSymbols(llvm::orc::MangleAndInterner mangle) {
  llvm::orc::SymbolMap symbols;
  symbols[mangle("_mlir_memref_to_llvm_alloc")] = {
      llvm::orc::ExecutorAddr::fromPtr(&rt::allocateBuffer),
      llvm::JITSymbolFlags::Exported};
  symbols[mangle("_mlir_memref_to_llvm_free")] = {
      llvm::orc::ExecutorAddr::fromPtr(&rt::freeBuffer),
      llvm::JITSymbolFlags::Exported};
  return symbols;
}

/// Compiles the LLVM-dialect `module` for `host`, with buffers allocated
/// through the buffer cache, and resolves `symbol`, so that a missing
/// runtime function is reported now rather than on the first run.
static llvm::Expected<std::unique_ptr<ExecutionEngine>>
createEngine(ModuleOp module, llvm::orc::JITTargetMachineBuilder host,
             unsigned vectorBytes, ArrayRef<StringRef> sharedLibPaths,
             StringRef symbol) {
  llvm::Expected<std::unique_ptr<llvm::TargetMachine>> machine =
      host.createTargetMachine();
  if (!machine)
    return machine.takeError();
  // The engine takes the machine; the pointer stays valid as long as it.
  llvm::TargetMachine *target = machine->get();
  auto transform = [&](llvm::Module *llvmModule) {
    return cpu::optimizeForHost(*llvmModule, *target, vectorBytes);
  };
  ExecutionEngineOptions options;
  // A function_ref: `transform` must outlive ExecutionEngine::create, which
  // is the only place that calls it.
  options.transformer = transform;
  options.sharedLibPaths = sharedLibPaths;
  llvm::Expected<std::unique_ptr<ExecutionEngine>> engine =
      ExecutionEngine::create(module, options, std::move(*machine));
  if (!engine)
    return engine.takeError();
  (*engine)->registerSymbols(getBufferCacheSymbols);
  if (llvm::Expected<void (*)(void **)> entry = (*engine)->lookupPacked(symbol);
      !entry)
    return entry.takeError();
  return engine;
}

llvm::Expected<std::unique_ptr<CpuExecutable>>
CpuExecutable::compile(ModuleOp module, StringRef entry,
                       const CpuOptions &options) {
  llvm::Expected<std::optional<cpu::CachedCode>> cached =
      cpu::loadOrCompileCode(module, entry, options, getCacheDirectory());
  if (!cached)
    return cached.takeError();
  if (*cached) {
    FunctionType type =
        module.lookupSymbol<func::FuncOp>(entry).getFunctionType();
    return std::unique_ptr<CpuExecutable>(
        new CpuExecutable(nullptr, std::move((*cached)->runner), type,
                          entry.str(), (*cached)->threads));
  }
  llvm::Expected<cpu::CpuLowering> lowering =
      cpu::prepareLowering(module, entry, options);
  if (!lowering)
    return lowering.takeError();
  std::string symbol = "_mlir_ciface_" + entry.str();
  llvm::Expected<OwningOpRef<ModuleOp>> lowered = lowering->lower();
  if (!lowered)
    return lowered.takeError();
  SmallVector<StringRef, 1> libraries;
  if (lowering->openMP)
    libraries.push_back(*lowering->openMP);
  llvm::Expected<std::unique_ptr<ExecutionEngine>> engine = createEngine(
      **lowered, lowering->host, lowering->vectorBytes, libraries, symbol);
  if (!engine && lowering->openMP) {
    // The OpenMP runtime did not load or lacks a function the code calls:
    // run on one thread instead.
    llvm::consumeError(engine.takeError());
    lowering->useOneThread();
    lowered = lowering->lower();
    if (!lowered)
      return lowered.takeError();
    engine = createEngine(**lowered, lowering->host, lowering->vectorBytes, {},
                          symbol);
  }
  if (!engine)
    return engine.takeError();
  return std::unique_ptr<CpuExecutable>(
      new CpuExecutable(std::move(*engine), nullptr, lowering->type,
                        entry.str(), lowering->threads));
}

CpuExecutable::CpuExecutable(std::unique_ptr<ExecutionEngine> engine,
                             std::unique_ptr<rt::Runner> runner,
                             FunctionType type, std::string name,
                             unsigned threads)
    : engine(std::move(engine)), runner(std::move(runner)), type(type),
      name(std::move(name)), threads(threads) {
  rt::retainBufferCache();
}

CpuExecutable::~CpuExecutable() {
  engine.reset();
  runner.reset();
  rt::releaseBufferCache();
}

namespace {
/// Typed storage for a HostTensor, in the layout a BufferRef describes.
class TypedStorage {
public:
  explicit TypedStorage(const HostTensor &tensor)
      : dtype(tensor.dtype), shape(tensor.shape),
        bytes(tensor.getNumElements() * getElementSize(dtype)) {
    tensor.storeTo(bytes.data());
  }

  BufferRef getRef() { return {bytes.data(), dtype, shape}; }

  HostTensor toTensor() const {
    return HostTensor::loadFrom(dtype, shape, bytes.data());
  }

private:
  DType dtype;
  SmallVector<int64_t, 4> shape;
  std::vector<uint8_t> bytes;
};

/// The memref descriptor of a row-major buffer: allocated and aligned
/// pointers, offset, sizes, strides.
std::vector<int64_t> makeDescriptor(const BufferRef &buffer) {
  size_t rank = buffer.shape.size();
  std::vector<int64_t> descriptor(3 + 2 * rank);
  std::memcpy(&descriptor[0], &buffer.data, sizeof(void *));
  std::memcpy(&descriptor[1], &buffer.data, sizeof(void *));
  SmallVector<int64_t, 4> strides = getRowMajorStrides(buffer.shape);
  for (size_t d = 0; d < rank; ++d) {
    descriptor[3 + d] = buffer.shape[d];
    descriptor[3 + rank + d] = strides[d];
  }
  return descriptor;
}

} // namespace

llvm::Error CpuExecutable::run(ArrayRef<BufferRef> args,
                               ArrayRef<BufferRef> results) {
  if (llvm::Error mismatch = checkBuffers("arguments", args, type.getInputs()))
    return mismatch;
  if (llvm::Error mismatch =
          checkBuffers("results", results, type.getResults()))
    return mismatch;
  if (runner) {
    std::vector<const void *> argData;
    std::vector<void *> resultData;
    for (const BufferRef &arg : args)
      argData.push_back(arg.data);
    for (const BufferRef &result : results)
      resultData.push_back(result.data);
    return toLlvmError(runner->runOnHost(argData, resultData));
  }
  // The C interface takes a pointer to each descriptor; invokePacked takes
  // a pointer to each of those.
  std::vector<std::vector<int64_t>> descriptors;
  for (const BufferRef &buffer : llvm::concat<const BufferRef>(args, results))
    descriptors.push_back(makeDescriptor(buffer));
  std::vector<void *> pointers, packed;
  for (std::vector<int64_t> &descriptor : descriptors)
    pointers.push_back(descriptor.data());
  for (void *&pointer : pointers)
    packed.push_back(&pointer);
  return engine->invokePacked("_mlir_ciface_" + name, packed);
}

llvm::Expected<std::vector<HostTensor>>
CpuExecutable::run(ArrayRef<HostTensor> args) {
  if (llvm::Error mismatch = checkArguments(type, args))
    return std::move(mismatch);
  std::vector<TypedStorage> inputs, outputs;
  for (const HostTensor &arg : args)
    inputs.emplace_back(arg);
  for (Type result : type.getResults()) {
    auto tensorType = cast<RankedTensorType>(result);
    outputs.emplace_back(HostTensor(*getDType(tensorType.getElementType()),
                                    tensorType.getShape()));
  }
  SmallVector<BufferRef> argRefs, resultRefs;
  for (TypedStorage &storage : inputs)
    argRefs.push_back(storage.getRef());
  for (TypedStorage &storage : outputs)
    resultRefs.push_back(storage.getRef());
  if (llvm::Error failure = run(argRefs, resultRefs))
    return std::move(failure);
  std::vector<HostTensor> results;
  for (const TypedStorage &storage : outputs)
    results.push_back(storage.toTensor());
  return results;
}
