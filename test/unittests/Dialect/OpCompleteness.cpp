//===- OpCompleteness.cpp - What every ens op must come with --------------===//
//
// The checker runs an op's sample through each piece in turn and reports
// what fails. Where the interpreter runs the sample, its results are the
// oracle: the vmap of the sample must compute what the interpreter's loop
// over members does, the gradient what central finite differences of the
// interpreter give, and the CPU backend what the interpreter gives. Where
// it does not, the other pieces must at least compile the sample. The CUDA
// source must compile with NVRTC; running it on cuda-emu is left to
// findCudaEmuMismatches (CudaEmuCheck.cpp), which builds every sample into
// one program, as the host compiler takes seconds per program.
//
//===----------------------------------------------------------------------===//

#include "OpCompleteness.h"
#include "WrapperPrograms.h"

#include "TestSupport.h"
#include "ens/Backend/CpuBackend.h"
#include "ens/Backend/Cuda/Codegen.h"
#include "ens/Backend/Cuda/Nvrtc.h"
#include "ens/Conversion/Passes.h"
#include "ens/Dialect/Ens/IR/EnsOps.h"
#include "ens/Dialect/Ens/Interfaces/AutodiffOpInterface.h"
#include "ens/Dialect/Ens/Interfaces/BatchingOpInterface.h"
#include "ens/Dialect/Ens/Transforms/Passes.h"
#include "ens/Interpreter/Interpreter.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <cmath>
#include <optional>

using namespace mlir;
using namespace mlir::ens;
using namespace mlir::ens::test;

StringRef test::getPieceName(Piece piece) {
  switch (piece) {
  case Piece::Sample:
    return "completeness sample";
  case Piece::BatchingRule:
    return "batching rule";
  case Piece::VjpRule:
    return "VJP rule";
  case Piece::InterpreterKernel:
    return "interpreter kernel";
  case Piece::LinalgLowering:
    return "lowering to linalg";
  case Piece::Cuda:
    return "CUDA backend";
  case Piece::Cpu:
    return "CPU backend";
  }
  llvm_unreachable("unknown piece");
}

MissingPiece test::describeMissingPiece(StringRef opName, Piece piece,
                                        const Twine &what) {
  return {piece,
          ("'" + opName + "': " + getPieceName(piece) + ": " + what).str()};
}

std::vector<HostTensor> test::randomInputs(const OpSample &sample,
                                           TypeRange types,
                                           RandomSource &random) {
  std::vector<HostTensor> tensors;
  for (Type type : types) {
    auto tensorType = cast<RankedTensorType>(type);
    DType dtype = *getDType(tensorType.getElementType());
    std::vector<double> values(tensorType.getNumElements());
    for (double &value : values)
      value = dtype == DType::I1    ? random.coin()
              : dtype == DType::I32 ? random.integer(0, sample.indexBound - 1)
                                    : random.real(sample.lo, sample.hi);
    tensors.emplace_back(dtype, tensorType.getShape(), std::move(values));
  }
  return tensors;
}

llvm::Expected<std::vector<HostTensor>>
test::interpretLowered(ModuleOp module, StringRef entry,
                       ArrayRef<HostTensor> args) {
  std::string diagnostics;
  ScopedDiagnosticHandler collector(module.getContext(), [&](Diagnostic &d) {
    diagnostics += "\n  " + d.str();
    return success();
  });
  OwningOpRef<ModuleOp> lowered = module.clone();
  PassManager pm(module.getContext());
  pm.addPass(createEnsStdlib());
  pm.addPass(createEnsAutodiff());
  if (failed(pm.run(*lowered)))
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "ens-stdlib or ens-autodiff failed:" +
                                       diagnostics);
  return Interpreter(*lowered).run(entry, args);
}

