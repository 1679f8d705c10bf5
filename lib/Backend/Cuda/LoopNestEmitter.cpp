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

#include "GenericWriter.h"

#include "CandidateCost.h"

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

llvm::Error GenericWriter::hoistInvariants(unsigned indent,
                                           OpOperand *perPoint) {
  DenseSet<Value> invariant;
  SmallVector<std::string> origin(ranges.size(), "0");
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

OpOperand *cuda::getResultRead(linalg::GenericOp contraction,
                               linalg::GenericOp epilogue) {
  Value result = contraction.getDpsInits()[0];
  OpOperand *read = nullptr;
  for (OpOperand *input : epilogue.getDpsInputOperands())
    if (input->get() == result)
      read = input;
  return read;
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
                          const ReductionSplit *split, const PhaseConfig *mma) {
  BodyEmitter body(kernel.body, kernel.accesses);
  GenericWriter writer(generic, kernel, body);
  std::optional<GenericWriter> after;
  if (llvm::Error failure =
          beginPoints(kernel, writer, after, epilogue, indent))
    return failure;
  if (split && split->combine)
    return emitSplitCombine(kernel, writer, after, *split, first, step, indent);
  if (mma)
    return emitBlockTiles(kernel, writer, after, *mma, first, step, indent);
  if (!tile.empty())
    return emitTiles(kernel, writer, after, tile, first, step, indent, split);
  llvm::raw_string_ostream &os = writer.os;
  ArrayRef<unsigned> reduction = writer.reduction;
  // Each thread computes the output elements of its parallel points in
  // turn, with the reduction loops inside.
  os.indent(indent) << "for (ens_index p = " << first << "; p < "
                    << writer.count(writer.parallel) << "; p += " << step
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
  auto yield = cast<linalg::YieldOp>(generic.getBody()->getTerminator());
  unsigned bodyIndent = indent;
  // A single reduction loop of at least kUnrollSteps steps whose outputs do
  // not change along it runs kUnrollSteps steps at a time (a sum, which
  // loads one element a step, kWholeUnrollSteps if it has that many), all
  // their loads before any of their ops, so that a thread has that many
  // steps' loads in flight; the steps left over run one at a time, as does
  // each step of any other reduction. The steps still combine in order.
  int64_t loadsPerStep =
      llvm::count_if(generic.getDpsInputOperands(), [&](OpOperand *input) {
        return !generic.getMatchingBlockArgument(input).use_empty() &&
               !writer.invariantInputs.contains(input);
      });
  int64_t unroll = reduction.size() == 1 && loadsPerStep <= 1 &&
                           writer.ranges[reduction[0]] >= kWholeUnrollSteps
                       ? kWholeUnrollSteps
                       : kUnrollSteps;
  if (reduction.size() == 1 && writer.ranges[reduction[0]] >= unroll &&
      llvm::none_of(perStep, [](bool b) { return b; }) &&
      generic.getBody()->getOps<linalg::IndexOp>().empty()) {
    const std::string &dim = writer.dims[reduction[0]];
    os.indent(indent) << "ens_index " << dim << " = 0;\n";
    // Unrolled already; ptxas unrolls it whole or not at all.
    if (writer.ranges[reduction[0]] / unroll > kFullUnrollTrips)
      os.indent(indent) << "#pragma unroll 1\n";
    os.indent(indent) << "for (; " << dim << " + " << unroll - 1 << " < "
                      << writer.ranges[reduction[0]] << "; " << dim
                      << " += " << unroll << ") {\n";
    SmallVector<DenseMap<Value, std::string>> loaded(unroll);
    for (int64_t u = 0; u < unroll; ++u) {
      SmallVector<std::string> at = writer.dims;
      if (u)
        at[reduction[0]] = "(" + dim + " + " + std::to_string(u) + ")";
      writer.forgetInputs();
      if (llvm::Error failure =
              writer.loadInputs(indent + 2, at, "_u" + std::to_string(u)))
        return failure;
      for (OpOperand *input : generic.getDpsInputOperands()) {
        BlockArgument arg = generic.getMatchingBlockArgument(input);
        if (body.isBound(arg))
          loaded[u][arg] = body.get(arg);
      }
    }
    for (int64_t u = 0; u < unroll; ++u) {
      for (auto [arg, name] : loaded[u])
        body.bind(arg, name);
      if (llvm::Error failure = writer.emitOps(indent + 2))
        return failure;
      for (auto [i, value] : llvm::enumerate(yield.getValues()))
        os.indent(indent + 2)
            << "acc" << i << " = " << body.get(value) << ";\n";
    }
    os.indent(indent) << "}\n";
    writer.forgetInputs();
    if (std::optional<int64_t> bytes = getPointsBytesInFlight(generic))
      kernel.info.bytesInFlightPerThread = *bytes;
    os.indent(bodyIndent) << "for (; " << dim << " < "
                          << writer.ranges[reduction[0]] << "; ++" << dim
                          << ") {\n";
    bodyIndent += 2;
  } else {
    for (unsigned d : reduction) {
      os.indent(bodyIndent)
          << "for (ens_index " << writer.dims[d] << " = 0; " << writer.dims[d]
          << " < " << writer.ranges[d] << "; ++" << writer.dims[d] << ") {\n";
      bodyIndent += 2;
    }
  }
  for (auto [i, init] : llvm::enumerate(generic.getDpsInitsMutable()))
    if (perStep[i] && !generic.getMatchingBlockArgument(&init).use_empty())
      os.indent(bodyIndent) << "acc" << i << " = " << outputs[i] << ";\n";
  if (llvm::Error failure = writer.loadInputs(bodyIndent))
    return failure;
  if (llvm::Error failure = writer.emitOps(bodyIndent))
    return failure;
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

/// The epilogue's loop variables that index the contraction's result
/// (positions among `epilogue`'s loops), each with the contraction's loop
/// variable at the point whose loop variables are `dims`: both index the
/// contraction's result.
static SmallVector<std::pair<unsigned, std::string>>
getEpiloguePointDims(linalg::GenericOp contraction, linalg::GenericOp epilogue,
                     ArrayRef<std::string> dims) {
  AffineMap written = contraction.getIndexingMapsArray().back();
  AffineMap readMap =
      epilogue.getMatchingIndexingMap(getResultRead(contraction, epilogue));
  SmallVector<std::pair<unsigned, std::string>> pointDims;
  for (auto [k, expr] : llvm::enumerate(readMap.getResults()))
    pointDims.push_back(
        {cast<AffineDimExpr>(expr).getPosition(),
         dims[cast<AffineDimExpr>(written.getResult(k)).getPosition()]});
  return pointDims;
}

llvm::Error
KernelEmitter::emitEpilogue(GenericWriter &writer, GenericWriter &after,
                            ArrayRef<std::string> dims, StringRef accumulator,
                            unsigned indent,
                            const DenseMap<Value, std::string> *loaded) {
  linalg::GenericOp contraction = writer.generic;
  linalg::GenericOp epilogue = after.generic;
  llvm::raw_string_ostream &os = after.os;
  // The epilogue's loop variables from the contraction's.
  for (auto &[position, value] :
       getEpiloguePointDims(contraction, epilogue, dims))
    os.indent(indent) << "ens_index " << after.dims[position] << " = " << value
                      << ";\n";
  OpOperand *read = getResultRead(contraction, epilogue);
  writer.body.bind(epilogue.getMatchingBlockArgument(read), accumulator.str());
  if (loaded)
    for (auto [arg, name] : *loaded)
      writer.body.bind(arg, name);
  for (OpOperand &init : epilogue.getDpsInitsMutable()) {
    BlockArgument arg = epilogue.getMatchingBlockArgument(&init);
    if (arg.use_empty() || loaded)
      continue;
    llvm::Expected<std::string> element = after.element(init);
    if (!element)
      return element.takeError();
    std::string name = "eout" + std::to_string(arg.getArgNumber());
    os.indent(indent) << *getCType(arg.getType()) << " " << name << " = "
                      << *element << ";\n";
    writer.body.bind(arg, name);
  }
  if (!loaded)
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

llvm::Expected<DenseMap<Value, std::string>>
KernelEmitter::loadEpilogue(GenericWriter &writer, GenericWriter &after,
                            ArrayRef<std::string> dims, StringRef suffix,
                            unsigned indent) {
  linalg::GenericOp contraction = writer.generic;
  linalg::GenericOp epilogue = after.generic;
  llvm::raw_string_ostream &os = after.os;
  // The epilogue's loop variables at the point, as emitEpilogue names
  // them.
  SmallVector<std::string> at = after.dims;
  for (auto &[position, value] :
       getEpiloguePointDims(contraction, epilogue, dims))
    at[position] = value;
  OpOperand *read = getResultRead(contraction, epilogue);
  DenseMap<Value, std::string> loaded;
  for (OpOperand &init : epilogue.getDpsInitsMutable()) {
    BlockArgument arg = epilogue.getMatchingBlockArgument(&init);
    if (arg.use_empty())
      continue;
    llvm::Expected<std::string> element = after.elementAt(init, at);
    if (!element)
      return element.takeError();
    std::string name =
        "eout" + std::to_string(arg.getArgNumber()) + suffix.str();
    os.indent(indent) << *getCType(arg.getType()) << " " << name << " = "
                      << *element << ";\n";
    loaded[arg] = name;
  }
  // The contraction's result comes from its accumulator, not memory.
  BlockArgument result = epilogue.getMatchingBlockArgument(read);
  after.body.bind(result, "");
  if (llvm::Error failure = after.loadInputs(indent, at, suffix))
    return std::move(failure);
  for (OpOperand *input : epilogue.getDpsInputOperands()) {
    BlockArgument arg = epilogue.getMatchingBlockArgument(input);
    if (input != read && !after.invariantInputs.contains(input) &&
        after.body.isBound(arg))
      loaded[arg] = after.body.get(arg);
  }
  after.forgetInputs();
  after.body.unbind(result);
  return std::move(loaded);
}

llvm::Error KernelEmitter::emitShare(KernelBuilder &kernel,
                                     GenericWriter &writer, Operation *combiner,
                                     StringRef from, StringRef to,
                                     StringRef stride, int64_t unrollSteps,
                                     unsigned indent) {
  linalg::GenericOp generic = writer.generic;
  BodyEmitter &body = writer.body;
  llvm::raw_string_ostream &os = writer.os;
  Value accumulator = generic.getRegionOutputArgs()[0];
  Value stepValue = combiner->getOperand(0) == accumulator
                        ? combiner->getOperand(1)
                        : combiner->getOperand(0);
  // Combines one step, whose inputs are loaded, into the share.
  auto emitStep = [&](unsigned at) -> llvm::Error {
    if (llvm::Error failure = writer.emitOps(at, combiner))
      return failure;
    // A step that is a product the combining add fuses with is never
    // named: the share takes it in one fmaf.
    auto add = dyn_cast<arith::AddFOp>(combiner);
    if (arith::MulFOp mul = add ? getFusedMultiply(add) : nullptr)
      os.indent(at) << "share = "
                    << fmaExpr(mul.getType(), body.get(mul.getLhs()),
                               body.get(mul.getRhs()), "share")
                    << ";\n";
    else
      os.indent(at) << "share = combine(share, " << body.get(stepValue)
                    << ");\n";
    return llvm::Error::success();
  };
  // A single reduction loop: each thread's steps unrollSteps at a time,
  // all their loads before their combination, so that it has that many
  // loads in flight; the steps left over one at a time. Each thread still
  // combines its steps in order, so the shares are those of one step at a
  // time.
  bool unroll = writer.reduction.size() == 1 &&
                generic.getBody()->getOps<linalg::IndexOp>().empty();
  if (unroll) {
    os.indent(indent) << "ens_index q = " << from << ";\n";
    os.indent(indent) << "for (; q + " << unrollSteps - 1 << " * " << stride
                      << " < " << to << "; q += " << unrollSteps << " * "
                      << stride << ") {\n";
    SmallVector<DenseMap<Value, std::string>> loaded(unrollSteps);
    for (int64_t u = 0; u < unrollSteps; ++u) {
      SmallVector<std::string> at = writer.dims;
      at[writer.reduction[0]] =
          u ? "(q + " + std::to_string(u) + " * " + stride.str() + ")" : "q";
      writer.forgetInputs();
      if (llvm::Error failure =
              writer.loadInputs(indent + 2, at, "_u" + std::to_string(u)))
        return failure;
      for (OpOperand *input : generic.getDpsInputOperands()) {
        BlockArgument arg = generic.getMatchingBlockArgument(input);
        if (!body.isBound(arg) || writer.invariantInputs.contains(input))
          continue;
        loaded[u][arg] = body.get(arg);
      }
    }
    if (std::optional<int64_t> bytes =
            getBlockReductionBytesInFlight(generic, unrollSteps))
      kernel.info.bytesInFlightPerThread = *bytes;
    for (int64_t u = 0; u < unrollSteps; ++u) {
      for (auto [arg, name] : loaded[u])
        body.bind(arg, name);
      if (llvm::Error failure = emitStep(indent + 2))
        return failure;
    }
    os.indent(indent) << "}\n";
    writer.forgetInputs();
    os.indent(indent) << "for (; q < " << to << "; q += " << stride << ") {\n";
  } else {
    os.indent(indent) << "for (ens_index q = " << from << "; q < " << to
                      << "; q += " << stride << ") {\n";
  }
  writer.declareLoops(writer.reduction, "q", indent + 2);
  if (llvm::Error failure = writer.loadInputs(indent + 2))
    return failure;
  if (llvm::Error failure = emitStep(indent + 2))
    return failure;
  os.indent(indent) << "}\n";
  return llvm::Error::success();
}

llvm::Error KernelEmitter::emitBlockReduction(
    KernelBuilder &kernel, linalg::GenericOp generic, Operation *combiner,
    StringRef first, StringRef step, unsigned indent,
    const ReductionSplit *split, linalg::GenericOp epilogue,
    bool lanesAlongOutputs) {
  BodyEmitter body(kernel.body, kernel.accesses);
  if (llvm::Error failure = beginBody(body, generic, indent))
    return failure;
  GenericWriter writer(generic, kernel, body);
  std::optional<GenericWriter> after;
  if (epilogue) {
    if (llvm::Error failure = emitCaptured(epilogue, body, indent))
      return failure;
    after.emplace(epilogue, kernel, body, "e");
    if (llvm::Error failure =
            after->hoistInvariants(indent, getResultRead(generic, epilogue)))
      return failure;
  }
  bool partial = split && !split->combine;
  bool combining = split && split->combine;
  // The second pass of a split reduction reads the shares, not the body.
  if (!combining)
    if (llvm::Error failure = writer.hoistInvariants(indent))
      return failure;
  llvm::raw_string_ostream &os = writer.os;
  std::string t = *getCType(combiner->getResult(0).getType());
  auto [combine, identity] = getCombination(combiner);
  llvm::Expected<std::string> output =
      writer.element(generic.getDpsInitsMutable()[0]);
  if (!output)
    return output.takeError();
  if (lanesAlongOutputs && !split)
    return emitColumnReduction(kernel, writer, after, combiner, *output, first,
                               step, indent);
  int64_t elements = writer.count(writer.parallel);
  int64_t steps = writer.count(writer.reduction);
  int64_t chunks = split ? split->chunks : 1;
  int64_t chunkSteps = llvm::divideCeil(steps, chunks);
  // Share c of output element o of member m.
  auto share = [&](StringRef o, StringRef c) {
    return split->partials + "[(m * " + std::to_string(elements) + " + " +
           o.str() + ") * " + std::to_string(chunks) + " + " + c.str() + "]";
  };
  // A block walks its output elements (or, in the first pass of a split
  // reduction, shares of them) together; for each, every thread combines a
  // share of the steps, then the block combines the threads' shares.
  // A warp combines its threads' shares with shuffles alone; a block also
  // needs a scratch slot per warp.
  if (!kernel.warp)
    os.indent(indent) << "__shared__ " << t << " scratch[32];\n";
  os.indent(indent) << "auto combine = " << combine << ";\n";
  os.indent(indent) << "for (ens_index p = " << first << "; p < "
                    << (partial ? elements * chunks : elements)
                    << "; p += " << step << ") {\n";
  if (partial) {
    os.indent(indent + 2) << "ens_index c = p % " << chunks << ";\n";
    os.indent(indent + 2) << "ens_index o = p / " << chunks << ";\n";
  }
  writer.declareLoops(writer.parallel, partial ? "o" : "p", indent + 2);
  os.indent(indent + 2) << t << " share = " << identity << ";\n";
  if (combining) {
    os.indent(indent + 2) << "for (ens_index q = " << kernel.thread << "; q < "
                          << chunks << "; q += " << kernel.threads << ")\n";
    os.indent(indent + 4) << "share = combine(share, " << share("p", "q")
                          << ");\n";
  } else {
    std::string from = kernel.thread, to = std::to_string(steps);
    if (partial) {
      std::string start = "c * " + std::to_string(chunkSteps);
      from = start + " + " + kernel.thread;
      to = "(" + start + " + " + std::to_string(chunkSteps) + " < " + to +
           " ? " + start + " + " + std::to_string(chunkSteps) + " : " + to +
           ")";
    }
    if (llvm::Error failure =
            emitShare(kernel, writer, combiner, from, to, kernel.threads,
                      kUnrollSteps, indent + 2))
      return failure;
  }
  if (kernel.warp)
    os.indent(indent + 2) << t << " total = ens_warp_reduce(share, combine);\n";
  else
    os.indent(indent + 2) << t << " total = ens_block_reduce(share, "
                          << identity << ", scratch, combine);\n";
  if (partial) {
    os.indent(indent + 2) << "if (" << kernel.thread << " == 0) "
                          << share("o", "c") << " = total;\n";
  } else {
    // Thread 0 finishes the element.
    os.indent(indent + 2) << "if (" << kernel.thread << " == 0) {\n";
    if (llvm::Error failure =
            emitReductionResult(writer, after, *output, indent + 4))
      return failure;
    os.indent(indent + 2) << "}\n";
  }
  os.indent(indent) << "}\n";
  return llvm::Error::success();
}

llvm::Error
KernelEmitter::emitReductionResult(GenericWriter &writer,
                                   std::optional<GenericWriter> &after,
                                   StringRef output, unsigned indent) {
  linalg::GenericOp generic = writer.generic;
  llvm::raw_string_ostream &os = writer.os;
  Value fill = fills.filledWith.lookup(&generic.getDpsInitsMutable()[0]);
  std::string result =
      "combine(" + (fill ? writer.body.get(fill) : output.str()) + ", total)";
  if (!after) {
    os.indent(indent) << output << " = " << result << ";\n";
    return llvm::Error::success();
  }
  Type type = generic.getDpsInitsMutable()[0].get().getType();
  os.indent(indent) << *getCType(cast<MemRefType>(type).getElementType())
                    << " result = " << result << ";\n";
  return emitEpilogue(writer, *after, writer.dims, "result", indent);
}
