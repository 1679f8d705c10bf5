//===- CpuBackend.cpp - JIT-compiled ens functions on the CPU -------------===//
//
// Compiles through ens-front, convert-ens-to-linalg and ens-cpu-pipeline
// (fusion, tiling over threads and registers, vectorization, bufferization
// with results as out-parameters so the caller owns every output buffer) and
// LLVM, for the host CPU and its vector width. Multi-threaded code loads LLVM's
// OpenMP runtime into the JIT; without one, the code runs on one thread.
// Buffers are allocated through the runtime's buffer cache. The entry is
// called through its C interface with one memref descriptor per argument
// and result.
//
//===----------------------------------------------------------------------===//

#include "ens/Backend/CpuBackend.h"
#include "ens/Backend/Cpu/Passes.h"
#include "ens/Conversion/Passes.h"
#include "ens/Dialect/Ens/IR/EnsOps.h"
#include "ens/Dialect/Ens/Transforms/Passes.h"
#include "ens/Runtime/BufferCache.h"
#include "ens/Support/Sizes.h"
#include "ens/Support/TensorTypes.h"

#include "OpenMPRuntime.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/OpenMP/OpenMPToLLVMIRTranslation.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/Threading.h"

#include <cstring>
#include <limits>
#include <mutex>

using namespace mlir;
using namespace mlir::ens;
namespace rt = ::ens::runtime;

void mlir::ens::registerCpuBackendDialects(DialectRegistry &registry) {
  registerEnsCpuPipelineDialects(registry);
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
  registerOpenMPDialectTranslation(registry);
}