std::string test::findMismatch(ArrayRef<HostTensor> expected,
                               ArrayRef<HostTensor> actual) {
  // The tolerance of the NumPy agreement tests.
  const double rtol = 1e-5, atol = 1e-6;
  if (expected.size() != actual.size())
    return llvm::formatv("{0} results where {1} are expected", actual.size(),
                         expected.size());
  for (auto [r, want, got] : llvm::enumerate(expected, actual)) {
    if (want.getTypeString() != got.getTypeString())
      return llvm::formatv("result {0} is a {1}, not a {2}", r,
                           got.getTypeString(), want.getTypeString());
    for (auto [i, w, g] : llvm::enumerate(want.values, got.values)) {
      bool same = std::isnan(w) || std::isnan(g)
                      ? std::isnan(w) && std::isnan(g)
                  : isFloatDType(want.dtype) && std::isfinite(w)
                      ? std::fabs(g - w) <= rtol * std::fabs(w) + atol
                      : g == w;
      if (!same)
        return llvm::formatv("element {0} of result {1} is {2:e9}, not {3:e9}",
                             i, r, g, w);
    }
  }
  return "";
}

namespace {

/// How far the checker lowers a module: the front of every backend's
/// pipeline, up to and including `last`.
enum class Stage { Autodiff, Batch, Linalg };

class Checker {
public:
  Checker(MLIRContext &context, OperationName name, const OpSample &sample)
      : context(context), name(name), sample(sample),
        collector(&context, [this](Diagnostic &diagnostic) {
          diagnostics += "\n  " + diagnostic.str();
          return success();
        }) {}

  std::vector<MissingPiece> run();

private:
  void report(Piece piece, const Twine &what);
  bool isMissing(Piece piece) const {
    return llvm::any_of(
        missing, [&](const MissingPiece &m) { return m.piece == piece; });
  }
  /// The diagnostics since the last call.
  std::string takeDiagnostics() { return std::exchange(diagnostics, ""); }

  OwningOpRef<ModuleOp> parse(StringRef text);
  LogicalResult lower(ModuleOp module, Stage last);
  std::vector<HostTensor> randomInputs(TypeRange types) {
    return test::randomInputs(sample, types, random);
  }

  void checkInterfaces(Operation *op);
  void checkBatching(FunctionType type, ArrayRef<int64_t> inAxes);
  void checkGradient(FunctionType type, Operation *op);
  void checkLinalg(ModuleOp module);
  void checkCpu(ModuleOp module);
  void checkCuda(ModuleOp module);

