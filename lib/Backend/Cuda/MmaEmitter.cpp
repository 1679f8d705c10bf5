//===- MmaEmitter.cpp - Contractions on TF32 tensor cores -----------------===//
//
// Writes a contraction of the tiled strategy that its MmaConfig puts on
// tensor cores: each block computes block tiles of the contraction's rows
// and columns, one after another; for each, the block stages a few
// reduction steps of both operands in shared memory at a time (zero past
// the op's ranges, so that edge tiles and a reduction that 8 does not
// divide need no other code) with asynchronous copies (cp.async) in a
// pipeline of the config's stages, the copies of the next stages in flight
// while the warps multiply one, and each warp multiplies its warp tile's
// fragments with mma.sync m16n8k8 (the prelude's ens_mma_tf32_m16n8k8,
// which the emulator implements warp-wide). Each thread then applies the
// fused epilogue to, or stores, the accumulators it holds, those inside
// the op.
//
//===----------------------------------------------------------------------===//

#include "GenericWriter.h"

#include "CandidateCost.h"

using namespace mlir;
using namespace mlir::ens;
using namespace mlir::ens::cuda;

/// mma.sync m16n8k8's tile: m x n accumulators, k steps.
static constexpr int64_t kMmaM = 16, kMmaN = 8, kMmaK = 8;

