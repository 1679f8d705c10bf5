//===- KernelEmitter.cpp - CUDA kernels from bufferized linalg ------------===//
//
// Walks a bufferized function and writes its kernels and launch plan:
//
//  - each loop over the members of an ensemble becomes ONE kernel, planned
//    by planMemberLoop and written by MemberKernelEmitter.cpp;
//  - each other linalg op becomes a grid-stride kernel over its points (or,
//    for a reduction of few elements, a block per element);
//  - each scf.for nest (scatter-add) becomes a one-thread kernel.
//
// A thread computes whole output elements, with reduction loops inside.
// Named ops and copies are generalized first (Pipeline.cpp), so every
// parallel op is a linalg.generic. The source starts with the device
// prelude (Prelude.cuh), embedded at build time.
//
//===----------------------------------------------------------------------===//

#include "KernelEmitter.h"

#include "KernelCost.h"
#include "PhaseCounts.h"

#include "ens/Backend/Cuda/PerfModel.h"
#include "ens/Support/Sizes.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <set>

#define DEBUG_TYPE "ens-cuda-plan"

using namespace mlir;
using namespace mlir::ens;
using namespace mlir::ens::cuda;

// kPrelude: the text of Prelude.cuh below its banner.
#include "Prelude.inc"

/// The bytes of a constant buffer from its initial value.
/// Whether the planner's picks (strategies, splits, vendor GEMMs) weigh
/// each kernel by what PhaseCounts.cpp counts of it, as the kernel report
/// does; by default they weigh its FLOPs and traffic alone, so that the
/// counts describe the kernels as they were planned before them (issue
/// #31: a baseline before any change to the code).
static llvm::cl::opt<bool> planWithCounts(
    "cuda-plan-with-counts", llvm::cl::Hidden,
    llvm::cl::desc("Let the CUDA planner's estimates use the performance "
                   "model's counts of each kernel (instructions, wavefronts, "
                   "L2 bytes, round trips) instead of its FLOPs and traffic"),
    llvm::cl::init(false));

static FailureOr<std::vector<uint8_t>> getConstantBytes(ElementsAttr value) {
  auto dense = dyn_cast<DenseElementsAttr>(value);
  if (!dense)
    return failure();
  Type type = dense.getElementType();
  std::vector<uint8_t> bytes;
  auto append = [&](auto v) {
    const uint8_t *p = reinterpret_cast<const uint8_t *>(&v);
    bytes.insert(bytes.end(), p, p + sizeof(v));
  };
  if (type.isF32()) {
    for (APFloat v : dense.getValues<APFloat>())
      append(v.convertToFloat());
  } else if (type.isF64()) {
    for (APFloat v : dense.getValues<APFloat>())
      append(v.convertToDouble());
  } else if (type.isInteger(32)) {
    for (APInt v : dense.getValues<APInt>())
      append(static_cast<int32_t>(v.getSExtValue()));
  } else if (type.isInteger(1)) {
    for (APInt v : dense.getValues<APInt>())
      append(static_cast<uint8_t>(v.getBoolValue()));
  } else {
    return failure();
  }
  return bytes;
}

std::string KernelBuilder::bindParam(int64_t buffer, Type elementType) {
  return bindParam(buffer, *getCType(elementType) + " *");
}

std::string KernelBuilder::bindParam(int64_t buffer, StringRef cType) {
  auto [param, inserted] =
      paramOf.try_emplace(buffer, "b" + std::to_string(buffer));
  if (inserted) {
    info.paramTypes.push_back(cType.str());
    launch.args.push_back({true, buffer});
  }
  return param->second;
}

llvm::Expected<BufferInfo>
KernelEmitter::makeBuffer(MemRefType type, BufferKind kind, unsigned index,
                          std::vector<uint8_t> init) const {
  if (!type.hasStaticShape() || !type.getLayout().isIdentity())
    return error("the CUDA backend needs static, row-major buffers");
  std::optional<DType> dtype = getBufferDType(type.getElementType());
  if (!dtype)
    return error("the CUDA backend does not support buffers of " +
                 llvm::formatv("{0}", type.getElementType()).str() + " yet");
  BufferInfo info;
  info.kind = kind;
  info.index = index;
  info.dtype = *dtype;
  info.shape.assign(type.getShape().begin(), type.getShape().end());
  llvm::Expected<int64_t> bytes =
      getCheckedByteSize(type.getShape(), getElementSize(*dtype), "a buffer");
  if (!bytes)
    return bytes.takeError();
  static const char *kinds[] = {"argument", "result", "temporary", "constant"};
  if (llvm::Error tooLarge =
          checkBufferBytes(*bytes, maxBufferBytes,
                           llvm::formatv("the {0} buffer {1}",
                                         kinds[static_cast<int>(kind)], type)
                               .str()))
    return std::move(tooLarge);
  info.bytes = *bytes;
  info.init = std::move(init);
  return std::move(info);
}

