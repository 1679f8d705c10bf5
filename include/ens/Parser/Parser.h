//===- Parser.h - The one way ens parses untrusted IR -----------*- C++ -*-===//
//
// Every tool and the API parse input through parseSourceSafely: the text is
// checked against the source limits (nesting, result numbers), parsed and
// verified on a thread with a large stack, and every shaped type in the
// result is checked to have a size that fits in 64 bits. Anything else is
// reported through the context's diagnostic handlers and yields null.
//
//===----------------------------------------------------------------------===//

#ifndef ENS_PARSER_PARSER_H
#define ENS_PARSER_PARSER_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

#include "llvm/Support/SourceMgr.h"

namespace mlir::ens {

/// Parses each function of `buffer` alone, without verifying it, as
/// ens/Support/SourceChunks.h describes: a forward reference left open in
/// one function then cannot bind to another's value, which MLIR 19's parser
/// does and then corrupts the heap on a later error. Fails, after the parser
/// has reported why, on the first function that does not parse. Run it on a
/// large stack, and give the whole text to the parser only if it succeeds.
LogicalResult parseFunctionsApart(const llvm::MemoryBuffer &buffer,
                                  MLIRContext *context);

/// Parses and verifies the main buffer of `sourceMgr` as a module, within
/// the limits of ens/Support/SourceLimits.h, each function alone first
/// (parseFunctionsApart). Returns null after emitting an
/// error when the input is malformed, too deep or names sizes that overflow.
OwningOpRef<ModuleOp> parseSourceSafely(llvm::SourceMgr &sourceMgr,
                                        MLIRContext *context);

/// Reads the file at `path` within the source limits (readSourceFile) into
/// `sourceMgr`, whose diagnostic handler the caller installs, and parses
/// it with parseSourceSafely. On failure returns null and sets `error` to
/// say why.
OwningOpRef<ModuleOp> parseProgramFile(StringRef path,
                                       llvm::SourceMgr &sourceMgr,
                                       MLIRContext *context,
                                       std::string &error);

/// The function a tool runs: the one named `name`, or, when `name` is
/// empty, the module's only function. Otherwise sets `error` to say why
/// there is none, naming `file`.
FailureOr<func::FuncOp> findEntryFunction(ModuleOp module, StringRef name,
                                          StringRef file, std::string &error);

/// Emits an error on the first op whose operand, result, block-argument or
/// function type has static sizes whose byte count overflows 64 bits.
LogicalResult verifyTypeSizes(Operation *root);

} // namespace mlir::ens

#endif // ENS_PARSER_PARSER_H
