//===- MmaEmitter.cpp - Block tiles on TF32 tensor cores ------------------===//
//
// A thread's share of a contraction's block tiles on tensor cores: each
// warp multiplies its warp tile's fragments with mma.sync m16n8k8 (the
// prelude's ens_mma_tf32_m16n8k8, which the emulator implements
// warp-wide), from the operands BlockTileEmitter.cpp stages in shared
// memory, and each thread holds the accumulators of its fragments as the
// PTX ISA lays them out.
//
//===----------------------------------------------------------------------===//

#include "BlockTiles.h"

using namespace mlir;
using namespace mlir::ens;
using namespace mlir::ens::cuda;

BlockTileThreads cuda::getMmaThreads(const MmaConfig &mma,
                                     const MmaStaging &staging,
                                     int64_t blockCols) {
  BlockTileThreads threads;
  int64_t fragRows = mma.warpRows / kMmaM, fragCols = mma.warpCols / kMmaN;
  int64_t warpsAlongCols = blockCols / mma.warpCols;
  threads.coordinates = {
      "const unsigned ens_g = threadIdx.x % 32u / 4u, ens_t = threadIdx.x % "
      "4u;",
      "const ens_index ens_wr = threadIdx.x / 32u / " +
          std::to_string(warpsAlongCols) + "u * " +
          std::to_string(mma.warpRows) + ", ens_wc = threadIdx.x / 32u % " +
          std::to_string(warpsAlongCols) + "u * " +
          std::to_string(mma.warpCols) + ";"};
  // Fragment (i, j)'s element e is at row i_(e / 2), column j_(e % 2).
  for (int64_t i = 0; i < fragRows; ++i)
    for (int64_t half = 0; half < 2; ++half)
      threads.rows.push_back(
          {"ens_row" + std::to_string(i) + "_" + std::to_string(half),
           "ens_wr + " + std::to_string(i * kMmaM + half * kMmaM / 2) +
               " + ens_g"});
  for (int64_t j = 0; j < fragCols; ++j)
    for (int64_t odd = 0; odd < 2; ++odd)
      threads.cols.push_back(
          {"ens_col" + std::to_string(j) + "_" + std::to_string(odd),
           "ens_wc + " + std::to_string(j * kMmaN + odd) + " + 2 * ens_t"});
  auto accumulator = [](int64_t i, int64_t j) {
    return "ens_acc" + std::to_string(i) + "_" + std::to_string(j);
  };
  for (int64_t i = 0; i < fragRows; ++i)
    for (int64_t j = 0; j < fragCols; ++j) {
      BlockTileThreads::Accumulators acc{accumulator(i, j), {}};
      for (unsigned e = 0; e < 4; ++e)
        acc.points.push_back(
            {unsigned(2 * i + e / 2), unsigned(2 * j + e % 2)});
      threads.accumulators.push_back(std::move(acc));
    }
  bool split = mma.precision == Precision::Tf32x3;
  int64_t steps = mma.stepsStaged, ldA = staging.strideA, ldB = staging.strideB;
  bool aByRows = staging.aByRows, bByCols = staging.bByCols;
  threads.products = [=](llvm::raw_ostream &os, unsigned indent) {
    // The fragments of each mma step, as the PTX ISA lays them out:
    // a[g][t], a[g+8][t], a[g][t+4], a[g+8][t+4] and b[t][g], b[t+4][g].
    unsigned at = indent + 2;
    // The thread's first elements of a (row g, step t) and b (step t,
    // column g) in their stages: every element of a fragment is a constant
    // offset from them in the unrolled loop, which ptxas folds into its
    // LDS (computed per element, the offsets took two instructions each).
    std::string ld[] = {std::to_string(ldA), std::to_string(ldB)};
    os.indent(indent) << "const float *const ens_pa = ens_a + "
                      << (aByRows ? "(ens_wr + ens_g) * " + ld[0] + " + ens_t"
                                  : "ens_t * " + ld[0] + " + ens_wr + ens_g")
                      << ";\n";
    os.indent(indent) << "const float *const ens_pb = ens_b + "
                      << (bByCols ? "(ens_wc + ens_g) * " + ld[1] + " + ens_t"
                                  : "ens_t * " + ld[1] + " + ens_wc + ens_g")
                      << ";\n";
    os.indent(indent) << "#pragma unroll\n";
    os.indent(indent) << "for (int ens_ks = 0; ens_ks < " << steps
                      << "; ens_ks += " << kMmaK << ") {\n";
    auto convert = [&](const std::string &name, int64_t count,
                       llvm::function_ref<std::string(int64_t)> element) {
      os.indent(at) << "unsigned " << name << "[" << count << "]";
      if (split)
        os << ", " << name << "_small[" << count << "]";
      os << ";\n";
      for (int64_t r = 0; r < count; ++r) {
        std::string target = name + "[" + std::to_string(r) + "]";
        if (split)
          os.indent(at) << "ens_split_tf32(" << element(r) << ", " << target
                        << ", " << name << "_small[" << r << "]);\n";
        else
          os.indent(at) << target << " = ens_cvt_tf32(" << element(r) << ");\n";
      }
    };
    // The element `along` rows or columns and `steps` steps from a
    // thread's first, in a stage whose rows are `ld` floats and hold each
    // row's (column's) steps, or each step's rows (columns).
    auto element = [](StringRef first, bool byPoints, int64_t ld, int64_t along,
                      int64_t steps) {
      std::string step = "ens_ks + " + std::to_string(steps);
      return (first + "[" +
              (byPoints ? std::to_string(along * ld) + " + " + step
                        : "(" + step + ") * " + std::to_string(ld) + " + " +
                              std::to_string(along)) +
              "]")
          .str();
    };
    for (int64_t i = 0; i < fragRows; ++i)
      convert("ens_fa" + std::to_string(i), 4, [&](int64_t r) {
        return element("ens_pa", aByRows, ldA, i * kMmaM + r % 2 * 8,
                       r / 2 * 4);
      });
    for (int64_t j = 0; j < fragCols; ++j)
      convert("ens_fb" + std::to_string(j), 2, [&](int64_t r) {
        return element("ens_pb", bByCols, ldB, j * kMmaN, r * 4);
      });
    // 3xTF32 adds the small products first, then the large one, so that
    // the small ones are not lost to the accumulator's rounding of the
    // large.
    for (int64_t i = 0; i < fragRows; ++i)
      for (int64_t j = 0; j < fragCols; ++j) {
        std::string fa = "ens_fa" + std::to_string(i),
                    fb = "ens_fb" + std::to_string(j), acc = accumulator(i, j);
        SmallVector<std::pair<std::string, std::string>> products;
        if (split)
          products = {{fa + "_small", fb}, {fa, fb + "_small"}};
        products.push_back({fa, fb});
        for (const auto &product : products)
          os.indent(at) << "ens_mma_tf32_m16n8k8(" << acc << ", "
                        << product.first << ", " << product.second << ", "
                        << acc << ");\n";
      }
    os.indent(indent) << "}\n";
  };
  return threads;
}