  MLIRContext &context;
  OperationName name;
  const OpSample &sample;
  RandomSource random{1};
  std::vector<HostTensor> inputs;
  /// The interpreter's results of @f on `inputs`, where it runs them.
  std::optional<std::vector<HostTensor>> expected;
  std::vector<MissingPiece> missing;
  std::string diagnostics;
  ScopedDiagnosticHandler collector;
};

void Checker::report(Piece piece, const Twine &what) {
  if (isMissing(piece))
    return;
  missing.push_back(describeMissingPiece(name.getStringRef(), piece, what));
}

OwningOpRef<ModuleOp> Checker::parse(StringRef text) {
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(text, &context);
  if (!module)
    report(Piece::Sample,
           "the program does not parse:" + takeDiagnostics() + "\n" + text);
  return module;
}

LogicalResult Checker::lower(ModuleOp module, Stage last) {
  PassManager pm(&context);
  pm.addPass(createEnsStdlib());
  pm.addPass(createEnsAutodiff());
  if (last != Stage::Autodiff)
    pm.addPass(createEnsBatch());
  if (last == Stage::Linalg)
    pm.addPass(createConvertEnsToLinalg());
  return pm.run(module);
}

std::vector<MissingPiece> Checker::run() {
  OwningOpRef<ModuleOp> module = parse(sample.source);
  if (!module)
    return missing;
  auto f = module->lookupSymbol<func::FuncOp>("f");
  Operation *op = nullptr;
  if (f)
    f.walk([&](Operation *nested) {
      if (nested->getName() == name)
        op = nested;
    });
  if (!op) {
    report(Piece::Sample, "the sample has no function @f that uses the op");
    return missing;
  }

  checkInterfaces(op);
  FunctionType type = f.getFunctionType();
  inputs = randomInputs(type.getInputs());
  llvm::Expected<std::vector<HostTensor>> results =
      interpretLowered(*module, "f", inputs);
  if (results)
    expected = std::move(*results);
  else
    report(Piece::InterpreterKernel, llvm::toString(results.takeError()));

  if (type.getNumInputs() != 0) {
    // Every argument batched, and the first one batched along its last
    // axis while the members share the rest.
    checkBatching(type, SmallVector<int64_t>(type.getNumInputs(), 0));
    SmallVector<int64_t> firstOnly(type.getNumInputs(), kUnbatched);
    firstOnly[0] = cast<RankedTensorType>(type.getInput(0)).getRank();
    checkBatching(type, firstOnly);
  }
  checkGradient(type, op);
  checkLinalg(*module);
  checkCpu(*module);
  checkCuda(*module);
  return missing;
}

/// Function transforms (ops that refer to a function) and library calls
/// have no rules of their own: ens-stdlib, ens-autodiff and ens-batch
/// lower them to calls before any rule or backend sees them, which the
/// behavioural checks cover.
void Checker::checkInterfaces(Operation *op) {
  if (isa<SymbolUserOpInterface, StdlibCallOp>(op))
    return;
  // An op without operands is the same for every member and is never
  // batched.
  if (op->getNumOperands() != 0 && !name.hasInterface<BatchingOpInterface>())
    report(Piece::BatchingRule,
           "no BatchingOpInterface model is attached to it");
  if (!name.hasInterface<AutodiffOpInterface>())
    report(Piece::VjpRule,
           "no AutodiffOpInterface model is attached to it, with either a "
           "VJP rule or a reason why it is not differentiable");
}

void Checker::checkBatching(FunctionType type, ArrayRef<int64_t> inAxes) {
  if (isMissing(Piece::BatchingRule) || isMissing(Piece::Sample))
    return;
  std::string text = sample.source + buildVmapMain(type, inAxes);
  OwningOpRef<ModuleOp> module = parse(text);
  if (!module)
    return;
  std::vector<HostTensor> args = randomInputs(
      module->lookupSymbol<func::FuncOp>("main").getArgumentTypes());
  OwningOpRef<ModuleOp> batched = module->clone();
  std::string where = "with in_axes = " + i64Array(inAxes);
  if (failed(lower(*batched, Stage::Batch))) {
    report(Piece::BatchingRule,
           where + ", ens-batch failed:" + takeDiagnostics());
    return;
  }
  if (batched->walk([](VmapOp) { return WalkResult::interrupt(); })
          .wasInterrupted()) {
    report(Piece::BatchingRule, where + ", an ens.vmap is left");
    return;
  }
  if (!expected)
    return;
  // The interpreter runs the vmap by its definition, a loop over members.
  llvm::Expected<std::vector<HostTensor>> loop =
      interpretLowered(*module, "main", args);
  if (!loop) {
    report(Piece::BatchingRule, where + ", the loop does not run: " +
                                    llvm::toString(loop.takeError()));
    return;
  }
  llvm::Expected<std::vector<HostTensor>> got =
      interpretLowered(*batched, "main", args);
  if (!got) {
    report(Piece::BatchingRule, where + ", the batched program does not run: " +
                                    llvm::toString(got.takeError()));
    return;
  }
  std::string mismatch = findMismatch(*loop, *got);
  if (!mismatch.empty())
    report(Piece::BatchingRule,
           where + ", the batched program differs from the loop: " + mismatch);
}

void Checker::checkGradient(FunctionType type, Operation *op) {
  if (isMissing(Piece::VjpRule) || isMissing(Piece::Sample))
    return;
  SmallVector<int64_t> wrt;
  for (auto [i, argType] : llvm::enumerate(type.getInputs()))
    if (isFloatTensor(argType))
      wrt.push_back(i);
  if (wrt.empty() || llvm::none_of(type.getResults(), isFloatTensor))
    return;
  OwningOpRef<ModuleOp> module =
      parse(sample.source + buildLossAndGrad(type, wrt));
  if (!module)
    return;
  OwningOpRef<ModuleOp> lowered = module->clone();
  if (failed(lower(*lowered, Stage::Autodiff))) {
    report(Piece::VjpRule, "ens-autodiff failed:" + takeDiagnostics());
    return;
  }
  if (!expected)
    return;

  auto loss = module->lookupSymbol<func::FuncOp>("loss");
  std::vector<HostTensor> args = inputs;
  llvm::append_range(
      args, randomInputs(loss.getArgumentTypes().drop_front(inputs.size())));
  Interpreter interpreter(*lowered);
  llvm::Expected<std::vector<HostTensor>> grads = interpreter.run("grad", args);
  if (!grads) {
    report(Piece::VjpRule,
           "the gradient does not run: " + llvm::toString(grads.takeError()));
    return;
  }
  std::string reason;
  if (auto rule = dyn_cast<AutodiffOpInterface>(op))
    if (!rule.getNonDifferentiableReason().empty())
      reason = " (marked non-differentiable: " +
               rule.getNonDifferentiableReason().str() + ")";

  // Central differences with steps large enough for f32 rounding; the
  // tolerance catches a wrong factor or sign, not the last bits.
  for (auto [k, index] : llvm::enumerate(wrt)) {
    HostTensor &x = args[index];
    bool isF64 = x.dtype == DType::F64;
    double step = isF64 ? 1e-6 : 1e-2, tolerance = isF64 ? 1e-5 : 2e-2;
    const HostTensor &ad = (*grads)[k + 1];
    for (int64_t i = 0; i < x.getNumElements(); ++i) {
      double original = x.values[i];
      double h = step * std::max(1.0, std::fabs(original));
      double lossAt[2], at[2];
      for (int side = 0; side < 2; ++side) {
        x.values[i] = roundToDType(original + (side ? h : -h), x.dtype);
        at[side] = x.values[i];
        llvm::Expected<std::vector<HostTensor>> value =
            interpreter.run("loss", args);
        if (!value) {
          report(Piece::VjpRule, llvm::toString(value.takeError()));
          return;
        }
        lossAt[side] = value->front().values.front();
      }
      x.values[i] = original;
      double fd = (lossAt[1] - lossAt[0]) / (at[1] - at[0]);
      if (std::fabs(ad.values[i] - fd) > tolerance * (1 + std::fabs(fd))) {
        report(Piece::VjpRule,
               llvm::formatv("element {0} of the gradient with respect to "
                             "argument {1} is {2:e6}, but finite differences "
                             "give {3:e6}{4}",
                             i, index, ad.values[i], fd, reason)
                   .str());
        return;
      }
    }
  }
}

void Checker::checkLinalg(ModuleOp module) {
  OwningOpRef<ModuleOp> lowered = module.clone();
  if (failed(lower(*lowered, Stage::Linalg))) {
    report(Piece::LinalgLowering,
           "convert-ens-to-linalg failed:" + takeDiagnostics());
    return;
  }
  lowered->walk([&](Operation *op) {
    if (op->getName() == name || op->getName().getDialectNamespace() == "ens")
      report(Piece::LinalgLowering,
             "'" + op->getName().getStringRef() +
                 "' is left after convert-ens-to-linalg");
  });
}

void Checker::checkCpu(ModuleOp module) {
  llvm::Expected<std::unique_ptr<CpuExecutable>> executable =
      CpuExecutable::compile(module, "f");
  if (!executable) {
    report(Piece::Cpu, llvm::toString(executable.takeError()));
    return;
  }
  llvm::Expected<std::vector<HostTensor>> results = (*executable)->run(inputs);
  if (!results) {
    report(Piece::Cpu, llvm::toString(results.takeError()));
    return;
  }
  if (!expected)
    return;
  std::string mismatch = findMismatch(*expected, *results);
  if (!mismatch.empty())
    report(Piece::Cpu, "it differs from the interpreter: " + mismatch);
}

void Checker::checkCuda(ModuleOp module) {
  llvm::Expected<cuda::CudaProgram> program = cuda::generateCuda(module, "f");
  if (!program) {
    report(Piece::Cuda, llvm::toString(program.takeError()));
    return;
  }
  if (!cuda::isNvrtcAvailable())
    return;
  llvm::Expected<cuda::CompiledCuda> compiled =
      cuda::compileWithNvrtc(program->source, "f.cu", "sm_90");
  if (!compiled)
    report(Piece::Cuda, "NVRTC rejects the generated source: " +
                            llvm::toString(compiled.takeError()));
}

} // namespace

std::vector<MissingPiece> test::findMissingPieces(MLIRContext &context,
                                                  OperationName name,
                                                  const OpSample &sample) {
  return Checker(context, name, sample).run();
}
