//===- CpuBackend.cpp - JIT-compiled ens functions on the CPU -------------===//
//
// The pipeline: function transforms, convert-ens-to-linalg, inlining,
// one-shot bufferization with results turned into out-parameters (so the
// caller owns every output buffer), ownership-based deallocation, loops,
// and LLVM. The entry is called through its C interface with one memref
// descriptor per argument and result.
//
//===----------------------------------------------------------------------===//

#include "ens/Backend/CpuBackend.h"
#include "ens/Conversion/Passes.h"
#include "ens/Dialect/Ens/Transforms/Passes.h"
#include "ens/Interpreter/Interpreter.h"

#include "mlir/Conversion/AffineToStandard/AffineToStandard.h"
#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVMPass.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/MathToLibm/MathToLibm.h"
#include "mlir/Conversion/MemRefToLLVM/MemRefToLLVM.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Dialect/Arith/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/FuncBufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Bufferization/Transforms/OneShotAnalysis.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/Extensions/InlinerExtension.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/Linalg/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/SCF/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Tensor/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/Support/TargetSelect.h"

#include <cstring>
#include <mutex>

using namespace mlir;
using namespace mlir::ens;

void mlir::ens::registerCpuBackendDialects(DialectRegistry &registry) {
  registry.insert<arith::ArithDialect, bufferization::BufferizationDialect,
                  linalg::LinalgDialect, LLVM::LLVMDialect, math::MathDialect,
                  memref::MemRefDialect, scf::SCFDialect,
                  tensor::TensorDialect>();
  arith::registerBufferizableOpInterfaceExternalModels(registry);
  bufferization::func_ext::registerBufferizableOpInterfaceExternalModels(
      registry);
  linalg::registerBufferizableOpInterfaceExternalModels(registry);
  scf::registerBufferizableOpInterfaceExternalModels(registry);
  tensor::registerBufferizableOpInterfaceExternalModels(registry);
  func::registerInlinerExtension(registry);
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
}

/// Copies between buffers as linalg.copy, which becomes loops: memref.copy
/// of a strided view would call into MLIR's runtime library instead.
static LogicalResult copyWithLinalg(OpBuilder &b, Location loc, Value from,
                                   Value to) {
  b.create<linalg::CopyOp>(loc, from, to);
  return success();
}

/// The passes from an ens module to the LLVM dialect.
static void buildCpuPipeline(PassManager &pm) {
  pm.addPass(createEnsStdlib());
  pm.addPass(createEnsAutodiff());
  pm.addPass(createEnsBatch());
  pm.addPass(createConvertEnsToLinalg());
  pm.addPass(createInlinerPass());
  pm.addPass(createSymbolDCEPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(bufferization::createEmptyTensorToAllocTensorPass());
  bufferization::OneShotBufferizationOptions options;
  options.bufferizeFunctionBoundaries = true;
  options.setFunctionBoundaryTypeConversion(
      bufferization::LayoutMapOption::IdentityLayoutMap);
  options.memCpyFn = copyWithLinalg;
  pm.addPass(bufferization::createOneShotBufferizePass(options));
  bufferization::BufferResultsToOutParamsOpts outParams;
  outParams.memCpyFn = copyWithLinalg;
  pm.addPass(bufferization::createBufferResultsToOutParamsPass(outParams));
  bufferization::BufferDeallocationPipelineOptions deallocation;
  bufferization::buildBufferDeallocationPipeline(pm, deallocation);
  pm.addPass(createConvertLinalgToLoopsPass());
  pm.addPass(createConvertSCFToCFPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createFinalizeMemRefToLLVMConversionPass());
  pm.addPass(createConvertMathToLibmPass());
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertControlFlowToLLVMPass());
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
}

