//===- CudaCodegen.cpp - CUDA C++ source from bufferized linalg -----------===//
//
// Takes a function through the common front of the pipeline, fusion
// (elementwise, then over the members of an ensemble) and one-shot
// bufferization (results as out-parameters), then writes the kernels:
//
//  - each loop over the members of an ensemble becomes ONE kernel with a
//    block per member. Its ops run one after another inside the block,
//    separated by __syncthreads(); the threads share out the points of each
//    op. The member's temporaries live in dynamic shared memory, placed by
//    liveness (those beyond the budget in global memory), so a member's
//    intermediates never reach global memory;
//  - each other linalg op becomes a grid-stride kernel over its points;
//  - each scf.for nest (scatter-add) becomes a one-thread kernel.
//
// A thread computes whole output elements, with reduction loops inside.
// Views (subview, collapse and expand shape) alias their source buffer;
// their offsets and strides are folded into the index arithmetic. Named ops
// and copies are generalized first, so every parallel op is a
// linalg.generic.
//
//===----------------------------------------------------------------------===//

#include "KernelBody.h"

#include "ens/Backend/Cuda/Codegen.h"
#include "ens/Backend/Liveness.h"
#include "ens/Conversion/Passes.h"
#include "ens/Dialect/Ens/Transforms/Passes.h"
#include "ens/Fusion/Passes.h"
#include "ens/Support/BoundedRewrites.h"
#include "ens/Support/Escape.h"
#include "ens/Support/Sizes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Bufferization/Transforms/OneShotAnalysis.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <set>

using namespace mlir;
using namespace mlir::ens;
using namespace mlir::ens::cuda;



// kPrelude: the text of Prelude.cuh below its banner.
#include "Prelude.inc"

//===----------------------------------------------------------------------===//
// Kernels
//===----------------------------------------------------------------------===//

/// Threads per block.
static constexpr unsigned kBlockSize = 256;

/// The most dynamic shared memory a block may use: what sm_80 lets a kernel
/// opt into (sm_90 allows 227 KiB), less 2 KiB for the static scratch of
/// block reductions. A loop's temporaries beyond it live in global memory.
static constexpr int64_t kSharedMemoryBudget = 161 * 1024;

/// The alignment of each temporary in shared memory.
static constexpr int64_t kSharedAlignment = 16;

namespace {
class GenericWriter;

/// A kernel being written.
struct KernelBuilder {
  KernelInfo info;
  KernelLaunch launch;
  std::string params;
  /// The parameter name of each plan buffer the kernel uses.
  DenseMap<int64_t, std::string> paramOf;
  DenseMap<Value, Access> accesses;
  /// The statements of the kernel.
  std::string body;
  /// The plan buffers the kernel reads and writes.
  llvm::SetVector<int64_t> read, written;
};

/// Where a temporary of a loop over members lives.
struct Temporary {
  memref::AllocOp alloc;
  int64_t bytes;
  /// The first and last op of the loop body that use it.
  unsigned first, last;
  /// Its byte offset in shared memory, or nothing in global memory.
  std::optional<int64_t> offset;
};

class Codegen {
public:
  Codegen(func::FuncOp function, int64_t maxBufferBytes)
      : function(function), maxBufferBytes(maxBufferBytes) {}

  llvm::Error run(unsigned numInputs);

  CudaProgram program;

private:
  llvm::Expected<int64_t> addBuffer(MemRefType type, BufferKind kind,
                                    unsigned index,
                                    std::vector<uint8_t> init = {});
  KernelBuilder beginKernel(Operation *root, StringRef kind);
  void finishKernel(KernelBuilder &kernel);
  llvm::Expected<Access> getAccess(KernelBuilder &kernel, Value memref);
  std::optional<int64_t> getGlobalBuffer(Value memref);
  llvm::Error bindMemrefs(KernelBuilder &kernel, Operation *root);
  llvm::Error emitCaptured(Operation *root, BodyEmitter &body,
                           unsigned indent, ArrayRef<Value> extra = {});
  /// The values filled into `generic`'s outputs by fills folded into it.
  SmallVector<Value> getFillValues(linalg::GenericOp generic);
  /// Names the member index and writes the scalars `generic` uses from
  /// outside (with the values of fills folded into it).
  llvm::Error beginBody(BodyEmitter &body, linalg::GenericOp generic,
                        unsigned indent);
  llvm::Error emitPoints(KernelBuilder &kernel, linalg::GenericOp generic,
                         StringRef first, StringRef step, unsigned indent,
                         linalg::GenericOp epilogue = nullptr);
  /// Writes `epilogue` at the end of the contraction that `writer` writes
  /// the point loop of, starting from its accumulator.
  llvm::Error emitEpilogue(KernelBuilder &kernel, GenericWriter &writer,
                           linalg::GenericOp epilogue, unsigned indent);
  /// Binds the memrefs of `generic` and of `epilogue`, which reads the
  /// result of `generic` in registers instead of memory.
  llvm::Error bindFused(KernelBuilder &kernel, linalg::GenericOp generic,
                        linalg::GenericOp epilogue);
  llvm::Error emitBlockReduction(KernelBuilder &kernel,
                                 linalg::GenericOp generic,
                                 Operation *combiner, StringRef first,
                                 StringRef step, unsigned indent);
  llvm::Error emitGeneric(linalg::GenericOp generic);
  llvm::Error emitSerial(Operation *op);
  llvm::Error emitForall(scf::ForallOp forall);
  llvm::Expected<int64_t> placeTemporaries(scf::ForallOp forall,
                                           int64_t members);
  /// Copies the operands of `generic` that it reads many times from global
  /// memory, and that fit, into shared memory, and points the kernel's
  /// accesses at the copies; returns the accesses they replaced.
  llvm::Expected<SmallVector<std::pair<Value, Access>>>
  stageOperands(KernelBuilder &kernel, linalg::GenericOp generic);

  func::FuncOp function;
  /// The largest buffer, and the largest plan, the program may allocate.
  int64_t maxBufferBytes;
  /// The plan buffer of each memref that is not a view: arguments,
  /// allocations, globals.
  DenseMap<Value, int64_t> bufferOf;
  /// The temporaries of the loop being compiled that live in shared memory:
  /// the name of their pointer.
  DenseMap<Value, std::string> sharedName;
  /// Their byte offsets, in order of allocation.
  SmallVector<std::pair<Value, int64_t>> sharedOffsets;
  /// The temporaries of the loop being compiled that live in global memory:
  /// the elements of one member's slice.
  DenseMap<Value, int64_t> memberSlice;
  /// The member index of the loop being compiled, called `m` in its kernel.
  Value memberIndex;
  /// The outputs of ops that a fill was folded into: the value filled in.
  DenseMap<OpOperand *, Value> filledWith;
  /// The folded fills, which emit nothing.
  DenseSet<Operation *> foldedFills;
  /// Epilogues written with the contraction before them.
  DenseSet<Operation *> fusedEpilogues;
  /// Temporaries of the loop being compiled that are never in memory: the
  /// results of contractions that epilogues consume.
  DenseSet<Value> inRegisters;
  /// The contractions of the loop being compiled that have an epilogue.
  DenseMap<Operation *, linalg::GenericOp> epilogueOf;
  /// Where the loop's staged operands start in shared memory, and the most
  /// bytes one op stages.
  int64_t stageOffset = 0, stagedPeak = 0;
  std::string kernels;
};
} // namespace

/// The names of the ens ops that the locations of `roots` and the ops
/// nested in them record, for the comment above the code they become.
static std::string getSourceOps(ArrayRef<Operation *> roots) {
  llvm::SetVector<StringRef> names;
  for (Operation *root : roots)
    root->walk([&](Operation *op) {
      op->getLoc()->walk([&](Location inner) {
        if (auto name = dyn_cast<NameLoc>(inner))
          if (name.getName().getValue().starts_with("ens."))
            names.insert(name.getName().getValue());
        return WalkResult::advance();
      });
    });
  // Locations are input text: escaped, a crafted name stays in the comment.
  return names.empty() ? std::string("(no ens op)")
                       : escapeForComment(llvm::join(names.getArrayRef(), ", "));
}

