//===- LoopNestEmitter.cpp - The loop nests of a linalg.generic -----------===//
//
// Writes one linalg.generic as loops inside a kernel: a loop over its
// parallel points shared out among threads (from `first` by `step`), each
// point's accumulators in registers, the reduction loops inside, and a
// fused epilogue on the accumulators; or, for a block reduction, a loop
// over the output elements whose steps the block's threads share and
// combine with ens_block_reduce. Work that is the same at every point is
// written once, before the loops.
//
//===----------------------------------------------------------------------===//

#include "KernelEmitter.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/Sequence.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <optional>

#define DEBUG_TYPE "ens-cuda-emit"

using namespace mlir;
using namespace mlir::ens;
using namespace mlir::ens::cuda;

namespace mlir::ens::cuda {
/// Writes the pieces of a linalg.generic's loop nest: the loop variables of
/// a flat iteration index, the operands' elements and the body's ops.
class GenericWriter {
public:
  /// Names loop variables and inputs with `prefix` ("d0", "in1").
  GenericWriter(linalg::GenericOp generic, KernelBuilder &kernel,
                BodyEmitter &body, StringRef prefix = "")
      : generic(generic), body(body), os(kernel.body),
        ranges(generic.getStaticLoopRanges()), prefix(prefix) {
    for (auto [i, iterator] : llvm::enumerate(generic.getIteratorTypesArray()))
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
  void declareLoops(ArrayRef<unsigned> loops, StringRef flat, unsigned indent) {
    std::string rest = "r_" + flat.str();
    os.indent(indent) << "long long " << rest << " = " << flat << ";\n";
    for (unsigned k = loops.size(); k-- > 0;) {
      unsigned d = loops[k];
      if (k == 0)
        os.indent(indent) << "long long " << dims[d] << " = " << rest << ";\n";
      else
        os.indent(indent) << "long long " << dims[d] << " = " << rest << " % "
                          << ranges[d] << "; " << rest << " /= " << ranges[d]
                          << ";\n";
    }
  }

  /// The flat index, the last loop varying fastest, of the point of
  /// `loops` whose variables are `at` (declareLoops the other way round).
  std::string flatIndex(ArrayRef<unsigned> loops, ArrayRef<std::string> at) {
    std::string index = "0LL";
    int64_t stride = 1;
    for (unsigned k = loops.size(); k-- > 0;) {
      index += " + " + at[loops[k]] + " * " + std::to_string(stride) + "LL";
      stride *= ranges[loops[k]];
    }
    return index;
  }

  /// The element of `operand` at the current loop variables.
  llvm::Expected<std::string> element(OpOperand &operand) {
    return elementAt(operand, dims);
  }

  /// The element of `operand` where the loop variables are `at`.
  llvm::Expected<std::string> elementAt(OpOperand &operand,
                                        ArrayRef<std::string> at) {
    AffineMap map = generic.getMatchingIndexingMap(&operand);
    SmallVector<std::string> indices;
    for (AffineExpr expr : map.getResults()) {
      FailureOr<std::string> index = affineExpr(expr, at);
      if (failed(index))
        return error("the CUDA backend cannot compile an indexing map");
      indices.push_back(*index);
    }
    return body.element(operand.get(), indices);
  }

  /// Reads the inputs the body uses that have no value yet.
  llvm::Error loadInputs(unsigned indent) {
    for (OpOperand *input : generic.getDpsInputOperands())
      if (llvm::Error failure = loadInput(*input, dims, indent))
        return failure;
    return llvm::Error::success();
  }

  /// Writes, before the loops, the work that is the same at every point,
  /// so that each thread does it once instead of once per element (Adam's
  /// bias corrections, powf of a hyperparameter and the step): the inputs
  /// whose indexing map uses only loops of extent 1, hence always reads the
  /// same element (0-d and fully broadcast operands), and the body's pure
  /// ops of those, of constants and of values from outside the body.
  /// `perPoint` is an input that the caller gives a value at each point.
  llvm::Error hoistInvariants(unsigned indent, OpOperand *perPoint = nullptr) {
    DenseSet<Value> invariant;
    SmallVector<std::string> origin(ranges.size(), "0LL");
    for (OpOperand *input : generic.getDpsInputOperands()) {
      AffineMap map = generic.getMatchingIndexingMap(input);
      if (input == perPoint ||
          llvm::any_of(llvm::seq(map.getNumDims()), [&](unsigned d) {
            return ranges[d] != 1 && map.isFunctionOfDim(d);
          }))
        continue;
      invariant.insert(generic.getMatchingBlockArgument(input));
      invariantInputs.insert(input);
      if (llvm::Error failure = loadInput(*input, origin, indent))
        return failure;
    }
    Region &region = generic.getRegion();
    auto isInvariant = [&](Value value) {
      return invariant.contains(value) ||
             !region.isAncestor(value.getParentRegion());
    };
    // isPure excludes what may trap (integer division by a value that may
    // be 0), which a thread with no point must not run.
    for (Operation &op : generic.getBody()->without_terminator()) {
      if (isa<linalg::IndexOp>(op) || op.getNumRegions() || !isPure(&op) ||
          !llvm::all_of(op.getOperands(), isInvariant))
        continue;
      if (llvm::Error failure = body.emit(&op, indent))
        return failure;
      invariant.insert(op.getResults().begin(), op.getResults().end());
      hoisted.insert(&op);
      LLVM_DEBUG(llvm::dbgs() << "hoisted out of the points of "
                              << generic->getLoc() << ": " << op << "\n");
    }
    return llvm::Error::success();
  }

  /// Forgets the values of the inputs read at each point, so that the next
  /// point reads its own.
  void forgetInputs() {
    for (OpOperand *input : generic.getDpsInputOperands())
      if (!invariantInputs.contains(input))
        body.unbind(generic.getMatchingBlockArgument(input));
  }

  /// Emits the body's ops but `skip` and those hoisted.
  llvm::Error emitOps(unsigned indent, Operation *skip = nullptr) {
    for (Operation &op : generic.getBody()->without_terminator())
      if (!isa<linalg::IndexOp>(op) && &op != skip && !hoisted.contains(&op))
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
  /// The body's ops written before the loops, and the inputs read there.
  DenseSet<Operation *> hoisted;
  DenseSet<OpOperand *> invariantInputs;

private:
  /// Reads `input` where the loop variables are `at`, if the body uses it
  /// and it has no value yet.
  llvm::Error loadInput(OpOperand &input, ArrayRef<std::string> at,
                        unsigned indent) {
    BlockArgument arg = generic.getMatchingBlockArgument(&input);
    if (arg.use_empty() || body.isBound(arg))
      return llvm::Error::success();
    if (!isa<MemRefType>(input.get().getType())) {
      body.bind(arg, body.get(input.get()));
      return llvm::Error::success();
    }
    llvm::Expected<std::string> value = elementAt(input, at);
    if (!value)
      return value.takeError();
    std::string name =
        prefix.str() + "in" + std::to_string(input.getOperandNumber());
    os.indent(indent) << *getCType(arg.getType()) << " " << name << " = "
                      << *value << ";\n";
    body.bind(arg, name);
    return llvm::Error::success();
  }
};
} // namespace mlir::ens::cuda

/// The input of `epilogue` that reads the result of `contraction`.
static OpOperand *getResultRead(linalg::GenericOp contraction,
                                linalg::GenericOp epilogue) {
  Value result = contraction.getDpsInits()[0];
  OpOperand *read = nullptr;
  for (OpOperand *input : epilogue.getDpsInputOperands())
    if (input->get() == result)
      read = input;
  return read;
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
    return {lambda + (isDouble ? "ens_maximumd" : "ens_maximumf") + "(a, b); }",
            floatLiteral(-INFINITY, isDouble)};
  // Integer addition wraps.
  std::string u = type.isInteger(64) ? "unsigned long long" : "unsigned";
  return {lambda + "(" + t + ")((" + u + ")a + (" + u + ")b); }",
          "(" + t + ")0"};
}

llvm::Error KernelEmitter::beginBody(BodyEmitter &body,
                                     linalg::GenericOp generic,
                                     unsigned indent) {
  if (views.memberIndex)
    body.bind(views.memberIndex, "m");
  return emitCaptured(generic, body, indent, fills.getValues(generic));
}

llvm::Error KernelEmitter::beginPoints(KernelBuilder &kernel,
                                       GenericWriter &writer,
                                       std::optional<GenericWriter> &after,
                                       linalg::GenericOp epilogue,
                                       unsigned indent) {
  if (llvm::Error failure = beginBody(writer.body, writer.generic, indent))
    return failure;
  if (epilogue)
    if (llvm::Error failure = emitCaptured(epilogue, writer.body, indent))
      return failure;
  if (llvm::Error failure = writer.hoistInvariants(indent))
    return failure;
  if (!epilogue)
    return llvm::Error::success();
  after.emplace(epilogue, kernel, writer.body, "e");
  return after->hoistInvariants(indent,
                                getResultRead(writer.generic, epilogue));
}

llvm::Error
KernelEmitter::emitPoints(KernelBuilder &kernel, linalg::GenericOp generic,
                          StringRef first, StringRef step, unsigned indent,
                          linalg::GenericOp epilogue, const TileConfig &tile,
                          const ReductionSplit *split) {
  BodyEmitter body(kernel.body, kernel.accesses);
  GenericWriter writer(generic, kernel, body);
  std::optional<GenericWriter> after;
  if (llvm::Error failure =
          beginPoints(kernel, writer, after, epilogue, indent))
    return failure;
  if (split && split->combine)
    return emitSplitCombine(writer, after, *split, first, step, indent);
  if (!tile.empty())
    return emitTiles(kernel, writer, after, tile, first, step, indent, split);
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
    if (Value fill = fills.filledWith.lookup(&init))
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
    if (llvm::Error failure =
            emitEpilogue(writer, *after, writer.dims, "acc0", indent))
      return failure;
  } else {
    for (auto [i, element] : llvm::enumerate(outputs))
      if (!perStep[i])
        os.indent(indent) << element << " = acc" << i << ";\n";
  }
  os.indent(indent - 2) << "}\n";
  return llvm::Error::success();
}

llvm::Error KernelEmitter::emitTiles(KernelBuilder &kernel,
                                     GenericWriter &writer,
                                     std::optional<GenericWriter> &after,
                                     const TileConfig &tile, StringRef first,
                                     StringRef step, unsigned indent,
                                     const ReductionSplit *split) {
  linalg::GenericOp generic = writer.generic;
  BodyEmitter &body = writer.body;
  llvm::raw_string_ostream &os = writer.os;
  // Tile t of a loop of range R in tiles of S points holds the points
  // t + s * ceil(R / S), s < S: the threads of a warp, on neighbouring
  // tiles, read and write neighbouring elements at each s. Points past R
  // (when S does not divide R) compute point R - 1 again and store nothing.
  unsigned loops[2] = {tile.loops[0], tile.loops[1]};
  int64_t sizes[2] = {tile.sizes[0], tile.sizes[1]};
  int64_t ranges[2], tiles[2];
  for (int k = 0; k < 2; ++k) {
    ranges[k] = writer.ranges[loops[k]];
    tiles[k] = llvm::divideCeil(ranges[k], sizes[k]);
    writer.ranges[loops[k]] = tiles[k];
  }
  // With a split reduction, p walks the chunks of every tile: chunk c of
  // tile q, neighbouring threads on neighbouring tiles.
  int64_t numTiles = writer.count(writer.parallel);
  int64_t chunks = split ? split->chunks : 1;
  os.indent(indent) << "for (long long p = " << first << "; p < "
                    << numTiles * chunks << "LL; p += " << step << ") {\n";
  indent += 2;
  if (split) {
    os.indent(indent) << "long long c = p / " << numTiles << "LL;\n";
    os.indent(indent) << "long long q = p % " << numTiles << "LL;\n";
  }
  writer.declareLoops(writer.parallel, split ? "q" : "p", indent);
  // The loop variables of each point, and whether it is inside the op.
  SmallVector<std::string> points[2], inside[2];
  for (int k = 0; k < 2; ++k) {
    writer.ranges[loops[k]] = ranges[k];
    const std::string &t = writer.dims[loops[k]];
    for (int64_t s = 0; s < sizes[k]; ++s) {
      std::string name = t + "_" + std::to_string(s);
      std::string at = t + " + " + std::to_string(s * tiles[k]) + "LL";
      // Whether every tile's point s is inside the op.
      bool exact = (s + 1) * tiles[k] <= ranges[k];
      os.indent(indent) << "long long " << name << " = ";
      if (exact)
        os << at << ";\n";
      else
        os << "(" << at << " < " << ranges[k] << "LL ? " << at << " : "
           << ranges[k] - 1 << "LL);\n";
      points[k].push_back(name);
      inside[k].push_back(exact ? "" : at + " < " + std::to_string(ranges[k]));
    }
  }
  auto dimsAt = [&](int64_t i, int64_t j) {
    SmallVector<std::string> dims = writer.dims;
    dims[loops[0]] = points[0][i];
    dims[loops[1]] = points[1][j];
    return dims;
  };
  auto suffix = [](int64_t i, int64_t j) {
    return "_" + std::to_string(i) + "_" + std::to_string(j);
  };
  // The accumulators of every point, from the filled value or the output;
  // a chunk of a split reduction starts from the combiner's identity.
  auto inits = generic.getDpsInitsMutable();
  std::string identity;
  if (split)
    identity = getCombination(getReductionCombiner(generic)).second;
  for (int64_t i = 0; i < sizes[0]; ++i)
    for (int64_t j = 0; j < sizes[1]; ++j)
      for (auto [o, init] : llvm::enumerate(inits)) {
        BlockArgument arg = generic.getMatchingBlockArgument(&init);
        os.indent(indent) << *getCType(arg.getType()) << " acc" << o
                          << suffix(i, j);
        if (split) {
          os << " = " << identity;
        } else if (Value fill = fills.filledWith.lookup(&init)) {
          os << " = " << body.get(fill);
        } else if (!arg.use_empty()) {
          llvm::Expected<std::string> element =
              writer.elementAt(init, dimsAt(i, j));
          if (!element)
            return element.takeError();
          os << " = " << *element;
        }
        os << ";\n";
      }
  unsigned bodyIndent = indent;
  for (unsigned d : writer.reduction) {
    const std::string &dim = writer.dims[d];
    std::string from = "0", to = std::to_string(writer.ranges[d]) + "LL";
    if (split) {
      // The one reduction loop, chunk c of it.
      std::string size =
          std::to_string(llvm::divideCeil(writer.ranges[d], chunks)) + "LL";
      from = "c * " + size;
      to = "(" + from + " + " + size + " < " + to + " ? " + from + " + " +
           size + " : " + to + ")";
    }
    os.indent(bodyIndent) << "for (long long " << dim << " = " << from << "; "
                          << dim << " < " << to << "; ++" << dim << ") {\n";
    bodyIndent += 2;
  }
  // Each input's elements of this step, once per row, column or point of
  // the tile that reads a different one.
  struct Loaded {
    OpOperand *input;
    bool rows, cols;
  };
  SmallVector<Loaded> loaded;
  for (OpOperand *input : generic.getDpsInputOperands()) {
    BlockArgument arg = generic.getMatchingBlockArgument(input);
    if (arg.use_empty() || writer.invariantInputs.contains(input))
      continue;
    AffineMap map = generic.getMatchingIndexingMap(input);
    Loaded load{input, map.isFunctionOfDim(loops[0]),
                map.isFunctionOfDim(loops[1])};
    for (int64_t i = 0; i < (load.rows ? sizes[0] : 1); ++i)
      for (int64_t j = 0; j < (load.cols ? sizes[1] : 1); ++j) {
        llvm::Expected<std::string> element =
            writer.elementAt(*input, dimsAt(i, j));
        if (!element)
          return element.takeError();
        os.indent(bodyIndent)
            << *getCType(arg.getType()) << " in" << input->getOperandNumber()
            << suffix(i, j) << " = " << *element << ";\n";
      }
    loaded.push_back(load);
  }
  // The step's loads are independent of each other and of the FMAs that
  // use them, so a thread has all of them in flight at once.
  kernel.info.bytesInFlightPerThread = 0;
  for (const Loaded &load : loaded)
    kernel.info.bytesInFlightPerThread +=
        (load.rows ? sizes[0] : 1) * (load.cols ? sizes[1] : 1) *
        getElementSize(*getBufferDType(
            generic.getMatchingBlockArgument(load.input).getType()));
  kernel.info.bytesInFlightPerThread =
      std::max<int64_t>(kernel.info.bytesInFlightPerThread, 4);
  auto yield = cast<linalg::YieldOp>(generic.getBody()->getTerminator());
  for (int64_t i = 0; i < sizes[0]; ++i)
    for (int64_t j = 0; j < sizes[1]; ++j) {
      for (const Loaded &load : loaded)
        body.bind(generic.getMatchingBlockArgument(load.input),
                  "in" + std::to_string(load.input->getOperandNumber()) +
                      suffix(load.rows ? i : 0, load.cols ? j : 0));
      for (auto [o, init] : llvm::enumerate(inits))
        body.bind(generic.getMatchingBlockArgument(&init),
                  "acc" + std::to_string(o) + suffix(i, j));
      if (llvm::Error failure = writer.emitOps(bodyIndent))
        return failure;
      for (auto [o, value] : llvm::enumerate(yield.getValues()))
        os.indent(bodyIndent)
            << "acc" << o << suffix(i, j) << " = " << body.get(value) << ";\n";
    }
  for (; bodyIndent > indent; bodyIndent -= 2)
    os.indent(bodyIndent - 2) << "}\n";
  // Each point inside the op stores its outputs, or its epilogue's.
  for (int64_t i = 0; i < sizes[0]; ++i)
    for (int64_t j = 0; j < sizes[1]; ++j) {
      SmallVector<std::string> guards;
      for (const std::string &guard : {inside[0][i], inside[1][j]})
        if (!guard.empty())
          guards.push_back(guard);
      os.indent(indent);
      if (!guards.empty())
        os << "if (" << llvm::join(guards, " && ") << ") ";
      os << "{\n";
      SmallVector<std::string> dims = dimsAt(i, j);
      if (split) {
        os.indent(indent + 2)
            << split->partials << "[(m * " << chunks << "LL + c) * "
            << writer.count(writer.parallel) << "LL + "
            << writer.flatIndex(writer.parallel, dims) << "] = acc0"
            << suffix(i, j) << ";\n";
      } else if (after) {
        after->forgetInputs();
        if (llvm::Error failure = emitEpilogue(
                writer, *after, dims, "acc0" + suffix(i, j), indent + 2))
          return failure;
      } else {
        for (auto [o, init] : llvm::enumerate(inits)) {
          llvm::Expected<std::string> element = writer.elementAt(init, dims);
          if (!element)
            return element.takeError();
          os.indent(indent + 2)
              << *element << " = acc" << o << suffix(i, j) << ";\n";
        }
      }
      os.indent(indent) << "}\n";
    }
  os.indent(indent - 2) << "}\n";
  return llvm::Error::success();
}

llvm::Error KernelEmitter::emitEpilogue(GenericWriter &writer,
                                        GenericWriter &after,
                                        ArrayRef<std::string> dims,
                                        StringRef accumulator,
                                        unsigned indent) {
  linalg::GenericOp contraction = writer.generic;
  linalg::GenericOp epilogue = after.generic;
  llvm::raw_string_ostream &os = after.os;
  // The epilogue's loop variables from the contraction's: both index the
  // contraction's result.
  AffineMap written = contraction.getIndexingMapsArray().back();
  OpOperand *read = getResultRead(contraction, epilogue);
  AffineMap readMap = epilogue.getMatchingIndexingMap(read);
  for (auto [k, expr] : llvm::enumerate(readMap.getResults()))
    os.indent(indent)
        << "long long " << after.dims[cast<AffineDimExpr>(expr).getPosition()]
        << " = "
        << dims[cast<AffineDimExpr>(written.getResult(k)).getPosition()]
        << ";\n";
  writer.body.bind(epilogue.getMatchingBlockArgument(read), accumulator.str());
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

llvm::Error KernelEmitter::emitBlockReduction(KernelBuilder &kernel,
                                              linalg::GenericOp generic,
                                              Operation *combiner,
                                              StringRef first, StringRef step,
                                              unsigned indent,
                                              const ReductionSplit *split) {
  BodyEmitter body(kernel.body, kernel.accesses);
  if (llvm::Error failure = beginBody(body, generic, indent))
    return failure;
  GenericWriter writer(generic, kernel, body);
  bool partial = split && !split->combine;
  bool combining = split && split->combine;
  // The second pass of a split reduction reads the shares, not the body.
  if (!combining)
    if (llvm::Error failure = writer.hoistInvariants(indent))
      return failure;
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
  int64_t elements = writer.count(writer.parallel);
  int64_t steps = writer.count(writer.reduction);
  int64_t chunks = split ? split->chunks : 1;
  int64_t chunkSteps = llvm::divideCeil(steps, chunks);
  // Share c of output element o of member m.
  auto share = [&](StringRef o, StringRef c) {
    return split->partials + "[(m * " + std::to_string(elements) + "LL + " +
           o.str() + ") * " + std::to_string(chunks) + "LL + " + c.str() + "]";
  };
  // A block walks its output elements (or, in the first pass of a split
  // reduction, shares of them) together; for each, every thread combines a
  // share of the steps, then the block combines the threads' shares.
  os.indent(indent) << "__shared__ " << t << " scratch[32];\n";
  os.indent(indent) << "auto combine = " << combine << ";\n";
  os.indent(indent) << "for (long long p = " << first << "; p < "
                    << (partial ? elements * chunks : elements)
                    << "LL; p += " << step << ") {\n";
  if (partial) {
    os.indent(indent + 2) << "long long c = p % " << chunks << "LL;\n";
    os.indent(indent + 2) << "long long o = p / " << chunks << "LL;\n";
  }
  writer.declareLoops(writer.parallel, partial ? "o" : "p", indent + 2);
  os.indent(indent + 2) << t << " share = " << identity << ";\n";
  if (combining) {
    os.indent(indent + 2) << "for (long long q = threadIdx.x; q < " << chunks
                          << "LL; q += blockDim.x)\n";
    os.indent(indent + 4) << "share = combine(share, " << share("p", "q")
                          << ");\n";
  } else {
    std::string from = "threadIdx.x", to = std::to_string(steps) + "LL";
    if (partial) {
      std::string start = "c * " + std::to_string(chunkSteps) + "LL";
      from = start + " + threadIdx.x";
      to = "(" + start + " + " + std::to_string(chunkSteps) + "LL < " + to +
           " ? " + start + " + " + std::to_string(chunkSteps) + "LL : " + to +
           ")";
    }
    os.indent(indent + 2) << "for (long long q = " << from << "; q < " << to
                          << "; q += blockDim.x) {\n";
    writer.declareLoops(writer.reduction, "q", indent + 4);
    if (llvm::Error failure = writer.loadInputs(indent + 4))
      return failure;
    if (llvm::Error failure = writer.emitOps(indent + 4, combiner))
      return failure;
    // A step that is a product the combining add fuses with is never named:
    // the share takes it in one fmaf.
    auto add = dyn_cast<arith::AddFOp>(combiner);
    if (arith::MulFOp mul = add ? getFusedMultiply(add) : nullptr)
      os.indent(indent + 4) << "share = "
                            << fmaExpr(mul.getType(), body.get(mul.getLhs()),
                                       body.get(mul.getRhs()), "share")
                            << ";\n";
    else
      os.indent(indent + 4)
          << "share = combine(share, " << body.get(stepValue) << ");\n";
    os.indent(indent + 2) << "}\n";
  }
  os.indent(indent + 2) << t << " total = ens_block_reduce(share, " << identity
                        << ", scratch, combine);\n";
  if (partial) {
    os.indent(indent + 2) << "if (threadIdx.x == 0) " << share("o", "c")
                          << " = total;\n";
  } else {
    Value fill = fills.filledWith.lookup(&generic.getDpsInitsMutable()[0]);
    os.indent(indent + 2) << "if (threadIdx.x == 0) " << *output
                          << " = combine(" << (fill ? body.get(fill) : *output)
                          << ", total);\n";
  }
  os.indent(indent) << "}\n";
  return llvm::Error::success();
}

llvm::Error KernelEmitter::emitSplitCombine(GenericWriter &writer,
                                            std::optional<GenericWriter> &after,
                                            const ReductionSplit &split,
                                            StringRef first, StringRef step,
                                            unsigned indent) {
  linalg::GenericOp generic = writer.generic;
  BodyEmitter &body = writer.body;
  llvm::raw_string_ostream &os = writer.os;
  Operation *combiner = getReductionCombiner(generic);
  auto [combine, identity] = getCombination(combiner);
  OpOperand &init = generic.getDpsInitsMutable()[0];
  int64_t points = writer.count(writer.parallel);
  // Each point adds its chunks' partial results, in order, to the value
  // filled in or held by the output, and applies the epilogue.
  os.indent(indent) << "auto combine = " << combine << ";\n";
  os.indent(indent) << "for (long long p = " << first << "; p < " << points
                    << "LL; p += " << step << ") {\n";
  writer.declareLoops(writer.parallel, "p", indent + 2);
  llvm::Expected<std::string> output = writer.element(init);
  if (!output)
    return output.takeError();
  Value fill = fills.filledWith.lookup(&init);
  os.indent(indent + 2) << *getCType(combiner->getResult(0).getType())
                        << " acc0 = " << (fill ? body.get(fill) : *output)
                        << ";\n";
  os.indent(indent + 2) << "for (long long c = 0; c < " << split.chunks
                        << "LL; ++c)\n";
  os.indent(indent + 4) << "acc0 = combine(acc0, " << split.partials << "[(m * "
                        << split.chunks << "LL + c) * " << points
                        << "LL + p]);\n";
  if (after) {
    if (llvm::Error failure =
            emitEpilogue(writer, *after, writer.dims, "acc0", indent + 2))
      return failure;
  } else {
    os.indent(indent + 2) << *output << " = acc0;\n";
  }
  os.indent(indent) << "}\n";
  return llvm::Error::success();
}