llvm::Expected<int64_t> KernelEmitter::addBuffer(MemRefType type,
                                                 BufferKind kind,
                                                 unsigned index,
                                                 std::vector<uint8_t> init) {
  llvm::Expected<BufferInfo> info =
      makeBuffer(type, kind, index, std::move(init));
  if (!info)
    return info.takeError();
  program.plan.buffers.push_back(std::move(*info));
  return static_cast<int64_t>(program.plan.buffers.size() - 1);
}

CandidateCoster KernelEmitter::getCoster(
    const BufferViews &views,
    llvm::function_ref<int64_t(int64_t)> getBufferBytes) const {
  return {views, fills, target, getBufferBytes, maxBufferBytes, planWithCounts};
}

KernelBuilder KernelEmitter::beginKernel(ArrayRef<Operation *> roots,
                                         StringRef kind, int64_t times) {
  KernelBuilder kernel;
  kernel.indexBits = loopIndexBits;
  kernel.info.name =
      ("k" + Twine(program.plan.kernels.size()) + "_" + kind).str();
  kernel.info.sourceOps = getSourceOps(roots);
  for (Operation *root : roots) {
    kernel.info.flops += times * countFlops(root);
    kernel.info.fmaFlops += times * countFmaFlops(root);
  }
  return kernel;
}

void KernelEmitter::countTraffic(KernelBuilder &kernel) const {
  for (int64_t buffer : kernel.read)
    kernel.info.bytesRead += program.plan.buffers[buffer].bytes;
  for (int64_t buffer : kernel.written)
    kernel.info.bytesWritten += program.plan.buffers[buffer].bytes;
}

std::string KernelEmitter::getParameterList(const KernelBuilder &kernel) const {
  // Every parameter is __restrict__: they are distinct plan buffers
  // (bindParam binds each once); temporaries that one launch uses are live
  // at the same step, so the arena gives them disjoint bytes (placeArena);
  // results overlap nothing (ens::runtime::Program::run); and inputs and
  // constants, which a caller may pass twice, are only read, which
  // __restrict__ allows.
  std::string params;
  for (auto [arg, cType] :
       llvm::zip_equal(kernel.launch.args, kernel.info.paramTypes))
    params += (params.empty() ? "" : ", ") +
              std::string(kernel.written.contains(arg.value) ? "" : "const ") +
              cType + "__restrict__ " + kernel.paramOf.lookup(arg.value);
  return params;
}

void KernelEmitter::finishKernel(KernelBuilder &kernel,
                                 std::vector<KernelSection> sections) {
  // A launch that a later loop over members shares takes it back and
  // writes it again from this (emitSharingForall).
  if (kernel.namesBlock)
    sectionable[program.plan.kernels.size()] = {kernel, kernels.size(),
                                                sections};
  else
    sectionable.erase(program.plan.kernels.size());
  countTraffic(kernel);
  kernels += "\n// " + kernel.info.sourceOps + "\n";
  std::string bounds;
  if (kernel.twoBlocksPerSm)
    bounds =
        "__launch_bounds__(" + std::to_string(kernel.launch.block[0]) + ", 2) ";
  kernels += "extern \"C\" __global__ void " + bounds + kernel.info.name + "(" +
             getParameterList(kernel) + ") {\n";
  kernels += kernel.indexBits == 32 ? "  typedef int ens_index;\n"
                                    : "  typedef long long ens_index;\n";
  if (kernel.namesBlock)
    kernels += "  const unsigned ens_block = blockIdx.x;\n";
  std::string aligned;
  for (const KernelArg &arg : kernel.launch.args)
    if (arg.isBuffer)
      aligned += " ENS_ALIGNED16(" + kernel.paramOf.lookup(arg.value) + ");";
  if (!aligned.empty())
    kernels += " " + aligned + "\n";
  kernels += kernel.body + "}\n";
  kernel.launch.kernel = program.plan.kernels.size();
  program.plan.kernels.push_back(std::move(kernel.info));
  program.plan.launches.push_back(std::move(kernel.launch));
  program.sections.push_back(std::move(sections));
}

