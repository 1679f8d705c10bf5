//===- OpCompleteness.h - What every ens op must come with ------*- C++ -*-===//
//
// An op of the ens dialect is complete when every part of the compiler
// handles it: a batching rule, a VJP rule (or a reason why no gradient flows
// through it), an interpreter kernel, a lowering to linalg, and code from
// the CUDA and CPU backends. The checker here finds the missing pieces of
// one op by running a small sample program that uses it through the real
// passes and backends, with the interpreter as the oracle; the sample table
// (OpSamples.cpp) has one program per op, so an op without a sample is a
// missing piece too. docs/adding-an-op.md lists where each piece lives.
//
//===----------------------------------------------------------------------===//

#ifndef ENS_TEST_UNITTESTS_DIALECT_OPCOMPLETENESS_H
#define ENS_TEST_UNITTESTS_DIALECT_OPCOMPLETENESS_H

#include "TestSupport.h"
#include "ens/Support/HostTensor.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OperationSupport.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace mlir::ens::test {

/// A part of the compiler that must handle every op.
enum class Piece {
  Sample,
  BatchingRule,
  VjpRule,
  InterpreterKernel,
  LinalgLowering,
  Cuda,
  Cpu,
};

/// "batching rule", "CPU backend", ...
llvm::StringRef getPieceName(Piece piece);

/// A piece an op lacks, or that gets the op wrong.
struct MissingPiece {
  Piece piece;
  /// Names the op and the piece, then says what went wrong.
  std::string message;
};

/// The missing `piece` of the op named `opName`, with a message that names
/// both and then says `what` went wrong.
MissingPiece describeMissingPiece(llvm::StringRef opName, Piece piece,
                                  const llvm::Twine &what);

/// A small program that uses one op.
struct OpSample {
  /// The op's full name, e.g. "ens.add".
  std::string opName;
  /// A module whose function @f uses the op.
  std::string source;
  /// Float arguments of @f are drawn uniformly from [lo, hi); i32 arguments
  /// from [0, indexBound), i1 arguments are fair coins.
  double lo = -2, hi = 2;
  int64_t indexBound = 3;
};

/// The sample of every ens op (OpSamples.cpp).
llvm::ArrayRef<OpSample> getOpSamples();

/// The sample of the op named `opName`, or null.
const OpSample *findOpSample(llvm::StringRef opName);

/// The ops of the loaded dialect `dialectNamespace` that the sample table
/// lacks, by name.
std::vector<std::string>
findOpsWithoutSamples(MLIRContext &context, llvm::StringRef dialectNamespace);

/// Random arguments of `types` for `sample`'s @f, in the sample's ranges.
std::vector<HostTensor> randomInputs(const OpSample &sample, TypeRange types,
                                     RandomSource &random);

/// Runs `entry` of `module` as ens-run does: after ens-stdlib and
/// ens-autodiff, which lower `ens.stdlib_call` and `ens.value_and_grad`, on
/// the interpreter. `module` is unchanged.
llvm::Expected<std::vector<HostTensor>>
interpretLowered(ModuleOp module, llvm::StringRef entry,
                 llvm::ArrayRef<HostTensor> args);

/// Where `actual` first differs from `expected` by more than
/// 1e-5 * |expected| + 1e-6 (exactly, for integers and masks; NaN matches
/// NaN), or "" where they agree.
std::string findMismatch(llvm::ArrayRef<HostTensor> expected,
                         llvm::ArrayRef<HostTensor> actual);

/// The pieces that op `name` lacks, at most one per piece, found with
/// `sample`. The context must have every ens dialect and the CPU backend's
/// dialects loaded or registered.
std::vector<MissingPiece> findMissingPieces(MLIRContext &context,
                                            OperationName name,
                                            const OpSample &sample);

/// Runs `samples` on cuda-emu, as one program so that the host compiler
/// builds the generated source once, and reports the CUDA backend of each
/// op whose results differ from the interpreter's. A program that cannot
/// be generated, built or run is an error.
llvm::Expected<std::vector<MissingPiece>>
findCudaEmuMismatches(MLIRContext &context,
                      llvm::ArrayRef<const OpSample *> samples);

} // namespace mlir::ens::test

#endif // ENS_TEST_UNITTESTS_DIALECT_OPCOMPLETENESS_H