/// Whether `op` computes scalars only, which each kernel that uses them
/// recomputes.
static bool isScalarOp(Operation *op) {
  return op->getNumRegions() == 0 && isPure(op) &&
         llvm::none_of(op->getResultTypes(),
                       [](Type type) { return isa<MemRefType>(type); });
}

/// The op after `op` in its block that computes something: not a view, an
/// allocation or a scalar.
static Operation *getNextComputeOp(Operation *op) {
  Operation *next = op->getNextNode();
  while (next && (isa<memref::SubViewOp, memref::CollapseShapeOp,
                      memref::ExpandShapeOp, memref::AllocOp>(next) ||
                  isScalarOp(next)))
    next = next->getNextNode();
  return next;
}

/// The bytes of a constant buffer from its initial value.
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

/// The floating-point operations of one execution of `op`: one per float
/// arith or math op, times the iterations of the loops around it (a loop
/// over members has its members as iterations).
static int64_t countFlops(Operation *op) {
  if (auto generic = dyn_cast<linalg::GenericOp>(op)) {
    int64_t iterations = 1;
    for (int64_t range : generic.getStaticLoopRanges())
      iterations *= range;
    int64_t perIteration = 0;
    for (Operation &inner : generic.getBody()->without_terminator())
      perIteration += countFlops(&inner);
    return iterations * perIteration;
  }
  if (auto forall = dyn_cast<scf::ForallOp>(op)) {
    int64_t perMember = 0;
    for (Operation &inner : forall.getBody()->without_terminator())
      perMember += countFlops(&inner);
    return forall.getStaticUpperBound()[0] * perMember;
  }
  if (auto loop = dyn_cast<scf::ForOp>(op)) {
    std::optional<int64_t> trips = constantTripCount(
        loop.getLowerBound(), loop.getUpperBound(), loop.getStep());
    int64_t perTrip = 0;
    for (Operation &inner : loop.getBody()->without_terminator())
      perTrip += countFlops(&inner);
    return trips.value_or(1) * perTrip;
  }
  bool isFloat = op->getNumResults() == 1 &&
                 isa<FloatType>(op->getResult(0).getType());
  bool isArithmetic =
      isa<math::MathDialect>(op->getDialect()) ||
      isa<arith::AddFOp, arith::SubFOp, arith::MulFOp, arith::DivFOp,
          arith::RemFOp, arith::NegFOp, arith::MaximumFOp, arith::MinimumFOp,
          arith::MaxNumFOp, arith::MinNumFOp>(op);
  return isFloat && isArithmetic ? 1 : 0;
}

llvm::Expected<int64_t> Codegen::addBuffer(MemRefType type, BufferKind kind,
                                           unsigned index,
                                           std::vector<uint8_t> init) {
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
  llvm::Expected<int64_t> bytes = getCheckedByteSize(
      type.getShape(), getElementSize(*dtype), "a buffer");
  if (!bytes)
    return bytes.takeError();
  static const char *kinds[] = {"argument", "result", "temporary",
                                "constant"};
  if (llvm::Error tooLarge = checkBufferBytes(
          *bytes, maxBufferBytes,
          llvm::formatv("the {0} buffer {1}", kinds[static_cast<int>(kind)],
                        type)
              .str()))
    return std::move(tooLarge);
  info.bytes = *bytes;
  info.init = std::move(init);
  program.plan.buffers.push_back(std::move(info));
  return static_cast<int64_t>(program.plan.buffers.size() - 1);
}

KernelBuilder Codegen::beginKernel(Operation *root, StringRef kind) {
  KernelBuilder kernel;
  kernel.info.name =
      ("k" + Twine(program.plan.kernels.size()) + "_" + kind).str();
  kernel.info.sourceOps = getSourceOps(root);
  kernel.info.flops = countFlops(root);
  return kernel;
}

void Codegen::finishKernel(KernelBuilder &kernel) {
  for (int64_t buffer : kernel.read)
    kernel.info.bytesRead += program.plan.buffers[buffer].bytes;
  for (int64_t buffer : kernel.written)
    kernel.info.bytesWritten += program.plan.buffers[buffer].bytes;
  kernels += "\n// " + kernel.info.sourceOps + "\n";
  kernels += "extern \"C\" __global__ void " + kernel.info.name + "(" +
             kernel.params + ") {\n" + kernel.body + "}\n";
  kernel.launch.kernel = program.plan.kernels.size();
  program.plan.kernels.push_back(std::move(kernel.info));
  program.plan.launches.push_back(std::move(kernel.launch));
}

/// The element `offset` of a subview as a C++ expression ("" for 0), or
/// failure.
static FailureOr<std::string> getOffsetTerm(OpFoldResult offset,
                                            Value memberIndex) {
  if (auto attr = dyn_cast<Attribute>(offset)) {
    int64_t value = cast<IntegerAttr>(attr).getInt();
    return value ? std::to_string(value) + "LL" : "";
  }
  if (cast<Value>(offset) == memberIndex)
    return std::string("m");
  return failure();
}

llvm::Expected<Access> Codegen::getAccess(KernelBuilder &kernel,
                                          Value memref) {
  auto type = cast<MemRefType>(memref.getType());
  SmallVector<int64_t> strides;
  int64_t staticOffset;
  if (failed(getStridesAndOffset(type, strides, staticOffset)) ||
      llvm::any_of(strides, ShapedType::isDynamic))
    return error("the CUDA backend needs static strides");
  if (auto shared = sharedName.find(memref); shared != sharedName.end())
    return Access{shared->second, "0LL", {strides.begin(), strides.end()}};
  // Never written out; an access would not compile.
  if (inRegisters.contains(memref))
    return Access{"/*in registers*/", "0LL", {strides.begin(), strides.end()}};
  if (auto buffer = bufferOf.find(memref); buffer != bufferOf.end()) {
    auto [param, inserted] = kernel.paramOf.try_emplace(
        buffer->second, "b" + std::to_string(buffer->second));
    if (inserted) {
      std::string cType = *getCType(type.getElementType()) + " *";
      kernel.params += (kernel.params.empty() ? "" : ", ") + cType +
                       param->second;
      kernel.info.paramTypes.push_back(cType);
      kernel.launch.args.push_back({true, buffer->second});
    }
    std::string offset = "0LL";
    if (auto slice = memberSlice.find(memref); slice != memberSlice.end())
      offset = "m * " + std::to_string(slice->second) + "LL";
    return Access{param->second, offset, {strides.begin(), strides.end()}};
  }
  Operation *view = memref.getDefiningOp();
  if (!view || view->getNumOperands() == 0 ||
      !isa<MemRefType>(view->getOperand(0).getType())) {
    std::string what;
    llvm::raw_string_ostream os(what);
    if (view)
      os << "'" << view->getName() << "'";
    else
      os << "a block argument";
    return error("the CUDA backend cannot find the buffer of a memref "
                 "defined by " + what);
  }
  llvm::Expected<Access> source = getAccess(kernel, view->getOperand(0));
  if (!source)
    return source.takeError();
  Access access{source->param, source->offset,
                {strides.begin(), strides.end()}};
  if (auto subview = dyn_cast<memref::SubViewOp>(view)) {
    for (auto [i, offset] : llvm::enumerate(subview.getMixedOffsets())) {
      FailureOr<std::string> term = getOffsetTerm(offset, memberIndex);
      if (failed(term))
        return error("the CUDA backend cannot compile a subview at a "
                     "computed offset");
      if (!term->empty())
        access.offset +=
            " + " + *term + " * " + std::to_string(source->strides[i]) + "LL";
    }
    return access;
  }
  if (isa<memref::CollapseShapeOp, memref::ExpandShapeOp, memref::CastOp>(
          view))
    return access;
  return error("the CUDA backend cannot compile '" +
               view->getName().getStringRef() + "' yet");
}

std::optional<int64_t> Codegen::getGlobalBuffer(Value memref) {
  while (true) {
    if (sharedName.count(memref))
      return std::nullopt;
    if (auto buffer = bufferOf.find(memref); buffer != bufferOf.end())
      return buffer->second;
    Operation *view = memref.getDefiningOp();
    if (!view || view->getNumOperands() == 0)
      return std::nullopt;
    memref = view->getOperand(0);
  }
}

