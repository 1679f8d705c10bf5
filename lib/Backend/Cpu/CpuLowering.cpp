//===- CpuLowering.cpp - From an ens function to LLVM for the host --------===//
//
// Compiles through ens-front, convert-ens-to-linalg and ens-cpu-pipeline
// (fusion, tiling over threads and registers, vectorization, bufferization
// with results as out-parameters so the caller owns every output buffer), to
// the LLVM dialect, for the host CPU and its vector width.
//
//===----------------------------------------------------------------------===//

#include "CpuLowering.h"
#include "OpenMPRuntime.h"

#include "ens/Backend/Cpu/Passes.h"
#include "ens/Conversion/Passes.h"
#include "ens/Dialect/Ens/IR/EnsOps.h"
#include "ens/Dialect/Ens/Transforms/Passes.h"
#include "ens/Support/Sizes.h"
#include "ens/Support/TensorTypes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/Threading.h"

#include <limits>
#include <mutex>
#include <unistd.h>

using namespace mlir;
using namespace mlir::ens;

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

int64_t cpu::getHostL2Bytes() {
  long bytes = sysconf(_SC_LEVEL2_CACHE_SIZE);
  return bytes > 0 ? bytes : int64_t(1) << 20;
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

unsigned cpu::getRequestedThreads(const CpuOptions &options) {
  return options.threads > 0
             ? options.threads
             : llvm::hardware_concurrency().compute_thread_count();
}

int64_t cpu::getMaxBufferBytes(const CpuOptions &options) {
  return options.maxBufferBytes > 0 ? options.maxBufferBytes
                                    : getDefaultMaxBufferBytes();
}

llvm::Expected<cpu::CpuLowering>
cpu::prepareLowering(ModuleOp module, StringRef entry,
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

  unsigned threads = getRequestedThreads(options);
  int64_t maxBufferBytes = getMaxBufferBytes(options);
  if (llvm::Error tooLarge = checkSignatureBytes(function, maxBufferBytes))
    return std::move(tooLarge);

  // The program in linalg on tensors, once: the buffer check and the work
  // estimate read it, and every lowering starts from a copy of it.
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
  if (threads > 1 && *work < kMinThreadedWork)
    threads = 1;
  std::optional<std::string> openMP;
  if (threads > 1)
    openMP = findOpenMPRuntime();
  if (!openMP)
    threads = 1;
  unsigned vectorBytes = getVectorBytes(*host);
  return CpuLowering{entry.str(),
                     type,
                     std::move(*host),
                     vectorBytes,
                     getHostL2Bytes(),
                     threads,
                     std::move(openMP),
                     std::move(linalg),
                     std::move(frontDiagnostics)};
}

llvm::Expected<OwningOpRef<ModuleOp>> cpu::CpuLowering::lower() const {
  OwningOpRef<ModuleOp> clone = ModuleOp(linalg.get()).clone();
  MLIRContext *context = clone->getContext();
  std::string diagnostics = frontDiagnostics;
  ScopedDiagnosticHandler collect(context, appendTo(diagnostics));
  EnsCpuPipelineOptions pipeline;
  pipeline.vectorBytes = vectorBytes;
  pipeline.l2Bytes = l2Bytes;
  pipeline.threads = threads;
  PassManager pm(context);
  buildEnsCpuPipeline(pm, pipeline);
  if (failed(pm.run(*clone)))
    return error("cannot compile @" + entry + " for the CPU:" + diagnostics);
  return std::move(clone);
}

void cpu::CpuLowering::useOneThread() {
  threads = 1;
  openMP.reset();
}

llvm::Error cpu::optimizeForHost(llvm::Module &module,
                                 llvm::TargetMachine &machine,
                                 unsigned vectorBytes) {
  std::string vectorBits = std::to_string(vectorBytes * 8);
  for (llvm::Function &function : module) {
    if (function.isDeclaration())
      continue;
    function.addFnAttr("prefer-vector-width", vectorBits);
    function.addFnAttr("min-legal-vector-width", vectorBits);
  }
  return makeOptimizingTransformer(/*optLevel=*/2, /*sizeLevel=*/0,
                                   &machine)(&module);
}
