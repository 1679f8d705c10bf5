//===- FfmaTileEmitter.cpp - Block tiles in FFMA --------------------------===//
//
// A thread's share of a contraction's block tiles in FP32: the warp's 4 x 8
// threads each compute a micro-tile of the warp tile, in groups of 4
// consecutive rows 16 apart and 4 consecutive columns 32 apart, so that at
// each staged step a thread reads its rows' and its columns' elements with
// 128-bit shared loads (the staging puts both operands' points of a step
// side by side), and a warp's 8 loads of one group of columns are 128
// consecutive bytes, free of bank conflicts; each element loaded serves
// 8 FFMA.
//
//===----------------------------------------------------------------------===//

#include "BlockTiles.h"

using namespace mlir;
using namespace mlir::ens;
using namespace mlir::ens::cuda;

/// The points of a 128-bit shared load.
static constexpr int64_t kVector = 4;

BlockTileThreads cuda::getFfmaThreads(const MmaConfig &mma,
                                      const MmaStaging &staging,
                                      int64_t blockCols) {
  BlockTileThreads threads;
  int64_t warpsAlongCols = blockCols / mma.warpCols;
  int64_t pointRows = mma.warpRows / kFfmaThreadRows,
          pointCols = mma.warpCols / kFfmaThreadCols;
  // The thread's first row and column in the block tile.
  threads.coordinates = {
      "const unsigned ens_lane = threadIdx.x % 32u, ens_warp = threadIdx.x / "
      "32u;",
      "const ens_index ens_ty = ens_warp / " + std::to_string(warpsAlongCols) +
          "u * " + std::to_string(mma.warpRows) + " + ens_lane / " +
          std::to_string(kFfmaThreadCols) + "u * " + std::to_string(kVector) +
          ", ens_tx = ens_warp % " + std::to_string(warpsAlongCols) + "u * " +
          std::to_string(mma.warpCols) + " + ens_lane % " +
          std::to_string(kFfmaThreadCols) + "u * " + std::to_string(kVector) +
          ";"};
  // Point i of the thread's rows is row i % 4 of group i / 4, the groups
  // 4 threads' rows apart; the same for the columns, 8 threads' apart.
  auto offset = [](int64_t i, int64_t threadsAlong) {
    return std::to_string(i % kVector + i / kVector * kVector * threadsAlong);
  };
  for (int64_t i = 0; i < pointRows; ++i)
    threads.rows.push_back({"ens_row" + std::to_string(i),
                            "ens_ty + " + offset(i, kFfmaThreadRows)});
  for (int64_t j = 0; j < pointCols; ++j)
    threads.cols.push_back({"ens_col" + std::to_string(j),
                            "ens_tx + " + offset(j, kFfmaThreadCols)});
  for (int64_t i = 0; i < pointRows; ++i) {
    BlockTileThreads::Accumulators acc{"ens_acc" + std::to_string(i), {}};
    for (int64_t j = 0; j < pointCols; ++j)
      acc.points.push_back({unsigned(i), unsigned(j)});
    threads.accumulators.push_back(std::move(acc));
  }
  int64_t steps = mma.stepsStaged, ldA = staging.strideA, ldB = staging.strideB;
  threads.products = [=](llvm::raw_ostream &os, unsigned indent) {
    unsigned at = indent + 2;
    os.indent(indent) << "#pragma unroll\n";
    os.indent(indent) << "for (int ens_ks = 0; ens_ks < " << steps
                      << "; ++ens_ks) {\n";
    os.indent(at) << "float ens_fa[" << pointRows << "], ens_fb[" << pointCols
                  << "];\n";
    for (int64_t i = 0; i < pointRows; i += kVector)
      os.indent(at) << "ens_load4(ens_a + ens_ks * " << ldA << " + ens_ty + "
                    << offset(i, kFfmaThreadRows) << ", ens_fa + " << i
                    << ");\n";
    for (int64_t j = 0; j < pointCols; j += kVector)
      os.indent(at) << "ens_load4(ens_b + ens_ks * " << ldB << " + ens_tx + "
                    << offset(j, kFfmaThreadCols) << ", ens_fb + " << j
                    << ");\n";
    for (int64_t i = 0; i < pointRows; ++i)
      for (int64_t j = 0; j < pointCols; ++j)
        os.indent(at) << "ens_acc" << i << "[" << j << "] = fmaf(ens_fa[" << i
                      << "], ens_fb[" << j << "], ens_acc" << i << "[" << j
                      << "]);\n";
    os.indent(indent) << "}\n";
  };
  return threads;
}