llvm::Error Codegen::bindMemrefs(KernelBuilder &kernel, Operation *root) {
  auto record = [&](llvm::SetVector<int64_t> &set, Value memref) {
    if (std::optional<int64_t> buffer = getGlobalBuffer(memref))
      set.insert(*buffer);
  };
  llvm::Error failure = llvm::Error::success();
  root->walk([&](Operation *op) {
    if (auto generic = dyn_cast<linalg::GenericOp>(op)) {
      for (OpOperand *input : generic.getDpsInputOperands())
        if (isa<MemRefType>(input->get().getType()))
          record(kernel.read, input->get());
      for (OpOperand &init : generic.getDpsInitsMutable()) {
        record(kernel.written, init.get());
        if (!generic.getMatchingBlockArgument(&init).use_empty())
          record(kernel.read, init.get());
      }
    } else if (auto load = dyn_cast<memref::LoadOp>(op)) {
      record(kernel.read, load.getMemRef());
    } else if (auto store = dyn_cast<memref::StoreOp>(op)) {
      record(kernel.written, store.getMemRef());
    }
    for (Value operand : op->getOperands()) {
      if (!isa<MemRefType>(operand.getType()) ||
          kernel.accesses.count(operand))
        continue;
      llvm::Expected<Access> access = getAccess(kernel, operand);
      if (!access) {
        failure = access.takeError();
        return WalkResult::interrupt();
      }
      kernel.accesses[operand] = std::move(*access);
    }
    return WalkResult::advance();
  });
  return failure;
}

