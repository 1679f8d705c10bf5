//===- BlockTileEmitter.cpp - Contractions on shared-memory block tiles ---===//
//
// Writes a contraction of the tiled strategy that its MmaConfig puts on
// block tiles: each block computes block tiles of the contraction's rows
// and columns, one after another; for each, the block stages a few
// reduction steps of both operands in shared memory at a time (zero past
// the op's ranges, so that edge tiles and a reduction that the staged
// steps do not divide need no other code) with asynchronous copies
// (cp.async) in a pipeline of the config's stages, the copies of the next
// stages in flight while the warps multiply one. The block's threads copy
// each operand along whichever of its loops is contiguous in memory, so
// that a warp's copies coalesce whatever the operand's transposition. The
// warps multiply the staged steps on tensor cores (MmaEmitter.cpp) or in
// FFMA (FfmaTileEmitter.cpp). Each thread then applies the fused epilogue
// to, or stores, the accumulators it holds, those inside the op.
//
//===----------------------------------------------------------------------===//

#include "BlockTiles.h"
#include "GenericWriter.h"

#include "CandidateCost.h"

using namespace mlir;
using namespace mlir::ens;
using namespace mlir::ens::cuda;

llvm::Error KernelEmitter::emitBlockTiles(KernelBuilder &kernel,
                                          GenericWriter &writer,
                                          std::optional<GenericWriter> &after,
                                          const PhaseConfig &phase,
                                          StringRef block, StringRef perMember,
                                          unsigned indent) {
  linalg::GenericOp generic = writer.generic;
  BodyEmitter &body = writer.body;
  llvm::raw_string_ostream &os = writer.os;
  const MmaConfig &mma = phase.mma;
  // The operand along the rows is a (rows x steps), the other b (steps x
  // columns).
  // (Plain variables, not structured bindings: the lambdas below capture
  // them, which C++17 compilers such as clang-14 reject for bindings.)
  OpOperand *a, *b;
  std::tie(a, b) = getBlockTileOperands(generic, phase.tile);
  unsigned rows = phase.tile.loops[0], cols = phase.tile.loops[1];
  unsigned reduction = writer.reduction[0];
  int64_t ranges[3] = {writer.ranges[rows], writer.ranges[cols],
                       writer.ranges[reduction]};
  int64_t blockRows, blockCols;
  std::tie(blockRows, blockCols) = getMmaBlockTile(mma, phase.threads);
  MmaStaging staging = getMmaStaging(mma, phase.threads);
  BlockTileThreads threads = mma.enabled()
                                 ? getMmaThreads(mma, staging, blockCols)
                                 : getFfmaThreads(mma, staging, blockCols);
  int64_t steps = mma.stepsStaged;
  kernel.info.usesBarriers = true;
  // Two blocks per SM cap a thread at 128 registers with 256 threads, which
  // ptxas meets without spilling (118 for wide_relu's first layer on
  // tensor cores, sm_90), where it would otherwise take 168 and fit one
  // block.
  kernel.twoBlocksPerSm = true;
  kernel.launch.sharedBytes = static_cast<unsigned>(staging.bytes);
  // Each thread loads its share of both staged operands before it waits.
  kernel.info.bytesInFlightPerThread = getMmaBytesInFlight(phase);

  os.indent(indent) << "// Block tiles ("
                    << (mma.enabled() ? stringifyPrecision(mma.precision) +
                                            " tensor cores"
                                      : std::string("FFMA"))
                    << "): " << blockRows << "x" << blockCols
                    << " points a block, " << mma.warpRows << "x"
                    << mma.warpCols << " a warp, " << steps
                    << " steps at a time through " << mma.stages
                    << " stages of shared memory.\n";
  os.indent(indent) << "ENS_DYNAMIC_SHARED(ens_shared);\n";
  os.indent(indent) << "float *const ens_stages = (float *)ens_shared;\n";
  for (const std::string &line : threads.coordinates)
    os.indent(indent) << line << "\n";
  // Block tile q of the member: the parallel loops with the rows and
  // columns counted in block tiles.
  writer.ranges[rows] = llvm::divideCeil(ranges[0], blockRows);
  writer.ranges[cols] = llvm::divideCeil(ranges[1], blockCols);
  os.indent(indent) << "for (ens_index q = " << block << "; q < "
                    << writer.count(writer.parallel) << "; q += " << perMember
                    << ") {\n";
  indent += 2;
  writer.declareLoops(writer.parallel, "q", indent);
  writer.ranges[rows] = ranges[0];
  writer.ranges[cols] = ranges[1];
  const std::string &rowTile = writer.dims[rows], &colTile = writer.dims[cols];
  os.indent(indent) << "const ens_index ens_r0 = " << rowTile << " * "
                    << blockRows << ", ens_c0 = " << colTile << " * "
                    << blockCols << ";\n";
  for (const auto &row : threads.rows)
    os.indent(indent) << "const ens_index " << row.first << " = ens_r0 + "
                      << row.second << ";\n";
  for (const auto &col : threads.cols)
    os.indent(indent) << "const ens_index " << col.first << " = ens_c0 + "
                      << col.second << ";\n";
  auto pointDims = [&](std::pair<unsigned, unsigned> point) {
    SmallVector<std::string> dims = writer.dims;
    dims[rows] = threads.rows[point.first].first;
    dims[cols] = threads.cols[point.second].first;
    return dims;
  };
  auto inside = [&](std::pair<unsigned, unsigned> point) {
    return threads.rows[point.first].first + " < " + std::to_string(ranges[0]) +
           " && " + threads.cols[point.second].first + " < " +
           std::to_string(ranges[1]);
  };
  // The accumulators start from the filled value, or from the output's
  // value at points inside the op.
  OpOperand &init = generic.getDpsInitsMutable()[0];
  Value fill = fills.filledWith.lookup(&init);
  for (const BlockTileThreads::Accumulators &acc : threads.accumulators) {
    os.indent(indent) << "float " << acc.name << "[" << acc.points.size()
                      << "] = {";
    for (auto [e, point] : llvm::enumerate(acc.points)) {
      os << (e ? ", " : "");
      if (fill) {
        os << body.get(fill);
        continue;
      }
      llvm::Expected<std::string> element =
          writer.elementAt(init, pointDims(point));
      if (!element)
        return element.takeError();
      os << "(" << inside(point) << " ? " << *element << " : 0.0f)";
    }
    os << "};\n";
  }
  // Copies steps [k0, k0 + steps) of `operand`, `extent` rows or columns
  // from the block tile's first, to the stage at `offset` floats plus
  // `bufferOffset`, `byPoints` (each point's steps `ld` floats apart) or
  // by steps (each step's points `ld` floats apart), zero outside the op.
  // Consecutive threads copy consecutive elements of the operand in
  // memory, `words` of them a copy (planBlockTileCopies: 4 only where they are
  // consecutive in the stage too, and aligned). Each thread's share is a
  // fixed count, unrolled, so that its copies are all in flight at once.
  // An operand in global memory is copied asynchronously (src-size 0
  // outside the op, from an element inside it); a thread waits
  // for its copies before the barrier after which the block reads them.
  auto stage = [&](OpOperand *operand, StringRef k0, StringRef offset,
                   int64_t bufferOffset, bool alongRows, int64_t extent,
                   int64_t ld, bool byPoints, int64_t words) -> llvm::Error {
    unsigned loop = alongRows ? rows : cols;
    bool alongSteps = isStagedAlongSteps(generic, *operand, loop);
    int64_t inner = alongSteps ? steps : extent,
            copies = extent * steps / words;
    bool async = views.getGlobalBuffer(operand->get()).has_value();
    int64_t innerRange = alongSteps ? ranges[2] : ranges[alongRows ? 0 : 1];
    // What planBlockTileCopies proved of copies of several words: each
    // whole inside the op or wholly outside it, and aligned in its stage.
    if (words > 1 &&
        (!async || inner % words || innerRange % words || ld % words ||
         staging.stageFloats % words || staging.offsetB % words))
      return error("the CUDA backend planned " + std::to_string(words * 4) +
                   "-byte copies of a staged operand of " +
                   getSourceOps(generic.getOperation()) +
                   " that do not fit its stage");
    os.indent(indent + 2) << "#pragma unroll\n";
    os.indent(indent + 2) << "for (int ens_u = 0; ens_u < "
                          << llvm::divideCeil(copies, phase.threads)
                          << "; ++ens_u) {\n";
    os.indent(indent + 4) << "const ens_index i = threadIdx.x + ens_u * "
                          << phase.threads << ";\n";
    std::string outer = "i / " + std::to_string(inner / words),
                innerIndex = "i % " + std::to_string(inner / words);
    if (words > 1)
      innerIndex = "(" + innerIndex + ") * " + std::to_string(words);
    os.indent(indent + 4) << "const ens_index ens_ip = "
                          << (alongSteps ? outer : innerIndex)
                          << ", ens_is = " << (alongSteps ? innerIndex : outer)
                          << ";\n";
    int64_t pointRange = ranges[alongRows ? 0 : 1];
    os.indent(indent + 4) << "const ens_index ens_p = "
                          << (alongRows ? "ens_r0" : "ens_c0")
                          << " + ens_ip, ens_s = " << k0 << " + ens_is;\n";
    std::string inside = "ens_p < " + std::to_string(pointRange) +
                         " && ens_s < " + std::to_string(ranges[2]);
    std::string to =
        "ens_stages[" + offset.str() + " + " + std::to_string(bufferOffset) +
        " + " +
        (byPoints ? "ens_ip * " + std::to_string(ld) + " + ens_is"
                  : "ens_is * " + std::to_string(ld) + " + ens_ip") +
        "]";
    SmallVector<std::string> dims = writer.dims;
    dims[loop] = "ens_p";
    dims[reduction] = "ens_s";
    // A copy's first word is at a multiple of `words` along the inner loop.
    StringRef innerName = alongSteps ? "ens_s" : "ens_p";
    if (async) {
      // The element copied from: the one at (p, s), or inside the op (a
      // multiple of `words` along the inner loop, aligned as the others).
      auto clamp = [&](StringRef name, int64_t range) {
        int64_t last = range - 1;
        if (name == innerName)
          last -= last % words;
        return "(" + name.str() + " < " + std::to_string(range) + " ? " +
               name.str() + " : " + std::to_string(last) + ")";
      };
      dims[loop] = clamp("ens_p", pointRange);
      dims[reduction] = clamp("ens_s", ranges[2]);
    }
    llvm::Expected<std::string> element = writer.elementAt(*operand, dims);
    if (!element)
      return element.takeError();
    os.indent(indent + 4);
    if (copies % phase.threads)
      os << "if (i < " << copies << ") ";
    if (async) {
      os << "ens_cp_async<" << words * 4 << ">(&" << to << ", &" << *element
         << ", " << inside << " ? " << words * 4 << " : 0);\n";
    } else {
      os << to << " = " << inside << " ? " << *element << " : 0.0f;\n";
    }
    os.indent(indent + 2) << "}\n";
    return llvm::Error::success();
  };
  // Stages steps [k0, k0 + steps) of both operands in stage `index`.
  auto stageBoth = [&](StringRef k0, StringRef index) -> llvm::Error {
    std::string offset =
        "(" + index.str() + ") * " + std::to_string(staging.stageFloats);
    if (llvm::Error failure = stage(
            a, k0, offset, 0, /*alongRows=*/true, blockRows, staging.strideA,
            /*byPoints=*/staging.aByRows, mma.copyWords[0]))
      return failure;
    return stage(b, k0, offset, staging.offsetB, /*alongRows=*/false, blockCols,
                 staging.strideB, /*byPoints=*/staging.bByCols,
                 mma.copyWords[1]);
  };
  // The pipeline: stage t % stages holds steps [t * steps, (t + 1) * steps)
  // (tile t). Before its products, a thread waits until at most the
  // groups of the tiles after t are pending, and the barrier then makes
  // every thread's copies of tile t visible, and frees the stage of tile
  // t - 1, which tile t + stages - 1 then takes.
  int64_t stages = mma.stages, tiles = llvm::divideCeil(ranges[2], steps);
  std::string tileSteps = std::to_string(steps);
  if (stages > 1) {
    // Unrolled, so that it is no loop of its own in the SASS.
    os.indent(indent) << "#pragma unroll\n";
    os.indent(indent) << "for (int ens_t0 = 0; ens_t0 < " << stages - 1
                      << "; ++ens_t0) {\n";
    os.indent(indent + 2) << "if (ens_t0 < " << tiles << ") {\n";
    indent += 2;
    if (llvm::Error failure = stageBoth("ens_t0 * " + tileSteps, "ens_t0"))
      return failure;
    indent -= 2;
    os.indent(indent + 2) << "}\n";
    os.indent(indent + 2) << "ens_cp_async_commit();\n";
    os.indent(indent) << "}\n";
  }
  os.indent(indent) << "for (ens_index ens_tile = 0; ens_tile < " << tiles
                    << "; ++ens_tile) {\n";
  if (stages == 1) {
    // One stage: the products of the tile before are done with it.
    os.indent(indent + 2) << "__syncthreads();\n";
    if (llvm::Error failure = stageBoth("ens_tile * " + tileSteps, "0"))
      return failure;
    os.indent(indent + 2) << "ens_cp_async_commit();\n";
    os.indent(indent + 2) << "ens_cp_async_wait<0>();\n";
    os.indent(indent + 2) << "__syncthreads();\n";
  } else {
    os.indent(indent + 2) << "ens_cp_async_wait<" << stages - 2 << ">();\n";
    os.indent(indent + 2) << "__syncthreads();\n";
    os.indent(indent + 2) << "const ens_index ens_next = ens_tile + "
                          << stages - 1 << ";\n";
    os.indent(indent + 2) << "if (ens_next < " << tiles << ") {\n";
    indent += 2;
    if (llvm::Error failure = stageBoth("ens_next * " + tileSteps,
                                        "ens_next % " + std::to_string(stages)))
      return failure;
    indent -= 2;
    os.indent(indent + 2) << "}\n";
    os.indent(indent + 2) << "ens_cp_async_commit();\n";
  }
  os.indent(indent + 2) << "const float *const ens_a = ens_stages + ens_tile % "
                        << stages << " * " << staging.stageFloats << ";\n";
  os.indent(indent + 2) << "const float *const ens_b = ens_a + "
                        << staging.offsetB << ";\n";
  threads.products(os, indent + 2);
  os.indent(indent) << "}\n";
  // The next block tile's first copies go to stages that warps may still
  // read.
  if (stages > 1)
    os.indent(indent) << "__syncthreads();\n";
  // Each accumulator inside the op: its epilogue's result, or the output.
  bool columnsInside = hasColumnsInside(mma, ranges[1], blockCols);
  if (!after) {
    for (const BlockTileThreads::Accumulators &acc : threads.accumulators)
      for (auto [e, point] : llvm::enumerate(acc.points)) {
        llvm::Expected<std::string> element =
            writer.elementAt(init, pointDims(point));
        if (!element)
          return element.takeError();
        os.indent(indent) << "if (" << inside(point) << ") " << *element
                          << " = " << acc.name << "[" << e << "];\n";
      }
    os.indent(indent - 2) << "}\n";
    return llvm::Error::success();
  }
  // The epilogue in batches (getEpilogueBatches): a batch's loads, at its
  // points clamped inside the op, all go before any of its ops and stores,
  // so that they make one round trip; a point outside the op stores
  // nothing. The epilogue is elementwise, so a point's stores touch no
  // element another point loads. A row whose columns are all inside the op
  // loads (and stores) a thread's consecutive columns as one 128-bit
  // access, so that a warp's lanes, 16 bytes apart, touch each sector once.
  // (A whole row's columns are inside: clamping them would hide that they
  // are consecutive.)
  auto clamped = [&](std::pair<unsigned, unsigned> point, bool wholeRow) {
    SmallVector<std::string> dims = pointDims(point);
    auto clamp = [&](unsigned loop, const std::string &name, int64_t range) {
      dims[loop] = "(" + name + " < " + std::to_string(range) + " ? " + name +
                   " : " + std::to_string(range - 1) + ")";
    };
    clamp(rows, threads.rows[point.first].first, ranges[0]);
    if (!wholeRow)
      clamp(cols, threads.cols[point.second].first, ranges[1]);
    return dims;
  };
  int64_t words = countEpilogueWords(generic, after->generic);
  for (ArrayRef<EpilogueGroup> batch :
       getEpilogueBatches(threads, columnsInside, words)) {
    os.indent(indent) << "{\n";
    SmallVector<SmallVector<DenseMap<Value, std::string>>> loads;
    for (const EpilogueGroup &group : batch) {
      loads.emplace_back();
      for (unsigned e : group.elements) {
        llvm::Expected<DenseMap<Value, std::string>> loaded = loadEpilogue(
            writer, *after, clamped(group.acc->points[e], group.wholeRow),
            "_" + group.acc->name + "_" + std::to_string(e), indent + 2);
        if (!loaded)
          return loaded.takeError();
        loads.back().push_back(std::move(*loaded));
      }
    }
    // Each point in a scope of its own, where the epilogue declares its
    // loop variables; its loaded values are unbound after it, so that the
    // next point's loads are its own.
    for (auto [group, groupLoads] : llvm::zip(batch, loads)) {
      auto first = group.acc->points[group.elements.front()];
      std::string guard = group.wholeRow ? threads.rows[first.first].first +
                                               " < " + std::to_string(ranges[0])
                                         : inside(first);
      os.indent(indent + 2) << "if (" << guard << ") {\n";
      for (auto [e, pointLoads] : llvm::zip(group.elements, groupLoads)) {
        after->forgetInputs();
        os.indent(indent + 4) << "{\n";
        if (llvm::Error failure =
                emitEpilogue(writer, *after, pointDims(group.acc->points[e]),
                             group.acc->name + "[" + std::to_string(e) + "]",
                             indent + 6, &pointLoads))
          return failure;
        os.indent(indent + 4) << "}\n";
        for (auto &[arg, name] : pointLoads)
          after->body.unbind(arg);
      }
      os.indent(indent + 2) << "}\n";
    }
    os.indent(indent) << "}\n";
  }
  os.indent(indent - 2) << "}\n";
  return llvm::Error::success();
}

