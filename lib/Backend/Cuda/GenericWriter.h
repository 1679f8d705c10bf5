//===- GenericWriter.h - Pieces of a linalg.generic's loop nest -*- C++ -*-===//
//
// Private to the CUDA backend: the writer of the pieces of one
// linalg.generic's loops inside a kernel (loop variables, operand elements,
// the body's ops, the work hoisted before the loops), which the emitters of
// points (LoopNestEmitter.cpp) and of register tiles (TileEmitter.cpp)
// share.
//
//===----------------------------------------------------------------------===//

#ifndef ENS_LIB_BACKEND_CUDA_GENERICWRITER_H
#define ENS_LIB_BACKEND_CUDA_GENERICWRITER_H

#include "KernelEmitter.h"

#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/Sequence.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/raw_ostream.h"

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
    os.indent(indent) << "ens_index " << rest << " = " << flat << ";\n";
    for (unsigned k = loops.size(); k-- > 0;) {
      unsigned d = loops[k];
      if (k == 0)
        os.indent(indent) << "ens_index " << dims[d] << " = " << rest << ";\n";
      else
        os.indent(indent) << "ens_index " << dims[d] << " = " << rest << " % "
                          << ranges[d] << "; " << rest << " /= " << ranges[d]
                          << ";\n";
    }
  }

  /// The flat index, the last loop varying fastest, of the point of
  /// `loops` whose variables are `at` (declareLoops the other way round).
  std::string flatIndex(ArrayRef<unsigned> loops, ArrayRef<std::string> at) {
    std::string index = "0";
    int64_t stride = 1;
    for (unsigned k = loops.size(); k-- > 0;) {
      index += " + " + at[loops[k]] + " * " + std::to_string(stride);
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

  /// Reads the inputs the body uses that have no value yet, where the loop
  /// variables are `at` (by default `dims`), into variables named with
  /// `suffix`.
  llvm::Error loadInputs(unsigned indent, ArrayRef<std::string> at = {},
                         StringRef suffix = "") {
    for (OpOperand *input : generic.getDpsInputOperands())
      if (llvm::Error failure = loadInput(
              *input, at.empty() ? ArrayRef(dims) : at, indent, suffix))
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
  llvm::Error hoistInvariants(unsigned indent, OpOperand *perPoint = nullptr);

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
                        unsigned indent, StringRef suffix = "") {
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
    std::string name = prefix.str() + "in" +
                       std::to_string(input.getOperandNumber()) + suffix.str();
    os.indent(indent) << *getCType(arg.getType()) << " " << name << " = "
                      << *value << ";\n";
    body.bind(arg, name);
    return llvm::Error::success();
  }
};
/// The input of `epilogue` that reads the result of `contraction`.
OpOperand *getResultRead(linalg::GenericOp contraction,
                         linalg::GenericOp epilogue);

} // namespace mlir::ens::cuda

#endif // ENS_LIB_BACKEND_CUDA_GENERICWRITER_H