llvm::Error KernelEmitter::bindMemrefs(KernelBuilder &kernel, Operation *root) {
  collectTraffic(
      root, [&](Value memref) { return views.getGlobalBuffer(memref); },
      kernel.read, kernel.written);
  auto bindParam = [&](int64_t buffer, Type elementType) {
    return kernel.bindParam(buffer, elementType);
  };
  llvm::Error failure = llvm::Error::success();
  root->walk([&](Operation *op) {
    for (Value operand : op->getOperands()) {
      if (!isa<MemRefType>(operand.getType()) || kernel.accesses.count(operand))
        continue;
      llvm::Expected<Access> access = views.getAccess(operand, bindParam);
      if (!access) {
        failure = access.takeError();
        return WalkResult::interrupt();
      }
      kernel.accesses[operand] = std::move(*access);
    }
    return WalkResult::advance();
  });
  if (failure)
    return failure;
  for (memref::LoadOp load : getCapturedLoads(root)) {
    Value memref = load.getMemRef();
    if (!isReadableAt(load, root) || kernel.accesses.count(memref))
      continue;
    llvm::Expected<Access> access = views.getAccess(memref, bindParam);
    if (!access)
      return access.takeError();
    kernel.accesses[memref] = std::move(*access);
    if (std::optional<int64_t> buffer = views.getGlobalBuffer(memref))
      kernel.read.insert(*buffer);
  }
  return llvm::Error::success();
}

llvm::Error KernelEmitter::emitCaptured(Operation *root, BodyEmitter &body,
                                        unsigned indent,
                                        ArrayRef<Value> extra) {
  // The chains of pure scalar ops outside the kernel that it uses.
  SmallVector<Operation *> chain;
  std::set<Operation *> seen;
  std::function<llvm::Error(Value)> visit = [&](Value value) -> llvm::Error {
    if (isa<MemRefType>(value.getType()) || body.isBound(value))
      return llvm::Error::success();
    Operation *def = value.getDefiningOp();
    auto load = dyn_cast_or_null<memref::LoadOp>(def);
    bool readable =
        load && isReadableAt(load, root) && body.canReach(load.getMemRef());
    LLVM_DEBUG(if (load) llvm::dbgs()
               << "top-level load " << (readable ? "read" : "not readable")
               << " in the kernel of " << root->getName() << "\n");
    if (!def || (!readable && (!isPure(def) || def->getNumRegions())))
      return error("the CUDA backend cannot pass a value computed outside "
                   "kernels into '" +
                   root->getName().getStringRef() + "'");
    if (!seen.insert(def).second)
      return llvm::Error::success();
    for (Value operand : def->getOperands())
      if (llvm::Error failure = visit(operand))
        return failure;
    chain.push_back(def);
    return llvm::Error::success();
  };
  llvm::SetVector<Value> captured;
  for (Region &region : root->getRegions())
    getUsedValuesDefinedAbove(region, captured);
  for (Value operand : root->getOperands())
    if (!isa<MemRefType>(operand.getType()))
      captured.insert(operand);
  captured.insert(extra.begin(), extra.end());
  for (Value value : captured)
    if (llvm::Error failure = visit(value))
      return failure;
  for (Operation *op : chain)
    if (llvm::Error failure = body.emit(op, indent))
      return failure;
  return llvm::Error::success();
}

llvm::Error KernelEmitter::bindFused(KernelBuilder &kernel,
                                     linalg::GenericOp generic,
                                     linalg::GenericOp epilogue) {
  if (llvm::Error failure = bindMemrefs(kernel, generic))
    return failure;
  if (!epilogue)
    return llvm::Error::success();
  if (llvm::Error failure = bindMemrefs(kernel, epilogue))
    return failure;
  // The contraction's result never reaches memory.
  if (std::optional<int64_t> buffer =
          views.getGlobalBuffer(generic.getDpsInits()[0])) {
    kernel.read.remove(*buffer);
    kernel.written.remove(*buffer);
  }
  fusedEpilogues.insert(epilogue);
  return llvm::Error::success();
}

