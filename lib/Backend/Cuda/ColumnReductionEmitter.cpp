//===- ColumnReductionEmitter.cpp - Reductions with lanes along outputs ---===//
//
// Writes a block reduction whose inputs are contiguous along its output
// elements and not along its steps (the sum of a matrix's columns, as a
// bias gradient sums an output gradient down the batch): a block reduction
// with its lanes along the steps would read a line per lane. Here each
// warp's lanes take 32 consecutive output elements, so that a warp's loads
// of a step are one or two lines; the block's warps share the steps; and
// the first warp combines the warps' shares from shared memory, then
// stores each element or applies the fused epilogue to it.
//
//===----------------------------------------------------------------------===//

#include "GenericWriter.h"

#include "CandidateCost.h"

using namespace mlir;
using namespace mlir::ens;
using namespace mlir::ens::cuda;

llvm::Error KernelEmitter::emitColumnReduction(
    KernelBuilder &kernel, GenericWriter &writer,
    std::optional<GenericWriter> &after, Operation *combiner, StringRef output,
    StringRef first, StringRef step, unsigned indent) {
  llvm::raw_string_ostream &os = writer.os;
  std::string t = *getCType(combiner->getResult(0).getType());
  auto [combine, identity] = getCombination(combiner);
  int64_t elements = writer.count(writer.parallel);
  std::string steps = std::to_string(writer.count(writer.reduction));
  // The warps that share the steps, a constant (the launch's block, or a
  // warp's lanes), so that ptxas unrolls the combination of their shares
  // and folds the steps' stride into each load's address.
  std::string warps = std::to_string(
      kernel.warp ? 1u : std::max(kernel.launch.block[0] / kWarpSize, 1u));
  // A share per warp (at most 32 of them) for each of the group's 32
  // elements.
  os.indent(indent) << "__shared__ " << t << " ens_columns[32][32];\n";
  os.indent(indent) << "auto combine = " << combine << ";\n";
  os.indent(indent) << "const ens_index ens_column = " << kernel.thread
                    << " % 32, ens_row = " << kernel.thread << " / 32;\n";
  os.indent(indent) << "for (ens_index g = " << first << "; g < "
                    << llvm::divideCeil(elements, int64_t(kWarpSize))
                    << "; g += " << step << ") {\n";
  os.indent(indent + 2) << "ens_index p = g * 32 + ens_column;\n";
  writer.declareLoops(writer.parallel, "p", indent + 2);
  os.indent(indent + 2) << t << " share = " << identity << ";\n";
  os.indent(indent + 2) << "if (p < " << elements << ") {\n";
  if (llvm::Error failure =
          emitShare(kernel, writer, combiner, "ens_row", steps, warps,
                    kColumnUnrollSteps, indent + 4))
    return failure;
  os.indent(indent + 2) << "}\n";
  os.indent(indent + 2) << "ens_columns[ens_row][ens_column] = share;\n";
  os.indent(indent + 2) << "__syncthreads();\n";
  os.indent(indent + 2) << "if (ens_row == 0 && p < " << elements << ") {\n";
  os.indent(indent + 4) << t << " total = ens_columns[0][ens_column];\n";
  os.indent(indent + 4) << "for (ens_index w = 1; w < " << warps << "; ++w)\n";
  os.indent(indent + 6)
      << "total = combine(total, ens_columns[w][ens_column]);\n";
  if (llvm::Error failure =
          emitReductionResult(writer, after, output, indent + 4))
    return failure;
  os.indent(indent + 2) << "}\n";
  // The next group's shares go where the first warp may still read.
  os.indent(indent + 2) << "__syncthreads();\n";
  os.indent(indent) << "}\n";
  return llvm::Error::success();
}