static llvm::Error error(const Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

llvm::Expected<std::unique_ptr<CpuExecutable>>
CpuExecutable::compile(ModuleOp module, StringRef entry) {
  static std::once_flag initialized;
  std::call_once(initialized, [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
  });

  OwningOpRef<ModuleOp> clone = module.clone();
  auto function = clone->lookupSymbol<func::FuncOp>(entry);
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
  // Only the entry stays visible; everything else may be inlined away.
  for (func::FuncOp other : clone->getOps<func::FuncOp>())
    if (other != function)
      other.setPrivate();
  function->setAttr(LLVM::LLVMDialect::getEmitCWrapperAttrName(),
                    UnitAttr::get(module.getContext()));

  std::string diagnostics;
  {
    ScopedDiagnosticHandler collect(module.getContext(), [&](Diagnostic &d) {
      diagnostics += "\n  " + d.str();
      return success();
    });
    PassManager pm(module.getContext());
    buildCpuPipeline(pm);
    if (failed(pm.run(*clone)))
      return error("cannot compile @" + entry + " for the CPU:" + diagnostics);
  }

  ExecutionEngineOptions options;
  options.transformer = makeOptimizingTransformer(/*optLevel=*/2,
                                                  /*sizeLevel=*/0,
                                                  /*targetMachine=*/nullptr);
  llvm::Expected<std::unique_ptr<ExecutionEngine>> engine =
      ExecutionEngine::create(*clone, options);
  if (!engine)
    return engine.takeError();
  return std::unique_ptr<CpuExecutable>(
      new CpuExecutable(std::move(*engine), type, entry.str()));
}

CpuExecutable::CpuExecutable(std::unique_ptr<ExecutionEngine> engine,
                             FunctionType type, std::string name)
    : engine(std::move(engine)), type(type), name(std::move(name)) {}

CpuExecutable::~CpuExecutable() = default;

size_t mlir::ens::getElementSize(DType dtype) {
  switch (dtype) {
  case DType::F64:
    return 8;
  case DType::F32:
  case DType::I32:
    return 4;
  case DType::F16:
  case DType::BF16:
    return 2;
  case DType::I1:
    return 1;
  }
  llvm_unreachable("unknown dtype");
}

namespace {
/// Typed storage for a HostTensor, in the layout a BufferRef describes.
class TypedStorage {
public:
  explicit TypedStorage(const HostTensor &tensor)
      : dtype(tensor.dtype), shape(tensor.shape),
        bytes(tensor.getNumElements() * getElementSize(dtype)) {
    for (int64_t i = 0, e = tensor.getNumElements(); i < e; ++i)
      store(i, tensor.values[i]);
  }

  BufferRef getRef() { return {bytes.data(), dtype, shape}; }

  HostTensor toTensor() const {
    HostTensor tensor(dtype, shape);
    for (int64_t i = 0, e = tensor.getNumElements(); i < e; ++i)
      tensor.values[i] = load(i);
    return tensor;
  }

private:
  template <typename T> void put(int64_t i, T value) {
    std::memcpy(bytes.data() + i * sizeof(T), &value, sizeof(T));
  }
  template <typename T> T get(int64_t i) const {
    T value;
    std::memcpy(&value, bytes.data() + i * sizeof(T), sizeof(T));
    return value;
  }
  void store(int64_t i, double value) {
    switch (dtype) {
    case DType::F64:
      return put<double>(i, value);
    case DType::F32:
      return put<float>(i, static_cast<float>(value));
    case DType::I32:
      return put<int32_t>(i, static_cast<int32_t>(value));
    default:
      return put<uint8_t>(i, value != 0);
    }
  }
  double load(int64_t i) const {
    switch (dtype) {
    case DType::F64:
      return get<double>(i);
    case DType::F32:
      return get<float>(i);
    case DType::I32:
      return get<int32_t>(i);
    default:
      return get<uint8_t>(i) & 1;
    }
  }

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

/// Checks that `buffers` match `types` in number, shape and element type.
llvm::Error checkBuffers(StringRef what, ArrayRef<BufferRef> buffers,
                         TypeRange types) {
  if (buffers.size() != types.size())
    return error("expected " + Twine(types.size()) + " " + what + ", got " +
                 Twine(buffers.size()));
  for (auto [i, buffer, type] : llvm::enumerate(buffers, types)) {
    auto tensorType = cast<RankedTensorType>(type);
    if (!buffer.data && tensorType.getNumElements() != 0)
      return error(what + " " + Twine(i) + " has no data");
    if (buffer.shape != tensorType.getShape() ||
        getDType(tensorType.getElementType()) != buffer.dtype)
      return error(what + " " + Twine(i) + ": expected " +
                   HostTensor(*getDType(tensorType.getElementType()),
                              tensorType.getShape())
                       .getTypeString() +
                   ", got " + HostTensor(buffer.dtype, buffer.shape)
                                  .getTypeString());
  }
  return llvm::Error::success();
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