static llvm::Error error(const Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

/// A diagnostic handler that appends each diagnostic to `text` on a line of
/// its own.
static DiagnosticEngine::HandlerTy appendTo(std::string &text) {
  return [&text](Diagnostic &diagnostic) {
    text += "\n  " + diagnostic.str();
    return success();
  };
}

/// The width of the host's widest vector registers in bytes.
static unsigned getVectorBytes(const llvm::orc::JITTargetMachineBuilder &host) {
  const std::vector<std::string> &features = host.getFeatures().getFeatures();
  if (llvm::is_contained(features, "+avx512f"))
    return 64;
  if (llvm::is_contained(features, "+avx"))
    return 32;
  return 16;
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
/// runtime function is reported now rather than on the first run. Code with
/// vectors wider than 256 bits keeps them whole: x86 would otherwise split them
/// on CPUs that prefer 256-bit vectors.
static llvm::Expected<std::unique_ptr<ExecutionEngine>>
createEngine(ModuleOp module, llvm::orc::JITTargetMachineBuilder host,
             unsigned vectorBytes, ArrayRef<StringRef> sharedLibPaths,
             StringRef symbol) {
  llvm::Expected<std::unique_ptr<llvm::TargetMachine>> machine =
      host.createTargetMachine();
  if (!machine)
    return machine.takeError();
  std::function<llvm::Error(llvm::Module *)> optimize =
      makeOptimizingTransformer(/*optLevel=*/2, /*sizeLevel=*/0,
                                machine->get());
  std::string vectorBits = std::to_string(vectorBytes * 8);
  auto transform = [&](llvm::Module *llvmModule) {
    for (llvm::Function &function : *llvmModule) {
      if (function.isDeclaration())
        continue;
      function.addFnAttr("prefer-vector-width", vectorBits);
      function.addFnAttr("min-legal-vector-width", vectorBits);
    }
    return optimize(llvmModule);
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

/// The loop iterations below which a program runs on one thread: measured
/// on the benchmarks, a few microseconds of work per thread wake-up.
static constexpr uint64_t kMinThreadedWork = uint64_t(1) << 22;

/// A copy of `module` in which only `entry` stays public, so that symbol
/// DCE drops what it does not call and the rest may be inlined away.
static OwningOpRef<ModuleOp> cloneForEntry(ModuleOp module, StringRef entry) {
  OwningOpRef<ModuleOp> clone = module.clone();
  for (func::FuncOp other : clone->getOps<func::FuncOp>())
    if (other.getSymName() != entry)
      other.setPrivate();
  return clone;
}

/// `bytes` as int64_t, saturated: a count past INT64_MAX is over any limit.
static int64_t toCheckedBytes(uint64_t bytes) {
  return static_cast<int64_t>(
      std::min<uint64_t>(bytes, std::numeric_limits<int64_t>::max()));
}

/// Checks that the arguments and results of `entry` together fit in
/// `maxBufferBytes`.
static llvm::Error checkSignatureBytes(func::FuncOp entry,
                                       int64_t maxBufferBytes) {
  uint64_t signatureBytes = 0;
  FunctionType type = entry.getFunctionType();
  for (Type t : llvm::concat<const Type>(type.getInputs(), type.getResults())) {
    llvm::Expected<int64_t> bytes = getTypeByteSize(cast<ShapedType>(t));
    if (!bytes)
      return bytes.takeError();
    signatureBytes = llvm::SaturatingAdd(signatureBytes, uint64_t(*bytes));
  }
  return checkBufferBytes(toCheckedBytes(signatureBytes), maxBufferBytes,
                          "@" + entry.getSymName().str() +
                              "'s arguments and results");
}

/// Checks each tensor value of `module`, ens lowered to linalg on tensors,
/// where every tensor value is a buffer the compiled code may allocate,
/// against `maxBufferBytes`. Returns the total iterations of the linalg
/// ops: an estimate of one call's work (each function counted once).
static llvm::Expected<uint64_t>
checkBuffersAndEstimateWork(ModuleOp module, int64_t maxBufferBytes) {
  llvm::Error tooLarge = llvm::Error::success();
  module->walk([&](Operation *op) {
    for (Type result : op->getResultTypes()) {
      auto tensor = dyn_cast<RankedTensorType>(result);
      if (!tensor || !tensor.hasStaticShape())
        continue;
      llvm::Expected<int64_t> bytes = getTypeByteSize(tensor);
      if (!bytes) {
        tooLarge = bytes.takeError();
        return WalkResult::interrupt();
      }
      if (*bytes <= maxBufferBytes)
        continue;
      std::string what;
      llvm::raw_string_ostream(what)
          << "a value of type " << tensor << " (" << op->getName() << ")";
      tooLarge = checkBufferBytes(*bytes, maxBufferBytes, what);
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  if (tooLarge)
    return std::move(tooLarge);
  uint64_t work = 0;
  module->walk([&](linalg::LinalgOp op) {
    uint64_t iterations = 1;
    for (int64_t extent : op.getStaticLoopRanges())
      iterations = ShapedType::isDynamic(extent)
                       ? std::numeric_limits<uint64_t>::max()
                       : llvm::SaturatingMultiply(iterations, uint64_t(extent));
    work = llvm::SaturatingAdd(work, iterations);
  });
  return work;
}

llvm::Expected<std::unique_ptr<CpuExecutable>>
CpuExecutable::compile(ModuleOp module, StringRef entry,
                       const CpuOptions &options) {
  static std::once_flag initialized;
  std::call_once(initialized, [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
  });

  auto function = module.lookupSymbol<func::FuncOp>(entry);
  if (!function)
    return error("no function named '" + entry + "'");
  FunctionType type = function.getFunctionType();
  for (Type t : llvm::concat<const Type>(type.getInputs(), type.getResults())) {
    std::optional<DType> dtype =
        getDType(cast<RankedTensorType>(t).getElementType());
    if (!dtype || *dtype == DType::F16 || *dtype == DType::BF16)
      return error("the CPU backend does not support f16 or bf16 arguments "
                   "yet");
  }
  llvm::Expected<llvm::orc::JITTargetMachineBuilder> host =
      llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!host)
    return host.takeError();

  EnsCpuPipelineOptions pipeline;
  pipeline.vectorBytes = getVectorBytes(*host);
  pipeline.threads = options.threads > 0
                         ? options.threads
                         : llvm::hardware_concurrency().compute_thread_count();
  int64_t maxBufferBytes = options.maxBufferBytes > 0
                               ? options.maxBufferBytes
                               : getDefaultMaxBufferBytes();
  if (llvm::Error tooLarge = checkSignatureBytes(function, maxBufferBytes))
    return std::move(tooLarge);

  // The program in linalg on tensors, once: the buffer check and the work
  // estimate read it, and every lowering below starts from a copy of it.
  MLIRContext *context = module.getContext();
  OwningOpRef<ModuleOp> linalg = cloneForEntry(module, entry);
  linalg->lookupSymbol(entry)->setAttr(
      LLVM::LLVMDialect::getEmitCWrapperAttrName(), UnitAttr::get(context));
  std::string frontDiagnostics;
  {
    ScopedDiagnosticHandler collect(context, appendTo(frontDiagnostics));
    PassManager pm(context);
    pm.addPass(createSymbolDCEPass());
    buildEnsFrontPipeline(pm);
    pm.addPass(createConvertEnsToLinalg());
    if (failed(pm.run(*linalg)))
      return error("cannot compile @" + entry +
                   " for the CPU:" + frontDiagnostics);
  }
  llvm::Expected<uint64_t> work =
      checkBuffersAndEstimateWork(*linalg, maxBufferBytes);
  if (!work)
    return work.takeError();
  // Waking threads costs more than a small program's whole step.
  if (pipeline.threads > 1 && *work < kMinThreadedWork)
    pipeline.threads = 1;
  std::optional<std::string> openMP;
  if (pipeline.threads > 1)
    openMP = cpu::findOpenMPRuntime();
  if (!openMP)
    pipeline.threads = 1;

  // Lowers a copy of the linalg program to the LLVM dialect with `pipeline`.
  auto lower = [&](const EnsCpuPipelineOptions &pipeline)
      -> llvm::Expected<OwningOpRef<ModuleOp>> {
    OwningOpRef<ModuleOp> clone = linalg->clone();
    std::string diagnostics = frontDiagnostics;
    ScopedDiagnosticHandler collect(context, appendTo(diagnostics));
    PassManager pm(context);
    buildEnsCpuPipeline(pm, pipeline);
    if (failed(pm.run(*clone)))
      return error("cannot compile @" + entry + " for the CPU:" + diagnostics);
    return std::move(clone);
  };

  std::string symbol = "_mlir_ciface_" + entry.str();
  llvm::Expected<OwningOpRef<ModuleOp>> lowered = lower(pipeline);
  if (!lowered)
    return lowered.takeError();
  SmallVector<StringRef, 1> libraries;
  if (openMP)
    libraries.push_back(*openMP);
  llvm::Expected<std::unique_ptr<ExecutionEngine>> engine =
      createEngine(**lowered, *host, pipeline.vectorBytes, libraries, symbol);
  if (!engine && openMP) {
    // The OpenMP runtime did not load or lacks a function the code calls:
    // run on one thread instead.
    llvm::consumeError(engine.takeError());
    pipeline.threads = 1;
    lowered = lower(pipeline);
    if (!lowered)
      return lowered.takeError();
    engine = createEngine(**lowered, *host, pipeline.vectorBytes, {}, symbol);
  }
  if (!engine)
    return engine.takeError();
  return std::unique_ptr<CpuExecutable>(new CpuExecutable(
      std::move(*engine), type, entry.str(), pipeline.threads));
}

CpuExecutable::CpuExecutable(std::unique_ptr<ExecutionEngine> engine,
                             FunctionType type, std::string name,
                             unsigned threads)
    : engine(std::move(engine)), type(type), name(std::move(name)),
      threads(threads) {
  rt::retainBufferCache();
}

CpuExecutable::~CpuExecutable() {
  engine.reset();
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