void KernelEmitter::emitGemm(GemmStep gemm) {
  gemm.after = program.plan.launches.size();
  program.plan.gemms.push_back(std::move(gemm));
}

llvm::Error KernelEmitter::emitGeneric(linalg::GenericOp generic) {
  if (llvm::Error failure = checkGeneric(generic))
    return failure;
  if (countPointsAndSteps(generic).first == 0)
    return llvm::Error::success();
  // A matrix product with no epilogue to fuse may be a vendor GEMM step:
  // as `--cuda-gemm` says, or with `auto` whichever the model estimates
  // faster (of equal estimates, the generated kernel).
  std::optional<GemmStep> gemm = matchGemm(generic, views, fills, 1);
  if (!gemm || getEpilogue(generic, fills.fills))
    return emitGeneratedGeneric(generic);
  bool vendor = gemmChoice == GemmChoice::Cublas;
  if (gemmChoice == GemmChoice::Auto) {
    auto getBufferBytes = [&](int64_t buffer) {
      return program.plan.buffers[buffer].bytes;
    };
    CandidateCoster coster = getCoster(views, getBufferBytes);
    double generatedUs =
        coster.estimateUs({coster.describeGridGeneric(generic)});
    double gemmUs = estimateGemm(*gemm, target).us;
    LLVM_DEBUG(llvm::dbgs()
               << "vendor GEMM for " << gemm->sourceOps << ": "
               << llvm::format("%.1f", gemmUs) << " us, generated: "
               << llvm::format("%.1f", generatedUs) << " us\n");
    vendor = gemmUs < generatedUs;
    program.gemmDecisions.push_back(
        {gemm->sourceOps, generatedUs, gemmUs, vendor});
  }
  if (!vendor)
    return emitGeneratedGeneric(generic);
  emitGemm(*gemm);
  return llvm::Error::success();
}

llvm::Error KernelEmitter::emitGeneratedGeneric(linalg::GenericOp generic) {
  int64_t points = countPointsAndSteps(generic).first;
  Operation *combiner = getBlockCombiner(generic, ReductionBlocks::Own);
  linalg::GenericOp epilogue =
      combiner ? nullptr : getEpilogue(generic, fills.fills);
  SmallVector<Operation *> roots = {generic};
  if (epilogue)
    roots.push_back(epilogue);
  KernelBuilder kernel = beginKernel(roots, "generic");
  if (llvm::Error failure = bindFused(kernel, generic, epilogue))
    return failure;
  if (combiner) {
    // A block per output element.
    kernel.info.usesBarriers = true;
    kernel.launch.grid = {static_cast<unsigned>(points), 1, 1};
    kernel.launch.block = {kBlockSize, 1, 1};
    if (llvm::Error failure = emitBlockReduction(kernel, generic, combiner,
                                                 "blockIdx.x", "gridDim.x", 2))
      return failure;
    storeGridCounts(kernel.info, views, generic, nullptr, combiner,
                    kernel.launch.block[0], kernel.launch.grid[0]);
    finishKernel(kernel);
    return llvm::Error::success();
  }
  // A grid-stride loop: a grid of at most 2^31 - 1 blocks covers any op.
  int64_t blocks =
      std::min<int64_t>((points + kBlockSize - 1) / kBlockSize, INT32_MAX);
  kernel.launch.grid = {static_cast<unsigned>(blocks), 1, 1};
  kernel.launch.block = {
      static_cast<unsigned>(std::min<int64_t>(points, kBlockSize)), 1, 1};
  if (llvm::Error failure = emitPoints(
          kernel, generic, "(long long)blockIdx.x * blockDim.x + threadIdx.x",
          "(long long)gridDim.x * blockDim.x", 2, epilogue))
    return failure;
  storeGridCounts(kernel.info, views, generic, epilogue, nullptr,
                  kernel.launch.block[0], kernel.launch.grid[0]);
  finishKernel(kernel);
  return llvm::Error::success();
}

llvm::Error KernelEmitter::emitSerial(Operation *op) {
  KernelBuilder kernel = beginKernel(op, "serial");
  if (llvm::Error failure = bindMemrefs(kernel, op))
    return failure;
  llvm::raw_string_ostream os(kernel.body);
  os << "  // One thread runs the loop nest in order.\n";
  os << "  if (blockIdx.x != 0 || threadIdx.x != 0) return;\n";
  if (llvm::Error failure = emitInOrder(kernel, op, 2))
    return failure;
  finishKernel(kernel);
  return llvm::Error::success();
}