SmallVector<SmallVector<EpilogueGroup>>
cuda::getEpilogueBatches(const BlockTileThreads &threads, bool columnsInside,
                         int64_t words) {
  SmallVector<EpilogueGroup> groups;
  for (const BlockTileThreads::Accumulators &acc : threads.accumulators) {
    bool wholeRow = columnsInside && acc.points.size() > 1 &&
                    llvm::all_of(acc.points, [&](auto point) {
                      return point.first == acc.points.front().first;
                    });
    if (wholeRow) {
      groups.push_back(
          {&acc, llvm::to_vector(llvm::seq<unsigned>(0, acc.points.size())),
           true});
      continue;
    }
    for (unsigned e : llvm::seq<unsigned>(0, acc.points.size()))
      groups.push_back({&acc, {e}, false});
  }
  SmallVector<SmallVector<EpilogueGroup>> batches;
  int64_t loaded = 0;
  for (EpilogueGroup &group : groups) {
    int64_t groupWords = words * int64_t(group.elements.size());
    if (batches.empty() || loaded + groupWords > kEpilogueBatchWords) {
      batches.emplace_back();
      loaded = 0;
    }
    batches.back().push_back(std::move(group));
    loaded += groupWords;
  }
  return batches;
}

int64_t cuda::countEpilogueWords(linalg::GenericOp contraction,
                                 linalg::GenericOp epilogue) {
  OpOperand *read = getResultRead(contraction, epilogue);
  int64_t words = 0;
  for (OpOperand &operand : epilogue->getOpOperands())
    words += &operand != read &&
             !epilogue.getMatchingBlockArgument(&operand).use_empty() &&
             !epilogue.getMatchingIndexingMap(&operand).isConstant();
  return words;
}
