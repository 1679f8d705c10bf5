//===- TileEmitter.cpp - Register tiles of a contraction ------------------===//
//
// Writes a contraction's points as register tiles: each thread computes the
// points of a tile of two parallel loops together, loading each operand
// element of a reduction step once for every point of the tile that reads
// it, and applies the fused epilogue to each point. With a split
// reduction, a thread computes one chunk of its tile's steps into a buffer
// of partial results, and a second pass adds each point's chunks: a second
// kernel, or within a member-per-block kernel's block, the threads of the
// first chunk behind a barrier.
//
//===----------------------------------------------------------------------===//

#include "GenericWriter.h"

#include "CandidateCost.h"

#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace mlir::ens;
using namespace mlir::ens::cuda;

namespace {
/// A split within a block (emitTiles) into `chunks`, whose partial results
/// are in shared memory at `partials`: each of `tiles` tiles has `points`
/// points, `cols` a row, of which chunk c's thread finishes the c-th share
/// of `share` points; the accumulators are of C type `type`.
struct BlockPartials {
  std::string partials;
  int64_t chunks, tiles, points, cols, share;
  std::string type;
};
} // namespace

/// The accumulator of point k of a thread's tile.
static std::string getAccumulator(const BlockPartials &partials, int64_t k) {
  return "acc0_" + std::to_string(k / partials.cols) + "_" +
         std::to_string(k % partials.cols);
}

/// The partial result of point k of tile `tile` that chunk `chunk` stores
/// for chunk `owner`, which finishes the point: the chunks but the owner
/// numbered from 0, then a chunk's points, then the tiles, so that a warp's
/// lanes, on neighbouring tiles, store and load neighbouring words.
static std::string getPartial(const BlockPartials &partials, StringRef chunk,
                              StringRef owner, int64_t k, StringRef tile) {
  std::string slot = "(" + chunk.str() + " < " + owner.str() + " ? " +
                     chunk.str() + " : " + chunk.str() + " - 1)";
  return partials.partials + "[(" + slot + " * " +
         std::to_string(partials.points) + " + " + std::to_string(k) + ") * " +
         std::to_string(partials.tiles) + " + " + tile.str() + "]";
}

/// Stores, from each chunk's thread, the partial results of the points
/// that other chunks finish; closes the steps, writes the barrier and opens
/// the finish of the threads that computed a chunk.
static void emitBlockPartials(llvm::raw_ostream &os, StringRef barrier,
                              const BlockPartials &partials, unsigned indent) {
  for (int64_t k = 0; k < partials.points; ++k) {
    std::string owner = std::to_string(k / partials.share);
    os.indent(indent + 2) << "if (c != " << owner << ") "
                          << getPartial(partials, "c", owner, k, "q") << " = "
                          << getAccumulator(partials, k) << ";\n";
  }
  os.indent(indent) << "}\n";
  os.indent(indent) << barrier << ";\n";
  os.indent(indent) << "if (p < " << partials.tiles * partials.chunks
                    << ") {\n";
}

