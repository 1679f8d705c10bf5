//===- CudaEmuCheck.cpp - Every op's sample on cuda-emu at once -----------===//
//
// The host compiler takes seconds to build a generated source, far longer
// than the rest of an op's checks, so the samples run on cuda-emu together:
// each sample's functions are renamed apart and moved into one module,
// whose @main calls every sample's @f on arguments of its own and returns
// all their results. Each sample's results are compared with the
// interpreter's, and a mismatch is reported against the sample's op.
//
//===----------------------------------------------------------------------===//

#include "OpCompleteness.h"

#include "ens/Backend/Cuda/Codegen.h"
#include "ens/Backend/Cuda/Emulator.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Parser/Parser.h"

using namespace mlir;
using namespace mlir::ens;
using namespace mlir::ens::test;

static llvm::Error error(const Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

llvm::Expected<std::vector<MissingPiece>>
test::findCudaEmuMismatches(MLIRContext &context,
                            ArrayRef<const OpSample *> samples) {
  OpBuilder builder(&context);
  Location loc = builder.getUnknownLoc();
  OwningOpRef<ModuleOp> combined = ModuleOp::create(loc);
  SmallVector<func::FuncOp> entries;
  for (auto [k, sample] : llvm::enumerate(samples)) {
    OwningOpRef<ModuleOp> module =
        parseSourceString<ModuleOp>(sample->source, &context);
    if (!module)
      return error("the sample of '" + sample->opName + "' does not parse");
    std::string prefix = "s" + std::to_string(k) + "_";
    for (auto function : llvm::to_vector(module->getOps<func::FuncOp>())) {
      StringAttr name = builder.getStringAttr(prefix + function.getSymName());
      if (failed(SymbolTable::replaceAllSymbolUses(function, name, *module)))
        return error("cannot rename the functions of '" + sample->opName +
                     "''s sample");
      function.setSymName(name);
      function->remove();
      combined->push_back(function);
    }
    entries.push_back(combined->lookupSymbol<func::FuncOp>(prefix + "f"));
  }

  SmallVector<Type> argTypes, resultTypes;
  for (func::FuncOp entry : entries) {
    llvm::append_range(argTypes, entry.getArgumentTypes());
    llvm::append_range(resultTypes, entry.getResultTypes());
  }
  builder.setInsertionPointToEnd(combined->getBody());
  auto main = builder.create<func::FuncOp>(
      loc, "main", builder.getFunctionType(argTypes, resultTypes));
  Block *body = main.addEntryBlock();
  builder.setInsertionPointToStart(body);
  SmallVector<Value> results;
  size_t firstArg = 0;
  for (func::FuncOp entry : entries) {
    auto call = builder.create<func::CallOp>(
        loc, entry,
        body->getArguments().slice(firstArg, entry.getNumArguments()));
    firstArg += entry.getNumArguments();
    llvm::append_range(results, call.getResults());
  }
  builder.create<func::ReturnOp>(loc, results);

  RandomSource random(1);
  std::vector<HostTensor> inputs;
  for (auto [sample, entry] : llvm::zip_equal(samples, entries))
    llvm::append_range(inputs,
                       randomInputs(*sample, entry.getArgumentTypes(), random));
  llvm::Expected<std::vector<HostTensor>> expected =
      interpretLowered(*combined, "main", inputs);
  if (!expected)
    return expected.takeError();
  llvm::Expected<cuda::CudaProgram> program =
      cuda::generateCuda(*combined, "main");
  if (!program)
    return program.takeError();
  llvm::Expected<std::unique_ptr<cuda::EmulatedExecutable>> emulated =
      cuda::EmulatedExecutable::compile(std::move(*program));
  if (!emulated)
    return emulated.takeError();
  llvm::Expected<std::vector<HostTensor>> actual = (*emulated)->run(inputs);
  if (!actual)
    return actual.takeError();

  std::vector<MissingPiece> missing;
  size_t firstResult = 0;
  for (auto [sample, entry] : llvm::zip_equal(samples, entries)) {
    size_t count = entry.getNumResults();
    std::string mismatch =
        findMismatch(ArrayRef(*expected).slice(firstResult, count),
                     ArrayRef(*actual).slice(firstResult, count));
    firstResult += count;
    if (!mismatch.empty())
      missing.push_back(describeMissingPiece(
          sample->opName, Piece::Cuda,
          "cuda-emu: it differs from the interpreter: " + mismatch));
  }
  return missing;
}