llvm::Error KernelEmitter::emitInOrder(KernelBuilder &kernel, Operation *op,
                                       unsigned indent) {
  BodyEmitter body(kernel.body, kernel.accesses);
  if (views.memberIndex)
    body.bind(views.memberIndex, "m");
  if (llvm::Error failure = emitCaptured(op, body, indent))
    return failure;
  return body.emit(op, indent);
}

llvm::Error KernelEmitter::run(unsigned numInputs) {
  program.type = function.getFunctionType();
  program.targetName = StringRef(target.key).upper();
  for (auto [i, arg] : llvm::enumerate(function.getArguments())) {
    bool isInput = i < numInputs;
    auto type = dyn_cast<MemRefType>(arg.getType());
    if (!type)
      return error("the CUDA backend needs buffer arguments");
    llvm::Expected<int64_t> buffer =
        addBuffer(type, isInput ? BufferKind::Input : BufferKind::Output,
                  isInput ? i : i - numInputs);
    if (!buffer)
      return buffer.takeError();
    views.bufferOf[arg] = *buffer;
  }
  auto module = function->getParentOfType<ModuleOp>();
  function.walk([&](Block *block) { fills.findIn(*block); });
  auto define = [&](Value value, BufferKind kind,
                    std::vector<uint8_t> init = {}) -> llvm::Error {
    llvm::Expected<int64_t> buffer =
        addBuffer(cast<MemRefType>(value.getType()), kind, 0, std::move(init));
    if (!buffer)
      return buffer.takeError();
    views.bufferOf[value] = *buffer;
    return llvm::Error::success();
  };
  // Every buffer is known before any kernel is emitted: a kernel may write
  // one defined further down, through an epilogue fused into it.
  for (Operation &op : function.getBody().front()) {
    llvm::Error err =
        llvm::TypeSwitch<Operation *, llvm::Error>(&op)
            .Case([&](memref::AllocOp alloc) {
              return define(alloc, BufferKind::Temporary);
            })
            .Case([&](memref::GetGlobalOp get) -> llvm::Error {
              auto global =
                  module.lookupSymbol<memref::GlobalOp>(get.getNameAttr());
              FailureOr<std::vector<uint8_t>> bytes = failure();
              if (global && global.getInitialValue())
                if (auto init =
                        dyn_cast<ElementsAttr>(*global.getInitialValue()))
                  bytes = getConstantBytes(init);
              if (failed(bytes))
                return error("the CUDA backend cannot read the constant @" +
                             get.getName());
              return define(get, BufferKind::Constant, std::move(*bytes));
            })
            .Default([](Operation *) { return llvm::Error::success(); });
    if (err)
      return err;
  }
  for (Operation &op : function.getBody().front()) {
    if (fills.fills.contains(&op) || fusedEpilogues.contains(&op))
      continue;
    llvm::Error err =
        llvm::TypeSwitch<Operation *, llvm::Error>(&op)
            .Case(
                [&](linalg::GenericOp generic) { return emitGeneric(generic); })
            .Case([&](scf::ForOp loop) { return emitSerial(loop); })
            // What canonicalization leaves of a loop of one iteration: the
            // store is a one-thread kernel, which reads the loads it uses.
            .Case([&](memref::StoreOp store) { return emitSerial(store); })
            .Case(
                [&](scf::ForallOp forall) { return emitSharingForall(forall); })
            .Case<memref::AllocOp, memref::GetGlobalOp, memref::LoadOp,
                  memref::SubViewOp, memref::CollapseShapeOp,
                  memref::ExpandShapeOp, memref::CastOp, memref::DeallocOp,
                  func::ReturnOp>(
                [](Operation *) { return llvm::Error::success(); })
            .Default([&](Operation *other) -> llvm::Error {
              if (isScalarOp(other))
                return llvm::Error::success();
              return error("the CUDA backend cannot compile '" +
                           other->getName().getStringRef() + "' yet");
            });
    if (err)
      return err;
  }
  program.source = std::string(kPrelude) + kernels;
  placeArena(program.plan);
  return llvm::Error::success();
}