/// Adds up the points that chunk `chunk` finishes: the start value (the
/// fill or the output, from `starts`; none where empty), then every
/// chunk's sum in order, its own from its registers, as a split's second
/// kernel adds them (emitSplitCombine).
static void emitBlockCombine(llvm::raw_ostream &os, linalg::GenericOp generic,
                             const BlockPartials &partials, int64_t chunk,
                             ArrayRef<std::string> starts, unsigned indent) {
  auto [combine, identity] = getCombination(getReductionCombiner(generic));
  os.indent(indent) << "auto combine = " << combine << ";\n";
  int64_t from = chunk * partials.share;
  int64_t to = std::min(partials.points, from + partials.share);
  std::string owner = std::to_string(chunk);
  for (int64_t k = from; k < to; ++k) {
    std::string acc = getAccumulator(partials, k);
    std::string own = acc + "_own";
    os.indent(indent) << partials.type << " " << own << " = " << acc << ";\n";
    bool started = !starts[k].empty();
    if (started)
      os.indent(indent) << acc << " = " << starts[k] << ";\n";
    for (int64_t c = 0; c < partials.chunks; ++c) {
      std::string term =
          c == chunk ? own
                     : getPartial(partials, std::to_string(c), owner, k, "q");
      os.indent(indent) << acc << " = ";
      if (started || c > 0)
        os << "combine(" << acc << ", " << term << ");\n";
      else
        os << term << ";\n";
    }
  }
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
  // tiles, read and write neighbouring elements at each s. Along a loop
  // whose points are consecutive, it holds t * S + s instead, which ptxas
  // reads and writes with 64- or 128-bit accesses where they are aligned.
  // Points past R (when S does not divide R) compute point R - 1 again and
  // store nothing.
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
  // Within a block, each thread computes at most one chunk of a tile
  // (planBlockSplit) and keeps it in registers across the barrier.
  bool inBlock = split && split->inBlock;
  if (inBlock) {
    os.indent(indent) << "{\n";
    os.indent(indent + 2) << "ens_index p = " << first << ";\n";
  } else {
    os.indent(indent) << "for (ens_index p = " << first << "; p < "
                      << numTiles * chunks << "; p += " << step << ") {\n";
  }
  indent += 2;
  if (split) {
    os.indent(indent) << "ens_index c = p / " << numTiles << ";\n";
    os.indent(indent) << "ens_index q = p % " << numTiles << ";\n";
  }
  writer.declareLoops(writer.parallel, split ? "q" : "p", indent);
  // The loop variables of each point, and whether it is inside the op.
  SmallVector<std::string> points[2], inside[2];
  for (int k = 0; k < 2; ++k) {
    writer.ranges[loops[k]] = ranges[k];
    const std::string &t = writer.dims[loops[k]];
    for (int64_t s = 0; s < sizes[k]; ++s) {
      std::string name = t + "_" + std::to_string(s);
      bool consecutive = tile.isConsecutive(k);
      std::string at = consecutive ? t + " * " + std::to_string(sizes[k]) +
                                         " + " + std::to_string(s)
                                   : t + " + " + std::to_string(s * tiles[k]);
      // Whether every tile's point s is inside the op.
      bool exact = consecutive ? (tiles[k] - 1) * sizes[k] + s < ranges[k]
                               : (s + 1) * tiles[k] <= ranges[k];
      os.indent(indent) << "ens_index " << name << " = ";
      if (exact)
        os << at << ";\n";
      else
        os << "(" << at << " < " << ranges[k] << " ? " << at << " : "
           << ranges[k] - 1 << ");\n";
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
  // a chunk of a split reduction starts from the combiner's identity (and
  // within a block, chunk 0 adds it to the filled value or output's when
  // it adds the chunks).
  auto inits = generic.getDpsInitsMutable();
  // The combiner's C++ lambda and identity.
  std::pair<std::string, std::string> combination;
  if (split)
    combination = getCombination(getReductionCombiner(generic));
  std::string partialType =
      *getCType(generic.getMatchingBlockArgument(&inits[0]).getType());
  SmallVector<std::string> starts;
  for (int64_t i = 0; i < sizes[0]; ++i)
    for (int64_t j = 0; j < sizes[1]; ++j)
      for (auto [o, init] : llvm::enumerate(inits)) {
        BlockArgument arg = generic.getMatchingBlockArgument(&init);
        std::string start;
        if (Value fill = fills.filledWith.lookup(&init)) {
          start = body.get(fill);
        } else if (!arg.use_empty()) {
          llvm::Expected<std::string> element =
              writer.elementAt(init, dimsAt(i, j));
          if (!element)
            return element.takeError();
          start = *element;
        }
        starts.push_back(start);
        os.indent(indent) << *getCType(arg.getType()) << " acc" << o
                          << suffix(i, j);
        if (split)
          start = combination.second;
        if (!start.empty())
          os << " = " << start;
        os << ";\n";
      }
  // A single reduction loop of at least tile.unroll steps (per chunk)
  // runs tile.unroll steps at a time, all their loads before any of their
  // FMAs, so that a thread has that many steps' loads in flight; the steps
  // left over run one at a time. Each accumulator still adds its steps in
  // order, so the results are those of one step at a time.
  int64_t steps = 1;
  for (unsigned d : writer.reduction)
    steps *= writer.ranges[d];
  if (split)
    steps = getChunkSteps(steps, chunks, tile.unroll, inBlock);
  int64_t unrollSteps = tile.unroll;
  bool unroll = writer.reduction.size() == 1 && steps >= unrollSteps &&
                generic.getBody()->getOps<linalg::IndexOp>().empty();
  // Within a block, threads past the last chunk of the last tile skip the
  // steps but reach the barrier.
  unsigned stepsIndent = indent;
  if (inBlock) {
    os.indent(indent) << "if (p < " << numTiles * chunks << ") {\n";
    stepsIndent += 2;
  }
  unsigned bodyIndent = stepsIndent;
  for (unsigned d : writer.reduction) {
    const std::string &dim = writer.dims[d];
    std::string from = "0", to = std::to_string(writer.ranges[d]);
    if (split) {
      // The one reduction loop, chunk c of it.
      std::string size = std::to_string(
          getChunkSteps(writer.ranges[d], chunks, tile.unroll, inBlock));
      from = "c * " + size;
      // Within a block, the chunks are of equal size (planBlockSplit).
      to = inBlock ? from + " + " + size
                   : "(" + from + " + " + size + " < " + to + " ? " + from +
                         " + " + size + " : " + to + ")";
    }
    if (!unroll) {
      os.indent(bodyIndent) << "for (ens_index " << dim << " = " << from << "; "
                            << dim << " < " << to << "; ++" << dim << ") {\n";
      bodyIndent += 2;
      continue;
    }
    os.indent(bodyIndent) << "ens_index " << dim << " = " << from << ";\n";
    os.indent(bodyIndent) << "const ens_index " << dim << "_end = " << to
                          << ";\n";
    os.indent(bodyIndent) << "for (; " << dim << " + " << unrollSteps - 1
                          << " < " << dim << "_end; " << dim
                          << " += " << unrollSteps << ") {\n";
  }
  // Each input's elements of a step, once per row, column or point of the
  // tile that reads a different one, named with `step` ("_u1").
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
    loaded.push_back(
        {input, map.isFunctionOfDim(loops[0]), map.isFunctionOfDim(loops[1])});
  }
  auto inputName = [&](const Loaded &load, int64_t i, int64_t j,
                       StringRef step) {
    return "in" + std::to_string(load.input->getOperandNumber()) +
           suffix(load.rows ? i : 0, load.cols ? j : 0) + step.str();
  };
  auto emitLoads = [&](StringRef reductionDim, StringRef step,
                       unsigned at) -> llvm::Error {
    for (const Loaded &load : loaded)
      for (int64_t i = 0; i < (load.rows ? sizes[0] : 1); ++i)
        for (int64_t j = 0; j < (load.cols ? sizes[1] : 1); ++j) {
          SmallVector<std::string> dims = dimsAt(i, j);
          if (!writer.reduction.empty())
            dims[writer.reduction[0]] = reductionDim.str();
          llvm::Expected<std::string> element =
              writer.elementAt(*load.input, dims);
          if (!element)
            return element.takeError();
          os.indent(at)
              << *getCType(
                     generic.getMatchingBlockArgument(load.input).getType())
              << " " << inputName(load, i, j, step) << " = " << *element
              << ";\n";
        }
    return llvm::Error::success();
  };
  auto yield = cast<linalg::YieldOp>(generic.getBody()->getTerminator());
  auto emitUpdates = [&](StringRef step, unsigned at) -> llvm::Error {
    for (int64_t i = 0; i < sizes[0]; ++i)
      for (int64_t j = 0; j < sizes[1]; ++j) {
        for (const Loaded &load : loaded)
          body.bind(generic.getMatchingBlockArgument(load.input),
                    inputName(load, i, j, step));
        for (auto [o, init] : llvm::enumerate(inits))
          body.bind(generic.getMatchingBlockArgument(&init),
                    "acc" + std::to_string(o) + suffix(i, j));
        if (llvm::Error failure = writer.emitOps(at))
          return failure;
        for (auto [o, value] : llvm::enumerate(yield.getValues()))
          os.indent(at) << "acc" << o << suffix(i, j) << " = "
                        << body.get(value) << ";\n";
      }
    return llvm::Error::success();
  };
  // The loads of a step are independent of each other and of the FMAs that
  // use them, so a thread has all of them in flight at once.
  kernel.info.bytesInFlightPerThread =
      getTileBytesInFlight(generic, tile, chunks);
  if (unroll) {
    const std::string &dim = writer.dims[writer.reduction[0]];
    unsigned at = bodyIndent + 2;
    for (int64_t u = 0; u < unrollSteps; ++u)
      if (llvm::Error failure =
              emitLoads(u ? "(" + dim + " + " + std::to_string(u) + ")" : dim,
                        "_u" + std::to_string(u), at))
        return failure;
    for (int64_t u = 0; u < unrollSteps; ++u)
      if (llvm::Error failure = emitUpdates("_u" + std::to_string(u), at))
        return failure;
    os.indent(bodyIndent) << "}\n";
    // The steps left over, fewer than tile.unroll: with a chunk's bound,
    // which ptxas does not know, kept a loop of one step (kFullUnrollTrips).
    if (split && !inBlock)
      os.indent(bodyIndent) << "#pragma unroll 1\n";
    os.indent(bodyIndent) << "for (; " << dim << " < " << dim << "_end; ++"
                          << dim << ") {\n";
    bodyIndent += 2;
  }
  if (llvm::Error failure = emitLoads(
          writer.reduction.empty() ? "" : writer.dims[writer.reduction[0]], "",
          bodyIndent))
    return failure;
  if (llvm::Error failure = emitUpdates("", bodyIndent))
    return failure;
  for (; bodyIndent > stepsIndent; bodyIndent -= 2)
    os.indent(bodyIndent - 2) << "}\n";
  // The epilogue's loads of points `from` to `to` (in bounds: the points'
  // loop variables are clamped), then each point's ops and stores: no
  // point's loads wait behind the stores of the points before it, and the
  // thread has them all in flight at once. The epilogue is elementwise, so
  // a point's stores touch no element another point loads. A split's
  // chunk stores its partial results instead, unless `adding`: the thread
  // of a tile's last chunk first loads every chunk's partial results of
  // the points (through L2, where the other chunks' threads stored them)
  // with the epilogue's operands, then adds them in chunk order.
  bool finishLast = split && !split->counters.empty();
  auto finish = [&](int64_t from, int64_t to, unsigned at,
                    bool adding = false) -> llvm::Error {
    SmallVector<DenseMap<Value, std::string>> epilogueLoads;
    // The inputs the last point of an earlier share bound are not this
    // share's.
    if (after)
      after->forgetInputs();
    if (adding)
      for (int64_t k = from; k < to; ++k) {
        int64_t i = k / sizes[1], j = k % sizes[1];
        std::string flat = writer.flatIndex(writer.parallel, dimsAt(i, j));
        for (int64_t c = 0; c < chunks; ++c)
          os.indent(at) << "const " << partialType << " part" << suffix(i, j)
                        << "_" << c << " = __ldcg(&" << split->partials
                        << "[(m * " << chunks << " + " << c << ") * "
                        << writer.count(writer.parallel) << " + " << flat
                        << "]);\n";
      }
    if (after && (!split || inBlock || adding))
      for (int64_t k = from; k < to; ++k) {
        int64_t i = k / sizes[1], j = k % sizes[1];
        llvm::Expected<DenseMap<Value, std::string>> loads =
            loadEpilogue(writer, *after, dimsAt(i, j), suffix(i, j), at);
        if (!loads)
          return loads.takeError();
        epilogueLoads.push_back(std::move(*loads));
      }
    // The chunks in order after the start value, as the second kernel
    // adds them (emitSplitCombine).
    if (adding)
      for (int64_t k = from; k < to; ++k) {
        int64_t i = k / sizes[1], j = k % sizes[1];
        std::string acc = "acc0" + suffix(i, j), part = "part" + suffix(i, j);
        os.indent(at) << acc << " = ";
        if (starts[k].empty())
          os << part << "_0;\n";
        else
          os << "combine(" << starts[k] << ", " << part << "_0);\n";
        for (int64_t c = 1; c < chunks; ++c)
          os.indent(at) << acc << " = combine(" << acc << ", " << part << "_"
                        << c << ");\n";
      }
    // Each point inside the op stores its outputs, or its epilogue's.
    for (int64_t k = from; k < to; ++k) {
      int64_t i = k / sizes[1], j = k % sizes[1];
      SmallVector<std::string> guards;
      for (const std::string &guard : {inside[0][i], inside[1][j]})
        if (!guard.empty())
          guards.push_back(guard);
      os.indent(at);
      if (!guards.empty())
        os << "if (" << llvm::join(guards, " && ") << ") ";
      os << "{\n";
      SmallVector<std::string> dims = dimsAt(i, j);
      if (split && !inBlock && !adding) {
        os.indent(at + 2) << split->partials << "[(m * " << chunks << " + c) * "
                          << writer.count(writer.parallel) << " + "
                          << writer.flatIndex(writer.parallel, dims)
                          << "] = acc0" << suffix(i, j) << ";\n";
      } else if (after) {
        after->forgetInputs();
        if (llvm::Error failure =
                emitEpilogue(writer, *after, dims, "acc0" + suffix(i, j),
                             at + 2, &epilogueLoads[k - from]))
          return failure;
      } else {
        for (auto [o, init] : llvm::enumerate(inits)) {
          llvm::Expected<std::string> element = writer.elementAt(init, dims);
          if (!element)
            return element.takeError();
          os.indent(at + 2)
              << *element << " = acc" << o << suffix(i, j) << ";\n";
        }
      }
      os.indent(at) << "}\n";
    }
    return llvm::Error::success();
  };
  int64_t tilePoints = sizes[0] * sizes[1];
  if (!inBlock) {
    if (llvm::Error failure = finish(0, tilePoints, indent))
      return failure;
    // The thread whose increment of the tile's counter is the last of the
    // chunks' adds them up. Each thread's fence orders its partial
    // results before its increment, and the last one's its increment
    // before its loads. The increment wraps at the chunks (atomicInc), so
    // the last one leaves the counter zero for the next launch.
    if (finishLast) {
      std::string last = std::to_string(chunks - 1) + "u";
      os.indent(indent) << "__threadfence();\n";
      os.indent(indent) << "if (atomicInc(&" << split->counters << "[m * "
                        << numTiles << " + q], " << last << ") == " << last
                        << ") {\n";
      os.indent(indent + 2) << "__threadfence();\n";
      os.indent(indent + 2) << "auto combine = " << combination.first << ";\n";
      int64_t batch = getFinishBatchPoints(generic, chunks);
      for (int64_t from = 0; from < tilePoints; from += batch)
        if (llvm::Error failure =
                finish(from, std::min(tilePoints, from + batch), indent + 2,
                       /*adding=*/true))
          return failure;
      os.indent(indent) << "}\n";
    }
  } else {
    // Within a block, the thread of chunk c finishes the c-th share of its
    // tile's points: the threads of every chunk share the epilogue.
    int64_t share = llvm::divideCeil(tilePoints, chunks);
    BlockPartials partials{
        split->partials,
        chunks,
        numTiles,
        tilePoints,
        sizes[1],
        share,
        *getCType(generic.getMatchingBlockArgument(&inits[0]).getType())};
    emitBlockPartials(os, kernel.getBarrier(), partials, indent);
    for (int64_t c = 0; c < chunks; ++c) {
      int64_t from = c * partials.share;
      int64_t to = std::min(tilePoints, from + partials.share);
      if (from >= to)
        continue;
      os.indent(indent + 2) << "if (c == " << c << ") {\n";
      emitBlockCombine(os, generic, partials, c, starts, indent + 4);
      if (llvm::Error failure = finish(from, to, indent + 4))
        return failure;
      os.indent(indent + 2) << "}\n";
    }
    os.indent(indent) << "}\n";
  }
  os.indent(indent - 2) << "}\n";
  return llvm::Error::success();
}

llvm::Error KernelEmitter::emitSplitCombine(KernelBuilder &kernel,
                                            GenericWriter &writer,
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
  kernel.info.bytesInFlightPerThread =
      getSplitCombineBytesInFlight(combiner, split.chunks);
  // Each point adds its chunks' partial results, in order, to the value
  // filled in or held by the output, and applies the epilogue.
  os.indent(indent) << "auto combine = " << combine << ";\n";
  os.indent(indent) << "for (ens_index p = " << first << "; p < " << points
                    << "; p += " << step << ") {\n";
  writer.declareLoops(writer.parallel, "p", indent + 2);
  llvm::Expected<std::string> output = writer.element(init);
  if (!output)
    return output.takeError();
  Value fill = fills.filledWith.lookup(&init);
  std::string t = *getCType(combiner->getResult(0).getType());
  os.indent(indent + 2) << t << " acc0 = " << (fill ? body.get(fill) : *output)
                        << ";\n";
  // kUnrollSteps chunks at a time, all their loads before their additions,
  // so that a thread has that many loads in flight; the chunks left over
  // one at a time. The additions stay in chunk order.
  auto partial = [&](StringRef chunk) {
    return split.partials + "[(m * " + std::to_string(split.chunks) + " + " +
           chunk.str() + ") * " + std::to_string(points) + " + p]";
  };
  os.indent(indent + 2) << "ens_index c = 0;\n";
  if (split.chunks >= kUnrollSteps) {
    os.indent(indent + 2) << "for (; c + " << kUnrollSteps - 1 << " < "
                          << split.chunks << "; c += " << kUnrollSteps
                          << ") {\n";
    for (int64_t u = 0; u < kUnrollSteps; ++u)
      os.indent(indent + 4)
          << t << " part" << u << " = "
          << partial(u ? "(c + " + std::to_string(u) + ")" : "c") << ";\n";
    for (int64_t u = 0; u < kUnrollSteps; ++u)
      os.indent(indent + 4) << "acc0 = combine(acc0, part" << u << ");\n";
    os.indent(indent + 2) << "}\n";
  }
  os.indent(indent + 2) << "for (; c < " << split.chunks << "; ++c)\n";
  os.indent(indent + 4) << "acc0 = combine(acc0, " << partial("c") << ");\n";
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