llvm::Error KernelEmitter::emitMmaTiles(KernelBuilder &kernel,
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
  std::tie(a, b) = *getMultiplyAddOperands(generic);
  unsigned rows = phase.tile.loops[0], cols = phase.tile.loops[1];
  if (!generic.getMatchingIndexingMap(a).isFunctionOfDim(rows))
    std::swap(a, b);
  unsigned reduction = writer.reduction[0];
  int64_t ranges[3] = {writer.ranges[rows], writer.ranges[cols],
                       writer.ranges[reduction]};
  int64_t blockRows, blockCols;
  std::tie(blockRows, blockCols) = getMmaBlockTile(mma, phase.threads);
  MmaStaging staging = getMmaStaging(mma, phase.threads);
  int64_t steps = mma.stepsStaged, ldA = staging.strideA, ldB = staging.strideB;
  int64_t fragRows = mma.warpRows / kMmaM, fragCols = mma.warpCols / kMmaN;
  bool split = mma.precision == Precision::Tf32x3;
  kernel.info.usesBarriers = true;
  // Two blocks per SM cap a thread at 128 registers with 256 threads, which
  // ptxas meets without spilling (118 for wide_relu's first layer, sm_90),
  // where it would otherwise take 168 and fit one block.
  kernel.twoBlocksPerSm = true;
  kernel.launch.sharedBytes = static_cast<unsigned>(staging.bytes);
  // Each thread loads its share of both staged operands before it waits.
  kernel.info.bytesInFlightPerThread = getMmaBytesInFlight(phase);

  os.indent(indent) << "// Tensor cores (" << stringifyPrecision(mma.precision)
                    << "): " << blockRows << "x" << blockCols
                    << " points a block, " << mma.warpRows << "x"
                    << mma.warpCols << " a warp, " << steps
                    << " steps at a time through " << mma.stages
                    << " stages of shared memory.\n";
  os.indent(indent) << "ENS_DYNAMIC_SHARED(ens_shared);\n";
  os.indent(indent) << "float *const ens_stages = (float *)ens_shared;\n";
  os.indent(indent) << "const unsigned ens_g = threadIdx.x % 32u / 4u, "
                       "ens_t = threadIdx.x % 4u;\n";
  int64_t warpsAlongCols = blockCols / mma.warpCols;
  os.indent(indent) << "const long long ens_wr = threadIdx.x / 32u / "
                    << warpsAlongCols << "u * " << mma.warpRows
                    << "LL, ens_wc = threadIdx.x / 32u % " << warpsAlongCols
                    << "u * " << mma.warpCols << "LL;\n";
  // Block tile q of the member: the parallel loops with the rows and
  // columns counted in block tiles.
  writer.ranges[rows] = llvm::divideCeil(ranges[0], blockRows);
  writer.ranges[cols] = llvm::divideCeil(ranges[1], blockCols);
  os.indent(indent) << "for (long long q = " << block << "; q < "
                    << writer.count(writer.parallel) << "LL; q += " << perMember
                    << ") {\n";
  indent += 2;
  writer.declareLoops(writer.parallel, "q", indent);
  writer.ranges[rows] = ranges[0];
  writer.ranges[cols] = ranges[1];
  const std::string &rowTile = writer.dims[rows], &colTile = writer.dims[cols];
  os.indent(indent) << "const long long ens_r0 = " << rowTile << " * "
                    << blockRows << "LL, ens_c0 = " << colTile << " * "
                    << blockCols << "LL;\n";
  // The rows and columns of this thread's accumulators: fragment (i, j)'s
  // element e is at row i_(e / 2), column j_(e % 2).
  auto rowName = [](int64_t i, int64_t half) {
    return "ens_row" + std::to_string(i) + "_" + std::to_string(half);
  };
  auto colName = [](int64_t j, int64_t odd) {
    return "ens_col" + std::to_string(j) + "_" + std::to_string(odd);
  };
  for (int64_t i = 0; i < fragRows; ++i)
    for (int64_t half = 0; half < 2; ++half)
      os.indent(indent) << "const long long " << rowName(i, half)
                        << " = ens_r0 + ens_wr + "
                        << i * kMmaM + half * kMmaM / 2 << "LL + ens_g;\n";
  for (int64_t j = 0; j < fragCols; ++j)
    for (int64_t odd = 0; odd < 2; ++odd)
      os.indent(indent) << "const long long " << colName(j, odd)
                        << " = ens_c0 + ens_wc + " << j * kMmaN + odd
                        << "LL + 2 * ens_t;\n";
  auto accumulator = [](int64_t i, int64_t j) {
    return "ens_acc" + std::to_string(i) + "_" + std::to_string(j);
  };
  auto pointDims = [&](int64_t i, int64_t j, int64_t e) {
    SmallVector<std::string> dims = writer.dims;
    dims[rows] = rowName(i, e / 2);
    dims[cols] = colName(j, e % 2);
    return dims;
  };
  auto inside = [&](int64_t i, int64_t j, int64_t e) {
    return rowName(i, e / 2) + " < " + std::to_string(ranges[0]) + "LL && " +
           colName(j, e % 2) + " < " + std::to_string(ranges[1]) + "LL";
  };
  // The accumulators start from the filled value, or from the output's
  // value at points inside the op.
  OpOperand &init = generic.getDpsInitsMutable()[0];
  Value fill = fills.filledWith.lookup(&init);
  for (int64_t i = 0; i < fragRows; ++i)
    for (int64_t j = 0; j < fragCols; ++j) {
      os.indent(indent) << "float " << accumulator(i, j) << "[4] = {";
      for (int64_t e = 0; e < 4; ++e) {
        os << (e ? ", " : "");
        if (fill) {
          os << body.get(fill);
          continue;
        }
        llvm::Expected<std::string> element =
            writer.elementAt(init, pointDims(i, j, e));
        if (!element)
          return element.takeError();
        os << "(" << inside(i, j, e) << " ? " << *element << " : 0.0f)";
      }
      os << "};\n";
    }
  // Copies steps [k0, k0 + steps) of `operand`, `extent` rows or columns
  // from the block tile's first, to `buffer` of the stage at `offset`
  // floats, zero outside the op. Each thread's share is a fixed count,
  // unrolled, so that its copies are all in flight at once. An operand in
  // global memory is copied asynchronously, 4 bytes a copy (src-size 0
  // outside the op, from an element inside it); a thread waits for its
  // copies before the barrier after which the block reads them.
  auto stage = [&](OpOperand *operand, StringRef k0, StringRef offset,
                   int64_t bufferOffset, bool alongRows, int64_t extent,
                   int64_t ld) -> llvm::Error {
    unsigned loop = alongRows ? rows : cols;
    int64_t inner = alongRows ? steps : extent, total = extent * steps;
    os.indent(indent + 2) << "#pragma unroll\n";
    os.indent(indent + 2) << "for (int ens_u = 0; ens_u < "
                          << llvm::divideCeil(total, phase.threads)
                          << "; ++ens_u) {\n";
    os.indent(indent + 4) << "const long long i = threadIdx.x + ens_u * "
                          << phase.threads << "LL;\n";
    std::string outer = "i / " + std::to_string(inner) + "LL",
                innerIndex = "i % " + std::to_string(inner) + "LL";
    std::string point =
        (alongRows ? "ens_r0 + " + outer : "ens_c0 + " + innerIndex);
    std::string step = k0.str() + " + " + (alongRows ? innerIndex : outer);
    int64_t pointRange = ranges[alongRows ? 0 : 1];
    os.indent(indent + 4) << "const long long ens_p = " << point
                          << ", ens_s = " << step << ";\n";
    std::string inside = "ens_p < " + std::to_string(pointRange) +
                         "LL && ens_s < " + std::to_string(ranges[2]) + "LL";
    std::string to = "ens_stages[" + offset.str() + " + " +
                     std::to_string(bufferOffset) + "LL + " + outer + " * " +
                     std::to_string(ld) + "LL + " + innerIndex + "]";
    SmallVector<std::string> dims = writer.dims;
    dims[loop] = "ens_p";
    dims[reduction] = "ens_s";
    bool async = views.getGlobalBuffer(operand->get()).has_value();
    if (async) {
      // The element copied from: the one at (p, s), or inside the op.
      dims[loop] = "(ens_p < " + std::to_string(pointRange) +
                   "LL ? ens_p : " + std::to_string(pointRange - 1) + "LL)";
      dims[reduction] = "(ens_s < " + std::to_string(ranges[2]) +
                        "LL ? ens_s : " + std::to_string(ranges[2] - 1) + "LL)";
    }
    llvm::Expected<std::string> element = writer.elementAt(*operand, dims);
    if (!element)
      return element.takeError();
    os.indent(indent + 4);
    if (total % phase.threads)
      os << "if (i < " << total << "LL) ";
    if (async)
      os << "ens_cp_async<4>(&" << to << ", &" << *element << ", " << inside
         << " ? 4 : 0);\n";
    else
      os << to << " = " << inside << " ? " << *element << " : 0.0f;\n";
    os.indent(indent + 2) << "}\n";
    return llvm::Error::success();
  };
  // Stages steps [k0, k0 + steps) of both operands in stage `index`.
  auto stageBoth = [&](StringRef k0, StringRef index) -> llvm::Error {
    std::string offset =
        "(" + index.str() + ") * " + std::to_string(staging.stageFloats) + "LL";
    if (llvm::Error failure =
            stage(a, k0, offset, 0, /*alongRows=*/true, blockRows, ldA))
      return failure;
    return stage(b, k0, offset, blockRows * ldA, /*alongRows=*/false, blockCols,
                 ldB);
  };
  // The pipeline: stage t % stages holds steps [t * steps, (t + 1) * steps)
  // (tile t). Before its products, a thread waits until at most the
  // groups of the tiles after t are pending, and the barrier then makes
  // every thread's copies of tile t visible, and frees the stage of tile
  // t - 1, which tile t + stages - 1 then takes.
  int64_t stages = mma.stages, tiles = llvm::divideCeil(ranges[2], steps);
  std::string tileSteps = std::to_string(steps) + "LL";
  if (stages > 1) {
    // Unrolled, so that it is no loop of its own in the SASS.
    os.indent(indent) << "#pragma unroll\n";
    os.indent(indent) << "for (int ens_t0 = 0; ens_t0 < " << stages - 1
                      << "; ++ens_t0) {\n";
    os.indent(indent + 2) << "if (ens_t0 < " << tiles << "LL) {\n";
    indent += 2;
    if (llvm::Error failure = stageBoth("ens_t0 * " + tileSteps, "ens_t0"))
      return failure;
    indent -= 2;
    os.indent(indent + 2) << "}\n";
    os.indent(indent + 2) << "ens_cp_async_commit();\n";
    os.indent(indent) << "}\n";
  }
  os.indent(indent) << "for (long long ens_tile = 0; ens_tile < " << tiles
                    << "LL; ++ens_tile) {\n";
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
    os.indent(indent + 2) << "const long long ens_next = ens_tile + "
                          << stages - 1 << "LL;\n";
    os.indent(indent + 2) << "if (ens_next < " << tiles << "LL) {\n";
    indent += 2;
    if (llvm::Error failure = stageBoth("ens_next * " + tileSteps,
                                        "ens_next % " + std::to_string(stages)))
      return failure;
    indent -= 2;
    os.indent(indent + 2) << "}\n";
    os.indent(indent + 2) << "ens_cp_async_commit();\n";
  }
  os.indent(indent + 2) << "const float *const ens_a = ens_stages + ens_tile % "
                        << stages << "LL * " << staging.stageFloats << "LL;\n";
  os.indent(indent + 2) << "const float *const ens_b = ens_a + "
                        << blockRows * ldA << "LL;\n";
  // The fragments of each mma step, as the PTX ISA lays them out:
  // a[g][t], a[g+8][t], a[g][t+4], a[g+8][t+4] and b[t][g], b[t+4][g].
  unsigned at = indent + 4;
  os.indent(indent + 2) << "#pragma unroll\n";
  os.indent(indent + 2) << "for (int ens_ks = 0; ens_ks < " << steps
                        << "; ens_ks += " << kMmaK << ") {\n";
  auto convert = [&](StringRef name, int64_t count,
                     llvm::function_ref<std::string(int64_t)> element) {
    os.indent(at) << "unsigned " << name << "[" << count << "]";
    if (split)
      os << ", " << name << "_small[" << count << "]";
    os << ";\n";
    for (int64_t r = 0; r < count; ++r) {
      std::string target = name.str() + "[" + std::to_string(r) + "]";
      if (split)
        os.indent(at) << "ens_split_tf32(" << element(r) << ", " << target
                      << ", " << name << "_small[" << r << "]);\n";
      else
        os.indent(at) << target << " = ens_cvt_tf32(" << element(r) << ");\n";
    }
  };
  for (int64_t i = 0; i < fragRows; ++i)
    convert("ens_fa" + std::to_string(i), 4, [&](int64_t r) {
      return "ens_a[(ens_wr + " + std::to_string(i * kMmaM + r % 2 * 8) +
             "LL + ens_g) * " + std::to_string(ldA) + "LL + ens_ks + ens_t + " +
             std::to_string(r / 2 * 4) + "]";
    });
  for (int64_t j = 0; j < fragCols; ++j)
    convert("ens_fb" + std::to_string(j), 2, [&](int64_t r) {
      return "ens_b[(ens_ks + ens_t + " + std::to_string(r * 4) + ") * " +
             std::to_string(ldB) + "LL + ens_wc + " +
             std::to_string(j * kMmaN) + "LL + ens_g]";
    });
  // 3xTF32 adds the small products first, then the large one, so that the
  // small ones are not lost to the accumulator's rounding of the large.
  for (int64_t i = 0; i < fragRows; ++i)
    for (int64_t j = 0; j < fragCols; ++j) {
      std::string fa = "ens_fa" + std::to_string(i),
                  fb = "ens_fb" + std::to_string(j), acc = accumulator(i, j);
      SmallVector<std::pair<std::string, std::string>> products;
      if (split)
        products = {{fa + "_small", fb}, {fa, fb + "_small"}};
      products.push_back({fa, fb});
      for (auto [x, y] : products)
        os.indent(at) << "ens_mma_tf32_m16n8k8(" << acc << ", " << x << ", "
                      << y << ", " << acc << ");\n";
    }
  os.indent(indent + 2) << "}\n";
  os.indent(indent) << "}\n";
  // The next block tile's first copies go to stages that warps may still
  // read.
  if (stages > 1)
    os.indent(indent) << "__syncthreads();\n";
  // Each accumulator inside the op: its epilogue's result, or the output.
  for (int64_t i = 0; i < fragRows; ++i)
    for (int64_t j = 0; j < fragCols; ++j)
      for (int64_t e = 0; e < 4; ++e) {
        std::string value = accumulator(i, j) + "[" + std::to_string(e) + "]";
        SmallVector<std::string> dims = pointDims(i, j, e);
        os.indent(indent) << "if (" << inside(i, j, e) << ") {\n";
        if (after) {
          after->forgetInputs();
          if (llvm::Error failure =
                  emitEpilogue(writer, *after, dims, value, indent + 2))
            return failure;
        } else {
          llvm::Expected<std::string> element = writer.elementAt(init, dims);
          if (!element)
            return element.takeError();
          os.indent(indent + 2) << *element << " = " << value << ";\n";
        }
        os.indent(indent) << "}\n";
      }
  os.indent(indent - 2) << "}\n";
  return llvm::Error::success();
}