llvm::Error Codegen::emitCaptured(Operation *root, BodyEmitter &body,
                                  unsigned indent, ArrayRef<Value> extra) {
  // The chains of pure scalar ops outside the kernel that it uses.
  SmallVector<Operation *> chain;
  std::set<Operation *> seen;
  std::function<llvm::Error(Value)> visit = [&](Value value) -> llvm::Error {
    if (isa<MemRefType>(value.getType()) || body.isBound(value))
      return llvm::Error::success();
    Operation *def = value.getDefiningOp();
    if (!def || !isPure(def) || def->getNumRegions())
      return error("the CUDA backend cannot pass a value computed outside "
                   "kernels into '" + root->getName().getStringRef() + "'");
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

namespace {
/// Writes the pieces of a linalg.generic's loop nest: the loop variables of
/// a flat iteration index, the operands' elements and the body's ops.
class GenericWriter {
public:
  /// Names loop variables and inputs with `prefix` ("d0", "in1").
  GenericWriter(linalg::GenericOp generic, KernelBuilder &kernel,
                BodyEmitter &body, StringRef prefix = "")
      : generic(generic), body(body), os(kernel.body),
        ranges(generic.getStaticLoopRanges()), prefix(prefix) {
    for (auto [i, iterator] :
         llvm::enumerate(generic.getIteratorTypesArray()))
      (iterator == utils::IteratorType::parallel ? parallel : reduction)
          .push_back(i);
    for (unsigned i = 0; i < ranges.size(); ++i)
      dims.push_back(prefix.str() + "d" + std::to_string(i));
    generic.getBody()->walk([&](linalg::IndexOp index) {
      body.bind(index.getResult(), dims[index.getDim()]);
    });
  }

  /// The iterations of `loops` together.
  int64_t count(ArrayRef<unsigned> loops) const {
    int64_t product = 1;
    for (unsigned d : loops)
      product *= ranges[d];
    return product;
  }

  /// Declares the variables of `loops` from the flat index `flat`, the
  /// last loop varying fastest.
  void declareLoops(ArrayRef<unsigned> loops, StringRef flat,
                    unsigned indent) {
    std::string rest = "r_" + flat.str();
    os.indent(indent) << "long long " << rest << " = " << flat << ";\n";
    for (unsigned k = loops.size(); k-- > 0;) {
      unsigned d = loops[k];
      if (k == 0)
        os.indent(indent) << "long long " << dims[d] << " = " << rest
                          << ";\n";
      else
        os.indent(indent) << "long long " << dims[d] << " = " << rest << " % "
                          << ranges[d] << "; " << rest << " /= " << ranges[d]
                          << ";\n";
    }
  }

  /// The element of `operand` at the current loop variables.
  llvm::Expected<std::string> element(OpOperand &operand) {
    AffineMap map = generic.getMatchingIndexingMap(&operand);
    SmallVector<std::string> indices;
    for (AffineExpr expr : map.getResults()) {
      FailureOr<std::string> index = affineExpr(expr, dims);
      if (failed(index))
        return error("the CUDA backend cannot compile an indexing map");
      indices.push_back(*index);
    }
    return body.element(operand.get(), indices);
  }

  /// Reads the inputs the body uses that have no value yet.
  llvm::Error loadInputs(unsigned indent) {
    for (OpOperand *input : generic.getDpsInputOperands()) {
      BlockArgument arg = generic.getMatchingBlockArgument(input);
      if (arg.use_empty() || body.isBound(arg))
        continue;
      if (!isa<MemRefType>(input->get().getType())) {
        body.bind(arg, body.get(input->get()));
        continue;
      }
      llvm::Expected<std::string> value = element(*input);
      if (!value)
        return value.takeError();
      std::string name =
          prefix.str() + "in" + std::to_string(input->getOperandNumber());
      os.indent(indent) << *getCType(arg.getType()) << " " << name << " = "
                        << *value << ";\n";
      body.bind(arg, name);
    }
    return llvm::Error::success();
  }

  /// Emits the body's ops but `skip`.
  llvm::Error emitOps(unsigned indent, Operation *skip = nullptr) {
    for (Operation &op : generic.getBody()->without_terminator())
      if (!isa<linalg::IndexOp>(op) && &op != skip)
        if (llvm::Error failure = body.emit(&op, indent))
          return failure;
    return llvm::Error::success();
  }

  linalg::GenericOp generic;
  BodyEmitter &body;
  llvm::raw_string_ostream os;
  SmallVector<int64_t> ranges;
  StringRef prefix;
  SmallVector<unsigned> parallel, reduction;
  SmallVector<std::string> dims;
};
} // namespace

llvm::Error Codegen::beginBody(BodyEmitter &body, linalg::GenericOp generic,
                               unsigned indent) {
  if (memberIndex)
    body.bind(memberIndex, "m");
  return emitCaptured(generic, body, indent, getFillValues(generic));
}

llvm::Error Codegen::emitPoints(KernelBuilder &kernel,
                                linalg::GenericOp generic, StringRef first,
                                StringRef step, unsigned indent,
                                linalg::GenericOp epilogue) {
  BodyEmitter body(kernel.body, kernel.accesses);
  if (llvm::Error failure = beginBody(body, generic, indent))
    return failure;
  if (epilogue)
    if (llvm::Error failure = emitCaptured(epilogue, body, indent))
      return failure;
  GenericWriter writer(generic, kernel, body);
  llvm::raw_string_ostream &os = writer.os;
  ArrayRef<unsigned> reduction = writer.reduction;
  // Each thread computes the output elements of its parallel points in
  // turn, with the reduction loops inside.
  os.indent(indent) << "for (long long p = " << first << "; p < "
                    << writer.count(writer.parallel) << "LL; p += " << step
                    << ") {\n";
  indent += 2;
  writer.declareLoops(writer.parallel, "p", indent);
  // Accumulators: the outputs at this thread's point. An output indexed by
  // a reduction loop (a fused producer's result) has an element per step of
  // the reduction, read and written inside the loops.
  SmallVector<std::string> outputs;
  SmallVector<bool> perStep;
  for (OpOperand &init : generic.getDpsInitsMutable()) {
    llvm::Expected<std::string> element = writer.element(init);
    if (!element)
      return element.takeError();
    AffineMap map = generic.getMatchingIndexingMap(&init);
    perStep.push_back(llvm::any_of(
        reduction, [&](unsigned d) { return map.isFunctionOfDim(d); }));
    BlockArgument arg = generic.getMatchingBlockArgument(&init);
    std::string acc = "acc" + std::to_string(outputs.size());
    os.indent(indent) << *getCType(arg.getType()) << " " << acc;
    if (Value fill = filledWith.lookup(&init))
      os << " = " << body.get(fill);
    else if (!arg.use_empty() && !perStep.back())
      os << " = " << *element;
    os << ";\n";
    body.bind(arg, acc);
    outputs.push_back(*element);
  }
  unsigned bodyIndent = indent;
  for (unsigned d : reduction) {
    os.indent(bodyIndent) << "for (long long " << writer.dims[d] << " = 0; "
                          << writer.dims[d] << " < " << writer.ranges[d]
                          << "LL; ++" << writer.dims[d] << ") {\n";
    bodyIndent += 2;
  }
  for (auto [i, init] : llvm::enumerate(generic.getDpsInitsMutable()))
    if (perStep[i] && !generic.getMatchingBlockArgument(&init).use_empty())
      os.indent(bodyIndent) << "acc" << i << " = " << outputs[i] << ";\n";
  if (llvm::Error failure = writer.loadInputs(bodyIndent))
    return failure;
  if (llvm::Error failure = writer.emitOps(bodyIndent))
    return failure;
  auto yield = cast<linalg::YieldOp>(generic.getBody()->getTerminator());
  for (auto [i, value] : llvm::enumerate(yield.getValues()))
    os.indent(bodyIndent) << "acc" << i << " = " << body.get(value) << ";\n";
  for (auto [i, element] : llvm::enumerate(outputs))
    if (perStep[i])
      os.indent(bodyIndent) << element << " = acc" << i << ";\n";
  for (; bodyIndent > indent; bodyIndent -= 2)
    os.indent(bodyIndent - 2) << "}\n";
  if (epilogue) {
    if (llvm::Error failure = emitEpilogue(kernel, writer, epilogue, indent))
      return failure;
  } else {
    for (auto [i, element] : llvm::enumerate(outputs))
      if (!perStep[i])
        os.indent(indent) << element << " = acc" << i << ";\n";
  }
  os.indent(indent - 2) << "}\n";
  return llvm::Error::success();
}

static llvm::Error checkGeneric(linalg::GenericOp generic);

/// The op that `op` feeds as an epilogue: the next op of the block that is
/// not a view or a scalar, an elementwise linalg.generic that reads the
/// result of contraction `op` once per element, when that result is a
/// temporary that nothing else but `foldedFills` uses; or null.
static linalg::GenericOp
getEpilogue(linalg::GenericOp op, const DenseSet<Operation *> &foldedFills) {
  if (op.getNumReductionLoops() == 0 || op.getNumDpsInits() != 1)
    return nullptr;
  Value result = op.getDpsInits()[0];
  AffineMap written = op.getIndexingMapsArray().back();
  if (!written.isProjectedPermutation() ||
      written.getNumResults() != op.getNumParallelLoops())
    return nullptr;
  for (AffineExpr expr : written.getResults())
    if (op.getIteratorTypesArray()[cast<AffineDimExpr>(expr).getPosition()] !=
        utils::IteratorType::parallel)
      return nullptr;
  // The result must be a private temporary: not the caller's buffer, not a
  // slice of a loop's result, not read through a view.
  auto alloc = result.getDefiningOp<memref::AllocOp>();
  auto next = dyn_cast_or_null<linalg::GenericOp>(getNextComputeOp(op));
  if (!alloc || !next || next.getNumReductionLoops() != 0)
    return nullptr;
  if (llvm::Error unsupported = checkGeneric(next)) {
    llvm::consumeError(std::move(unsupported));
    return nullptr;
  }
  OpOperand *read = nullptr;
  for (OpOperand &operand : next->getOpOperands())
    if (operand.get() == result) {
      if (read || next.isDpsInit(&operand))
        return nullptr;
      read = &operand;
    }
  if (!read || !next.getMatchingIndexingMap(read).isPermutation())
    return nullptr;
  for (Operation *user : result.getUsers())
    if (user != op && user != next && !foldedFills.contains(user) &&
        !isa<memref::DeallocOp>(user))
      return nullptr;
  return next;
}

llvm::Error Codegen::emitEpilogue(KernelBuilder &kernel, GenericWriter &writer,
                                  linalg::GenericOp epilogue,
                                  unsigned indent) {
  linalg::GenericOp contraction = writer.generic;
  GenericWriter after(epilogue, kernel, writer.body, "e");
  llvm::raw_string_ostream &os = after.os;
  // The epilogue's loop variables from the contraction's: both index the
  // contraction's result.
  Value result = contraction.getDpsInits()[0];
  AffineMap written = contraction.getIndexingMapsArray().back();
  OpOperand *read = nullptr;
  for (OpOperand *input : epilogue.getDpsInputOperands())
    if (input->get() == result)
      read = input;
  AffineMap readMap = epilogue.getMatchingIndexingMap(read);
  for (auto [k, expr] : llvm::enumerate(readMap.getResults()))
    os.indent(indent) << "long long "
                      << after.dims[cast<AffineDimExpr>(expr).getPosition()]
                      << " = "
                      << writer.dims[cast<AffineDimExpr>(written.getResult(k))
                                         .getPosition()]
                      << ";\n";
  writer.body.bind(epilogue.getMatchingBlockArgument(read), "acc0");
  for (OpOperand &init : epilogue.getDpsInitsMutable()) {
    BlockArgument arg = epilogue.getMatchingBlockArgument(&init);
    if (arg.use_empty())
      continue;
    llvm::Expected<std::string> element = after.element(init);
    if (!element)
      return element.takeError();
    std::string name = "eout" + std::to_string(arg.getArgNumber());
    os.indent(indent) << *getCType(arg.getType()) << " " << name << " = "
                      << *element << ";\n";
    writer.body.bind(arg, name);
  }
  if (llvm::Error failure = after.loadInputs(indent))
    return failure;
  if (llvm::Error failure = after.emitOps(indent))
    return failure;
  auto yield = cast<linalg::YieldOp>(epilogue.getBody()->getTerminator());
  for (auto [init, value] :
       llvm::zip(epilogue.getDpsInitsMutable(), yield.getValues())) {
    llvm::Expected<std::string> element = after.element(init);
    if (!element)
      return element.takeError();
    os.indent(indent) << *element << " = " << writer.body.get(value) << ";\n";
  }
  return llvm::Error::success();
}

/// What combining the shares of a block costs, in steps of a reduction
/// loop: two barriers and ten warp shuffles.
static constexpr int64_t kBlockCombineCost = 12;

llvm::Error Codegen::bindFused(KernelBuilder &kernel, linalg::GenericOp generic,
                               linalg::GenericOp epilogue) {
  if (llvm::Error failure = bindMemrefs(kernel, generic))
    return failure;
  if (!epilogue)
    return llvm::Error::success();
  if (llvm::Error failure = bindMemrefs(kernel, epilogue))
    return failure;
  // The contraction's result never reaches memory.
  if (std::optional<int64_t> buffer =
          getGlobalBuffer(generic.getDpsInits()[0])) {
    kernel.read.remove(*buffer);
    kernel.written.remove(*buffer);
  }
  fusedEpilogues.insert(epilogue);
  return llvm::Error::success();
}

/// The combiner of a reduction `generic` that a block finishes sooner by
/// sharing each output element's steps among its threads than by giving
/// each thread whole elements (one of few elements with many steps): one
/// output, read only by the op that combines it with the value of a step,
/// an addition or a maximum (what ens reductions lower to); or null.
///
/// In a loop over members, one block computes every element of the op; a
/// grid-wide kernel instead gives each element a block of its own (with
/// `ownBlocks`), so it shares only when the elements would not fill one
/// block.
static Operation *getBlockCombiner(linalg::GenericOp generic,
                                   bool ownBlocks = false) {
  if (generic.getNumDpsInits() != 1 || generic.getNumReductionLoops() == 0)
    return nullptr;
  int64_t points = 1, steps = 1;
  for (auto [range, iterator] : llvm::zip(generic.getStaticLoopRanges(),
                                          generic.getIteratorTypesArray()))
    (iterator == utils::IteratorType::parallel ? points : steps) *= range;
  int64_t rounds = (points + kBlockSize - 1) / kBlockSize;
  int64_t perElement = (steps + kBlockSize - 1) / kBlockSize + kBlockCombineCost;
  if (ownBlocks ? points >= kBlockSize || perElement >= steps
                : points * perElement >= rounds * steps)
    return nullptr;
  AffineMap output = generic.getIndexingMapsArray().back();
  for (auto [d, iterator] : llvm::enumerate(generic.getIteratorTypesArray()))
    if (iterator == utils::IteratorType::reduction && output.isFunctionOfDim(d))
      return nullptr;
  BlockArgument accumulator = generic.getRegionOutputArgs()[0];
  Value yielded = generic.getBody()->getTerminator()->getOperand(0);
  Operation *combiner = yielded.getDefiningOp();
  if (!combiner || !accumulator.hasOneUse() ||
      *accumulator.getUsers().begin() != combiner ||
      !isa<arith::AddFOp, arith::MaximumFOp, arith::AddIOp>(combiner) ||
      combiner->getResult(0).getType().isInteger(1) ||
      combiner->getOperand(0) == combiner->getOperand(1))
    return nullptr;
  return combiner;
}

/// A C++ lambda that combines two partial results as `combiner` does, and
/// the identity of that combination.
static std::pair<std::string, std::string> getCombination(Operation *combiner) {
  Type type = combiner->getResult(0).getType();
  std::string t = *getCType(type);
  bool isDouble = type.isF64();
  std::string lambda = "[](" + t + " a, " + t + " b) { return ";
  if (isa<arith::AddFOp>(combiner))
    return {lambda + "a + b; }", floatLiteral(-0.0, isDouble)};
  if (isa<arith::MaximumFOp>(combiner))
    return {lambda + (isDouble ? "ens_maximumd" : "ens_maximumf") +
                "(a, b); }",
            floatLiteral(-INFINITY, isDouble)};
  // Integer addition wraps.
  std::string u = type.isInteger(64) ? "unsigned long long" : "unsigned";
  return {lambda + "(" + t + ")((" + u + ")a + (" + u + ")b); }",
          "(" + t + ")0"};
}

llvm::Error Codegen::emitBlockReduction(KernelBuilder &kernel,
                                        linalg::GenericOp generic,
                                        Operation *combiner, StringRef first,
                                        StringRef step, unsigned indent) {
  BodyEmitter body(kernel.body, kernel.accesses);
  if (llvm::Error failure = beginBody(body, generic, indent))
    return failure;
  GenericWriter writer(generic, kernel, body);
  llvm::raw_string_ostream &os = writer.os;
  std::string t = *getCType(combiner->getResult(0).getType());
  auto [combine, identity] = getCombination(combiner);
  Value accumulator = generic.getRegionOutputArgs()[0];
  Value stepValue = combiner->getOperand(0) == accumulator
                        ? combiner->getOperand(1)
                        : combiner->getOperand(0);
  llvm::Expected<std::string> output =
      writer.element(generic.getDpsInitsMutable()[0]);
  if (!output)
    return output.takeError();
  // A block walks its output elements together; for each, every thread
  // combines a share of the steps, then the block combines the shares.
  os.indent(indent) << "__shared__ " << t << " scratch[32];\n";
  os.indent(indent) << "auto combine = " << combine << ";\n";
  os.indent(indent) << "for (long long p = " << first << "; p < "
                    << writer.count(writer.parallel) << "LL; p += " << step
                    << ") {\n";
  writer.declareLoops(writer.parallel, "p", indent + 2);
  os.indent(indent + 2) << t << " share = " << identity << ";\n";
  os.indent(indent + 2) << "for (long long q = threadIdx.x; q < "
                        << writer.count(writer.reduction)
                        << "LL; q += blockDim.x) {\n";
  writer.declareLoops(writer.reduction, "q", indent + 4);
  if (llvm::Error failure = writer.loadInputs(indent + 4))
    return failure;
  if (llvm::Error failure = writer.emitOps(indent + 4, combiner))
    return failure;
  os.indent(indent + 4) << "share = combine(share, " << body.get(stepValue)
                        << ");\n";
  os.indent(indent + 2) << "}\n";
  os.indent(indent + 2) << t << " total = ens_block_reduce(share, "
                        << identity << ", scratch, combine);\n";
  Value fill = filledWith.lookup(&generic.getDpsInitsMutable()[0]);
  os.indent(indent + 2) << "if (threadIdx.x == 0) " << *output
                        << " = combine(" << (fill ? body.get(fill) : *output)
                        << ", total);\n";
  os.indent(indent) << "}\n";
  return llvm::Error::success();
}

/// Checks that the CUDA backend can give each thread whole output elements
/// of `generic`: static loop ranges and outputs that depend on every
/// parallel loop.
static llvm::Error checkGeneric(linalg::GenericOp generic) {
  SmallVector<int64_t> ranges = generic.getStaticLoopRanges();
  if (llvm::any_of(ranges, ShapedType::isDynamic))
    return error("the CUDA backend needs static loop ranges");
  SmallVector<AffineMap> maps = generic.getIndexingMapsArray();
  for (AffineMap map : ArrayRef(maps).drop_front(generic.getNumDpsInputs()))
    for (auto [d, iterator] :
         llvm::enumerate(generic.getIteratorTypesArray()))
      if (iterator == utils::IteratorType::parallel &&
          !map.isFunctionOfDim(d))
        return error("the CUDA backend cannot compile a linalg.generic whose "
                     "output does not depend on every parallel loop");
  return llvm::Error::success();
}

llvm::Error Codegen::emitGeneric(linalg::GenericOp generic) {
  if (llvm::Error failure = checkGeneric(generic))
    return failure;
  int64_t points = 1;
  for (auto [range, iterator] : llvm::zip(generic.getStaticLoopRanges(),
                                          generic.getIteratorTypesArray()))
    if (iterator == utils::IteratorType::parallel)
      points *= range;
  if (points == 0)
    return llvm::Error::success();
  Operation *combiner = getBlockCombiner(generic, /*ownBlocks=*/true);
  linalg::GenericOp epilogue = combiner ? nullptr : getEpilogue(generic, foldedFills);
  KernelBuilder kernel = beginKernel(generic, "generic");
  if (epilogue) {
    kernel.info.sourceOps = getSourceOps({generic, epilogue});
    kernel.info.flops += countFlops(epilogue);
  }
  if (llvm::Error failure = bindFused(kernel, generic, epilogue))
    return failure;
  if (combiner) {
    // A block per output element.
    kernel.info.usesBarriers = true;
    kernel.launch.grid = {static_cast<unsigned>(points), 1, 1};
    kernel.launch.block = {kBlockSize, 1, 1};
    if (llvm::Error failure = emitBlockReduction(
            kernel, generic, combiner, "blockIdx.x", "gridDim.x", 2))
      return failure;
    finishKernel(kernel);
    return llvm::Error::success();
  }
  // A grid-stride loop: a grid of at most 2^31 - 1 blocks covers any op.
  int64_t blocks = std::min<int64_t>((points + kBlockSize - 1) / kBlockSize,
                                     INT32_MAX);
  kernel.launch.grid = {static_cast<unsigned>(blocks), 1, 1};
  kernel.launch.block = {
      static_cast<unsigned>(std::min<int64_t>(points, kBlockSize)), 1, 1};
  if (llvm::Error failure = emitPoints(
          kernel, generic, "(long long)blockIdx.x * blockDim.x + threadIdx.x",
          "(long long)gridDim.x * blockDim.x", 2, epilogue))
    return failure;
  finishKernel(kernel);
  return llvm::Error::success();
}

llvm::Error Codegen::emitSerial(Operation *op) {
  KernelBuilder kernel = beginKernel(op, "serial");
  if (llvm::Error failure = bindMemrefs(kernel, op))
    return failure;
  llvm::raw_string_ostream os(kernel.body);
  os << "  // One thread runs the loop nest in order.\n";
  os << "  if (blockIdx.x != 0 || threadIdx.x != 0) return;\n";
  BodyEmitter body(kernel.body, kernel.accesses);
  if (llvm::Error failure = emitCaptured(op, body, 2))
    return failure;
  if (llvm::Error failure = body.emit(op, 2))
    return failure;
  finishKernel(kernel);
  return llvm::Error::success();
}

/// The allocation that `memref` is, or is a view of, if it is one of
/// `temporaries`.
static memref::AllocOp
getTemporary(Value memref, const DenseMap<Operation *, unsigned> &temporaries) {
  while (Operation *def = memref.getDefiningOp()) {
    if (temporaries.count(def))
      return cast<memref::AllocOp>(def);
    if (def->getNumOperands() == 0 ||
        !isa<MemRefType>(def->getOperand(0).getType()))
      break;
    memref = def->getOperand(0);
  }
  return nullptr;
}

llvm::Expected<int64_t> Codegen::placeTemporaries(scf::ForallOp forall,
                                                  int64_t members) {
  Block *body = forall.getBody();
  SmallVector<Temporary> temporaries;
  DenseMap<Operation *, unsigned> indexOf;
  // The results of contractions that epilogues consume take no memory. A
  // contraction and its epilogue run as one phase: the epilogue's uses
  // happen at the contraction's position.
  DenseMap<Operation *, unsigned> positionOf;
  for (auto [position, op] : llvm::enumerate(body->without_terminator()))
    positionOf[&op] = position;
  for (Operation &op : body->without_terminator())
    if (auto generic = dyn_cast<linalg::GenericOp>(op))
      if (!getBlockCombiner(generic))
        if (linalg::GenericOp epilogue = getEpilogue(generic, foldedFills)) {
          epilogueOf[generic] = epilogue;
          inRegisters.insert(generic.getDpsInits()[0]);
          positionOf[epilogue] = positionOf[generic];
        }
  for (Operation &op : body->without_terminator()) {
    auto alloc = dyn_cast<memref::AllocOp>(&op);
    if (!alloc || inRegisters.contains(alloc.getResult()))
      continue;
    MemRefType type = alloc.getType();
    std::optional<DType> dtype = getBufferDType(type.getElementType());
    if (!type.hasStaticShape() || !dtype)
      return error("the CUDA backend needs static buffers of f32, f64, i32 "
                   "or i1");
    indexOf[alloc] = temporaries.size();
    temporaries.push_back(
        {alloc,
         static_cast<int64_t>(type.getNumElements() * getElementSize(*dtype)),
         ~0u, 0, {}});
  }
  // Each temporary lives from the first to the last phase that uses it.
  for (Operation &op : body->without_terminator()) {
    unsigned position = positionOf[&op];
    op.walk([&](Operation *inner) {
      for (Value operand : inner->getOperands())
        if (isa<MemRefType>(operand.getType()))
          if (memref::AllocOp alloc = getTemporary(operand, indexOf)) {
            Temporary &temporary = temporaries[indexOf[alloc]];
            temporary.first = std::min(temporary.first, position);
            temporary.last = std::max(temporary.last, position);
          }
    });
  }
  // One that nothing uses needs no memory.
  for (Temporary &temporary : temporaries)
    if (temporary.first > temporary.last)
      temporary = {temporary.alloc, 0, 0, 0, {}};
  // First fit in order of allocation; while the peak exceeds the budget, the
  // largest temporary still in shared memory moves to global memory.
  SmallVector<bool> inShared(temporaries.size(), true);
  int64_t peak;
  while (true) {
    SmallVector<LiveRange> ranges;
    SmallVector<unsigned> placed;
    for (auto [i, temporary] : llvm::enumerate(temporaries)) {
      temporary.offset.reset();
      if (inShared[i]) {
        ranges.push_back({temporary.bytes, temporary.first, temporary.last});
        placed.push_back(i);
      }
    }
    Placement placement = placeByLiveness(ranges, kSharedAlignment);
    for (auto [i, offset] : llvm::zip(placed, placement.offsets))
      temporaries[i].offset = offset;
    peak = placement.peak;
    if (peak <= kSharedMemoryBudget)
      break;
    unsigned largest = *llvm::max_element(placed, [&](unsigned a, unsigned b) {
      return temporaries[a].bytes < temporaries[b].bytes;
    });
    inShared[largest] = false;
  }
  for (Temporary &temporary : temporaries) {
    Value value = temporary.alloc.getResult();
    if (temporary.offset) {
      sharedName[value] = "t" + std::to_string(sharedOffsets.size());
      sharedOffsets.push_back({value, *temporary.offset});
      continue;
    }
    // Global memory, one slice per member.
    MemRefType type = temporary.alloc.getType();
    SmallVector<int64_t> shape = {members};
    llvm::append_range(shape, type.getShape());
    llvm::Expected<int64_t> buffer = addBuffer(
        MemRefType::get(shape, type.getElementType()), BufferKind::Temporary,
        0);
    if (!buffer)
      return buffer.takeError();
    bufferOf[value] = *buffer;
    memberSlice[value] = type.getNumElements();
  }
  return peak;
}

/// The value a fill writes: `op` is a linalg.generic (a generalized
/// linalg.fill, or a lowered constant) that writes one scalar, an input or
/// a value from outside its body, to every element of its one output; or
/// null.
static Value getFilledValue(linalg::GenericOp op) {
  if (op.getNumDpsInits() != 1 || op.getNumReductionLoops() != 0 ||
      !op.getIndexingMaps()[op.getNumDpsInputs()]
           .cast<AffineMapAttr>()
           .getValue()
           .isIdentity())
    return nullptr;
  Value yielded = op.getBody()->getTerminator()->getOperand(0);
  if (auto arg = dyn_cast<BlockArgument>(yielded);
      arg && arg.getOwner() == op.getBody()) {
    if (arg.getArgNumber() >= op.getNumDpsInputs())
      return nullptr;
    Value input = op.getDpsInputs()[arg.getArgNumber()];
    return isa<ShapedType>(input.getType()) ? nullptr : input;
  }
  if (Operation *def = yielded.getDefiningOp(); def && op->isAncestor(def))
    return nullptr;
  return yielded;
}

/// Finds the fills of `block` that the next op writing their buffer can
/// start from instead: that op is the next one of the block that is not a
/// view or a scalar, and it reads the filled buffer only as an output it
/// writes whole, outside its reduction loops.
static void findFoldableFills(Block &block,
                              DenseMap<OpOperand *, Value> &filledWith,
                              DenseSet<Operation *> &foldedFills) {
  for (Operation &op : block) {
    auto fill = dyn_cast<linalg::GenericOp>(op);
    Value value = fill ? getFilledValue(fill) : nullptr;
    if (!value)
      continue;
    auto consumer = dyn_cast_or_null<linalg::GenericOp>(getNextComputeOp(&op));
    Value buffer = fill.getDpsInits()[0];
    if (!consumer || llvm::is_contained(consumer.getDpsInputs(), buffer))
      continue;
    for (OpOperand &init : consumer.getDpsInitsMutable()) {
      AffineMap map = consumer.getMatchingIndexingMap(&init);
      if (init.get() != buffer || !map.isProjectedPermutation() ||
          map.getNumResults() != consumer.getNumParallelLoops() ||
          llvm::any_of(map.getResults(), [&](AffineExpr expr) {
            return consumer.getIteratorTypesArray()
                       [cast<AffineDimExpr>(expr).getPosition()] !=
                   utils::IteratorType::parallel;
          }))
        continue;
      filledWith[&init] = value;
      foldedFills.insert(fill);
    }
  }
}

SmallVector<Value> Codegen::getFillValues(linalg::GenericOp generic) {
  SmallVector<Value> values;
  for (OpOperand &init : generic.getDpsInitsMutable())
    if (Value fill = filledWith.lookup(&init))
      values.push_back(fill);
  return values;
}

/// Operands in global memory that a contraction reads at least this many
/// times per element are staged into shared memory...
static constexpr int64_t kMinStagedReuse = 4;
/// ... if they take at most this many bytes.
static constexpr int64_t kMaxStagedBytes = 16 * 1024;

llvm::Expected<SmallVector<std::pair<Value, Access>>>
Codegen::stageOperands(KernelBuilder &kernel, linalg::GenericOp generic) {
  SmallVector<std::pair<Value, Access>> staged;
  if (generic.getNumReductionLoops() == 0)
    return staged;
  int64_t iterations = 1;
  for (int64_t range : generic.getStaticLoopRanges())
    iterations *= range;
  llvm::raw_string_ostream os(kernel.body);
  int64_t used = 0;
  for (OpOperand *input : generic.getDpsInputOperands()) {
    Value value = input->get();
    auto type = dyn_cast<MemRefType>(value.getType());
    if (!type || !type.hasStaticShape() || !getGlobalBuffer(value) ||
        generic.getMatchingBlockArgument(input).use_empty() ||
        llvm::any_of(staged, [&](auto &entry) { return entry.first == value; }))
      continue;
    std::optional<DType> dtype = getBufferDType(type.getElementType());
    int64_t elements = type.getNumElements();
    if (!dtype || *dtype == DType::I1 || elements == 0 ||
        iterations / elements < kMinStagedReuse)
      continue;
    int64_t bytes = elements * static_cast<int64_t>(getElementSize(*dtype));
    int64_t offset = llvm::alignTo(used, kSharedAlignment);
    if (bytes > kMaxStagedBytes ||
        stageOffset + offset + bytes > kSharedMemoryBudget)
      continue;
    // The whole view, copied by the block in row-major order.
    std::string name = "staged" + std::to_string(staged.size());
    std::string cType = *getCType(type.getElementType());
    os << "    " << cType << " *" << name << " = (" << cType
       << " *)(ens_shared + " << stageOffset + offset << ");\n";
    os << "    for (long long i = threadIdx.x; i < " << elements
       << "LL; i += blockDim.x) {\n";
    os << "      long long r_i = i;\n";
    SmallVector<std::string> indices(type.getRank());
    for (int64_t d = type.getRank(); d-- > 0;) {
      indices[d] = "e" + std::to_string(d);
      os << "      long long " << indices[d] << " = r_i";
      if (d)
        os << " % " << type.getDimSize(d) << "; r_i /= " << type.getDimSize(d);
      os << ";\n";
    }
    BodyEmitter body(kernel.body, kernel.accesses);
    os << "      " << name << "[i] = " << body.element(value, indices)
       << ";\n";
    os << "    }\n";
    staged.push_back({value, kernel.accesses[value]});
    SmallVector<int64_t> strides = getRowMajorStrides(type.getShape());
    kernel.accesses[value] = {name, "0LL", {strides.begin(), strides.end()}};
    used = offset + bytes;
  }
  if (!staged.empty())
    os << "    __syncthreads();\n";
  stagedPeak = std::max(stagedPeak, used);
  return staged;
}

llvm::Error Codegen::emitForall(scf::ForallOp forall) {
  if (forall.getRank() != 1 || forall.getStaticLowerBound()[0] != 0 ||
      forall.getStaticStep()[0] != 1 ||
      ShapedType::isDynamic(forall.getStaticUpperBound()[0]))
    return error("the CUDA backend needs loops over members from 0 by 1");
  int64_t members = forall.getStaticUpperBound()[0];
  if (members == 0)
    return llvm::Error::success();
  if (members > INT32_MAX)
    return error("the CUDA backend cannot launch more than 2^31 blocks");
  if (!forall.getTerminator().getYieldingOps().empty())
    return error("the CUDA backend needs a bufferized loop over members");
  // Every op is checked before any is planned or costed.
  for (Operation &op : forall.getBody()->without_terminator())
    if (auto generic = dyn_cast<linalg::GenericOp>(op))
      if (llvm::Error failure = checkGeneric(generic))
        return failure;
  memberIndex = forall.getInductionVar(0);
  llvm::Expected<int64_t> sharedBytes = placeTemporaries(forall, members);
  if (!sharedBytes)
    return sharedBytes.takeError();

  // Operands staged for one op at a time go after the temporaries.
  stageOffset = llvm::alignTo(*sharedBytes, kSharedAlignment);
  stagedPeak = 0;

  KernelBuilder kernel = beginKernel(forall, "members");
  kernel.info.usesBarriers = true;
  kernel.launch.grid = {static_cast<unsigned>(members), 1, 1};
  kernel.launch.block = {kBlockSize, 1, 1};
  llvm::raw_string_ostream os(kernel.body);
  os << "  // Block m computes member m; its temporaries live in shared "
        "memory.\n";
  os << "  ENS_DYNAMIC_SHARED(ens_shared);\n";
  os << "  long long m = blockIdx.x;\n";
  for (auto [value, offset] : sharedOffsets) {
    std::string cType =
        *getCType(cast<MemRefType>(value.getType()).getElementType());
    os << "  " << cType << " *" << sharedName[value] << " = (" << cType
       << " *)(ens_shared + " << offset << ");\n";
  }
  bool pending = false;
  for (Operation &op : forall.getBody()->without_terminator()) {
    auto phase = [&](auto emit, Operation *epilogue = nullptr) -> llvm::Error {
      if (pending)
        os << "  __syncthreads();\n";
      pending = true;
      if (llvm::Error failure = bindMemrefs(kernel, &op))
        return failure;
      SmallVector<Operation *> roots = {&op};
      if (epilogue)
        roots.push_back(epilogue);
      os << "  { // " << getSourceOps(roots) << "\n";
      if (llvm::Error failure = emit())
        return failure;
      os << "  }\n";
      return llvm::Error::success();
    };
    if (foldedFills.contains(&op) || fusedEpilogues.contains(&op))
      continue;
    llvm::Error err =
        llvm::TypeSwitch<Operation *, llvm::Error>(&op)
            .Case([&](linalg::GenericOp generic) {
              Operation *combiner = getBlockCombiner(generic);
              linalg::GenericOp epilogue = epilogueOf.lookup(generic);
              return phase([&]() -> llvm::Error {
                if (llvm::Error failure =
                        bindFused(kernel, generic, epilogue))
                  return failure;
                llvm::Expected<SmallVector<std::pair<Value, Access>>> staged =
                    stageOperands(kernel, generic);
                if (!staged)
                  return staged.takeError();
                llvm::Error emitted =
                    combiner ? emitBlockReduction(kernel, generic, combiner,
                                                  "0", "1", 4)
                             : emitPoints(kernel, generic, "threadIdx.x",
                                          "blockDim.x", 4, epilogue);
                for (auto &[value, global] : *staged)
                  kernel.accesses[value] = global;
                return emitted;
              }, epilogue);
            })
            .Case([&](scf::ForOp loop) {
              return phase([&]() -> llvm::Error {
                os << "    if (threadIdx.x == 0) {\n";
                BodyEmitter body(kernel.body, kernel.accesses);
                body.bind(memberIndex, "m");
                if (llvm::Error failure = emitCaptured(loop, body, 6))
                  return failure;
                if (llvm::Error failure = body.emit(loop, 6))
                  return failure;
                os << "    }\n";
                return llvm::Error::success();
              });
            })
            .Case<memref::AllocOp, memref::DeallocOp, memref::SubViewOp,
                  memref::CollapseShapeOp, memref::ExpandShapeOp,
                  memref::CastOp>(
                [](Operation *) { return llvm::Error::success(); })
            .Default([&](Operation *other) -> llvm::Error {
              if (isScalarOp(other))
                return llvm::Error::success();
              return error("the CUDA backend cannot compile '" +
                           other->getName().getStringRef() +
                           "' in a loop over members yet");
            });
    if (err)
      return err;
  }
  kernel.launch.sharedBytes = static_cast<unsigned>(
      stagedPeak ? stageOffset + stagedPeak : *sharedBytes);
  finishKernel(kernel);
  memberIndex = nullptr;
  sharedName.clear();
  sharedOffsets.clear();
  memberSlice.clear();
  inRegisters.clear();
  epilogueOf.clear();
  return llvm::Error::success();
}

/// The alignment of each temporary in the arena, as cuMemAlloc's.
static constexpr int64_t kArenaAlignment = 256;

/// Places the temporaries of `plan` in its arena by their live ranges over
/// the launches.
static void planArena(LaunchPlan &plan) {
  SmallVector<LiveRange> ranges;
  SmallVector<BufferInfo *> temporaries;
  for (BufferInfo &buffer : plan.buffers)
    if (buffer.kind == BufferKind::Temporary) {
      ranges.push_back({buffer.bytes, ~0u, 0});
      temporaries.push_back(&buffer);
    }
  for (auto [step, launch] : llvm::enumerate(plan.launches))
    for (const KernelArg &arg : launch.args)
      if (arg.isBuffer &&
          plan.buffers[arg.value].kind == BufferKind::Temporary) {
        auto it = llvm::find(temporaries, &plan.buffers[arg.value]);
        LiveRange &range = ranges[it - temporaries.begin()];
        range.first = std::min<unsigned>(range.first, step);
        range.last = std::max<unsigned>(range.last, step);
      }
  // A temporary no launch uses (the result of a contraction whose epilogue
  // consumed it in registers) takes no memory.
  for (auto [range, buffer] : llvm::zip(ranges, temporaries))
    if (range.first > range.last)
      range = {0, 0, 0};
  Placement placement = placeByLiveness(ranges, kArenaAlignment);
  for (auto [buffer, offset] : llvm::zip(temporaries, placement.offsets))
    buffer->arenaOffset = offset;
  plan.arenaBytes = placement.peak;
}

std::vector<HostTensor> LaunchPlan::readResults(
    unsigned numResults,
    llvm::function_ref<const void *(size_t buffer)> bytesOf) const {
  std::vector<HostTensor> results(numResults);
  for (auto [i, buffer] : llvm::enumerate(buffers))
    if (buffer.kind == BufferKind::Output)
      results[buffer.index] =
          HostTensor::loadFrom(buffer.dtype, buffer.shape, bytesOf(i));
  return results;
}

int64_t LaunchPlan::getPeakDeviceBytes() const {
  int64_t bytes = arenaBytes;
  for (const BufferInfo &buffer : buffers)
    if (buffer.kind != BufferKind::Temporary)
      bytes += buffer.bytes;
  return bytes;
}

llvm::Error Codegen::run(unsigned numInputs) {
  program.type = function.getFunctionType();
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
    bufferOf[arg] = *buffer;
  }
  auto module = function->getParentOfType<ModuleOp>();
  function.walk([&](Block *block) {
    findFoldableFills(*block, filledWith, foldedFills);
  });
  auto define = [&](Value value, BufferKind kind,
                    std::vector<uint8_t> init = {}) -> llvm::Error {
    llvm::Expected<int64_t> buffer = addBuffer(
        cast<MemRefType>(value.getType()), kind, 0, std::move(init));
    if (!buffer)
      return buffer.takeError();
    bufferOf[value] = *buffer;
    return llvm::Error::success();
  };
  for (Operation &op : function.getBody().front()) {
    if (foldedFills.contains(&op) || fusedEpilogues.contains(&op))
      continue;
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
            .Case([&](linalg::GenericOp generic) {
              return emitGeneric(generic);
            })
            .Case([&](scf::ForOp loop) { return emitSerial(loop); })
            .Case([&](scf::ForallOp forall) { return emitForall(forall); })
            .Case<memref::SubViewOp, memref::CollapseShapeOp,
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
  planArena(program.plan);
  return llvm::Error::success();
}

//===----------------------------------------------------------------------===//
// Pipeline
//===----------------------------------------------------------------------===//

/// Names each ens op in its location, so the kernels that come from it can
/// say which ops they compute.
static void tagEnsOps(ModuleOp module) {
  module.walk([](Operation *op) {
    if (op->getDialect() && op->getDialect()->getNamespace() == "ens")
      op->setLoc(NameLoc::get(
          StringAttr::get(op->getContext(), op->getName().getStringRef()),
          op->getLoc()));
  });
}

/// Rewrites every named linalg op and memref.copy as a linalg.generic.
static LogicalResult generalize(func::FuncOp function) {
  IRRewriter rewriter(function.getContext());
  SmallVector<memref::CopyOp> copies;
  function.walk([&](memref::CopyOp copy) { copies.push_back(copy); });
  for (memref::CopyOp copy : copies) {
    rewriter.setInsertionPoint(copy);
    rewriter.replaceOpWithNewOp<linalg::CopyOp>(copy, copy.getSource(),
                                                copy.getTarget());
  }
  SmallVector<linalg::LinalgOp> named;
  function.walk([&](linalg::LinalgOp op) {
    if (!isa<linalg::GenericOp>(op))
      named.push_back(op);
  });
  for (linalg::LinalgOp op : named) {
    rewriter.setInsertionPoint(op);
    if (failed(linalg::generalizeNamedOp(rewriter, op)))
      return op->emitError("cannot generalize");
  }
  return success();
}

llvm::Expected<CudaProgram>
mlir::ens::cuda::generateCuda(ModuleOp module, StringRef entry,
                              int64_t maxBufferBytes) {
  auto function = module.lookupSymbol<func::FuncOp>(entry);
  if (!function)
    return error("no function named '" + entry + "'");
  FunctionType type = function.getFunctionType();
  OwningOpRef<ModuleOp> clone = module.clone();
  for (func::FuncOp other : clone->getOps<func::FuncOp>())
    if (other.getSymName() != entry)
      other.setPrivate();

  MLIRContext *context = module.getContext();
  std::string diagnostics;
  ScopedDiagnosticHandler collect(context, [&](Diagnostic &d) {
    diagnostics += "\n  " + d.str();
    return success();
  });
  PassManager front(context);
  // Only what the entry calls is compiled.
  front.addPass(createSymbolDCEPass());
  front.addPass(createEnsStdlib());
  front.addPass(createEnsAutodiff());
  front.addPass(createEnsBatch());
  if (failed(front.run(*clone)))
    return error("cannot compile @" + entry + " for CUDA:" + diagnostics);
  tagEnsOps(*clone);

  PassManager pm(context);
  buildLinalgFusionPipeline(pm, /*minMemberWork=*/0);
  pm.addPass(createBoundedCanonicalizerPass());
  // Static: the pass keeps a reference to the options' filter function.
  static const bufferization::BufferResultsToOutParamsOpts outParams = [] {
    bufferization::BufferResultsToOutParamsOpts options;
    options.hoistStaticAllocs = false;
    return options;
  }();
  buildBufferizationPipeline(pm, outParams);
  // A loop that wrote a result in place now copies each slice onto itself
  // through two equal views; once they are one, the copies fold away.
  pm.addPass(createCSEPass());
  pm.addPass(createBoundedCanonicalizerPass());
  if (failed(pm.run(*clone)))
    return error("cannot compile @" + entry + " for CUDA:" + diagnostics);

  auto lowered = clone->lookupSymbol<func::FuncOp>(entry);
  if (!lowered || !lowered.getBody().hasOneBlock())
    return error("cannot compile @" + entry + " for CUDA: no function body");
  if (failed(generalize(lowered)))
    return error("cannot compile @" + entry + " for CUDA:" + diagnostics);
  Codegen codegen(lowered, maxBufferBytes);
  if (llvm::Error failure =
          codegen.run(type.getNumInputs()))
    return std::move(failure);
  if (llvm::Error tooLarge = checkBufferBytes(
          codegen.program.plan.getPeakDeviceBytes(), maxBufferBytes,
          "@" + entry.str() + " (arguments, results, constants and "
                              "temporaries together)"))
    return std::move(tooLarge);
  codegen.program.type = type;
  return std::move(codegen.program);
}

std::string LaunchPlan::print() const {
  std::string text;
  llvm::raw_string_ostream os(text);
  static const char *kinds[] = {"input", "output", "temporary", "constant"};
  for (auto [i, buffer] : llvm::enumerate(buffers)) {
    os << "buffer " << i << ": " << kinds[static_cast<int>(buffer.kind)];
    if (buffer.kind == BufferKind::Input || buffer.kind == BufferKind::Output)
      os << " " << buffer.index;
    os << ", " << HostTensor(buffer.dtype, buffer.shape).getTypeString()
       << ", " << buffer.bytes << " bytes";
    if (buffer.kind == BufferKind::Temporary)
      os << " at arena offset " << buffer.arenaOffset;
    os << "\n";
  }
  os << "arena " << arenaBytes << " bytes\n";
  for (const KernelLaunch &launch : launches) {
    os << "launch " << kernels[launch.kernel].name << " grid ("
       << launch.grid[0] << ", " << launch.grid[1] << ", " << launch.grid[2]
       << ") block (" << launch.block[0] << ", " << launch.block[1] << ", "
       << launch.block[2] << ") shared " << launch.sharedBytes
       << " bytes, args (";
    for (auto [i, arg] : llvm::enumerate(launch.args))
      os << (i ? ", " : "") << (arg.isBuffer ? "buffer " : "") << arg.value;
    os << ")\n";
  }
  return text;
}
