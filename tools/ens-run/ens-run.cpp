//===- ens-run.cpp - Run an ens function on .npy inputs -------------------===//
//
// Usage:
//   ens-run FILE.mlir --entry=NAME --input=a.npy --input=b.npy
//           [--output-dir=DIR] [--print] [--backend=interp]
//   ens-run FILE.mlir --entry=NAME --random-inputs=SEED ...
//   ens-run FILE.mlir ... --expect=out0.npy [--rtol=R] [--atol=A]
//
// Runs one function of an ens program on NumPy arrays and writes each result
// as DIR/out<i>.npy and/or prints it. An entry with `?` sizes (or one that
// reaches a function with them) is first specialized (ens-specialize) to the
// types of its --input files, or to its own types where those are static;
// --random-inputs cannot choose a size. Declared standard-library functions
// are defined (ens-stdlib) and ens.value_and_grad is lowered (ens-autodiff)
// first; the interpreter runs ens.vmap by its definition. Every failure
// prints one message starting with "ens-run: error:" and exits with
// status 1.
//
//===----------------------------------------------------------------------===//

#include "ens/Backend/CpuBackend.h"
#include "ens/Backend/Cuda/Codegen.h"
#include "ens/Backend/Cuda/KernelReport.h"
#include "ens/Backend/Cuda/Nvrtc.h"
#include "ens/Backend/Executable.h"
#include "ens/Dialect/Ens/Transforms/Passes.h"
#include "ens/Dialect/Ens/Transforms/Specialize.h"
#include "ens/InitAllDialects.h"
#include "ens/Parser/Parser.h"
#include "ens/Support/CommandLine.h"
#include "ens/Support/Npy.h"
#include "ens/Support/Npz.h"
#include "ens/Support/SourceLimits.h"
#include "ens/Support/TensorTypes.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/WithColor.h"

#include <cmath>
#include <csignal>
#include <random>

using namespace mlir;
using namespace mlir::ens;
namespace cl = llvm::cl;

namespace {
cl::OptionCategory category("ens-run options");

cl::opt<std::string> inputFile(cl::cat(category), cl::Positional,
                               cl::desc("<program.mlir>"), cl::Required);
cl::opt<std::string>
    entryName(cl::cat(category), "entry",
              cl::desc("Function to run (default: the only function)"),
              cl::value_desc("name"));
cl::list<std::string> inputs(cl::cat(category), "input",
                             cl::desc("A .npy file per function argument, in "
                                      "order, or one array of a .npz file "
                                      "(FILE.npz:NAME)"),
                             cl::value_desc("file.npy|file.npz:name"));
cl::opt<unsigned> randomSeed(
    cl::cat(category), "random-inputs",
    cl::desc("Instead of --input files, fill every argument with "
             "pseudo-random values from this seed (floats uniform in "
             "[-1, 1), i32 in [0, 8), i1 fair coins)"),
    cl::value_desc("seed"));
cl::opt<std::string> outputDir(cl::cat(category), "output-dir",
                               cl::desc("Write results as DIR/out<i>.npy"),
                               cl::value_desc("dir"));
cl::opt<std::string>
    inputDir(cl::cat(category), "write-inputs",
             cl::desc("Also write the arguments as DIR/in<i>.npy (with "
                      "--random-inputs, to replay the same call elsewhere)"),
             cl::value_desc("dir"));
cl::opt<bool> printResults(cl::cat(category), "print",
                           cl::desc("Print results (the default when no "
                                    "--output-dir is given)"));
cl::list<std::string> expected(
    cl::cat(category), "expect",
    cl::desc("Check the results, in order, against these .npy files: same "
             "dtype and shape, |got - want| <= atol + rtol * |want| (NaN "
             "matches NaN); a mismatch is an error"),
    cl::value_desc("file.npy"));
cl::opt<double> rtol(cl::cat(category), "rtol",
                     cl::desc("Relative tolerance of --expect"),
                     cl::init(1e-5));
cl::opt<double> atol(cl::cat(category), "atol",
                     cl::desc("Absolute tolerance of --expect"),
                     cl::init(1e-6));
// Not "threads": libLLVM registers an option of that name.
cl::opt<unsigned>
    threads(cl::cat(category), "cpu-threads",
            cl::desc("Threads for --backend=cpu (default: one per core)"),
            cl::init(0));
cl::opt<bool>
    printSummary(cl::cat(category), "summary",
                 cl::desc("Print each result's type, minimum, mean and "
                          "maximum instead of its values"));
cl::opt<Target> backend(
    cl::cat(category), "backend", cl::desc("Where to run the function"),
    cl::values(
        clEnumValN(Target::Interpreter, "interp", "the reference interpreter"),
        clEnumValN(Target::Cpu, "cpu", "native code JIT-compiled through LLVM"),
        clEnumValN(Target::CudaEmu, "cuda-emu",
                   "CUDA kernels emulated on the host CPU"),
        clEnumValN(Target::Cuda, "cuda", "CUDA kernels on a GPU")),
    cl::init(Target::Interpreter));

int fail(const llvm::Twine &message) {
  llvm::WithColor::error(llvm::errs(), "ens-run") << message << "\n";
  return 1;
}

int fail(llvm::Error error) { return fail(llvm::toString(std::move(error))); }

/// Deterministic pseudo-random arguments for `type`'s inputs, each of which
/// checkTensorType accepts.
std::vector<HostTensor> makeRandomArguments(FunctionType type, unsigned seed) {
  std::mt19937 engine(seed);
  std::vector<HostTensor> args;
  for (Type input : type.getInputs()) {
    auto tensorType = cast<RankedTensorType>(input);
    HostTensor tensor(*getDType(tensorType.getElementType()),
                      tensorType.getShape());
    for (double &value : tensor.values) {
      // Spelled out rather than std::uniform_real_distribution, whose
      // output differs between standard libraries.
      double unit = (engine() >> 5) * (1.0 / (1u << 27));
      value = tensor.dtype == DType::I32  ? std::floor(unit * 8)
              : tensor.dtype == DType::I1 ? (unit < 0.5)
                                          : 2 * unit - 1;
    }
    tensor.roundToDType();
    args.push_back(std::move(tensor));
  }
  return args;
}

void printSummaryOf(const HostTensor &tensor) {
  if (tensor.values.empty()) {
    llvm::outs() << "(empty)";
    return;
  }
  auto [min, max] =
      std::minmax_element(tensor.values.begin(), tensor.values.end());
  double sum = 0;
  for (double value : tensor.values)
    sum += value;
  llvm::outs() << llvm::format("min %.6g mean %.6g max %.6g", *min,
                               sum / tensor.values.size(), *max);
}

/// Checks `result` against the tensor in `path`; the message says where
/// and by how much they differ.
llvm::Error checkExpected(size_t index, const HostTensor &result,
                          StringRef path) {
  llvm::Expected<HostTensor> want = readNpy(path);
  if (!want)
    return want.takeError();
  auto error = [&](const llvm::Twine &message) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "result " + llvm::Twine(index) + " " +
                                       message);
  };
  if (want->dtype != result.dtype || want->shape != result.shape)
    return error("is " + result.getTypeString() + " but " + path + " holds " +
                 want->getTypeString());
  int64_t mismatches = 0, first = -1;
  for (int64_t i = 0, e = result.getNumElements(); i < e; ++i) {
    double got = result.values[i], expected = want->values[i];
    bool same = (std::isnan(got) && std::isnan(expected)) || got == expected ||
                std::fabs(got - expected) <= atol + rtol * std::fabs(expected);
    if (!same && mismatches++ == 0)
      first = i;
  }
  if (!mismatches)
    return llvm::Error::success();
  std::string message;
  llvm::raw_string_ostream os(message);
  os << "differs from " << path << " in " << mismatches << " of "
     << result.getNumElements() << " elements; first at flat index " << first
     << llvm::format(": got %.9g, expected %.9g (rtol %g, atol %g)",
                     result.values[first], want->values[first], double(rtol),
                     double(atol));
  return error(message);
}

cl::opt<int64_t> maxBufferBytes(
    cl::cat(category), "max-buffer-bytes",
    cl::desc("The largest buffer compiled code may allocate, and the most a "
             "CUDA launch plan may take in all (default: half of physical "
             "memory, at most half of the address-space limit, or "
             "$ENS_MAX_BUFFER_BYTES)"),
    cl::value_desc("BYTES"), cl::init(0));

cl::opt<std::string> cudaDump(
    cl::cat(category), "cuda-dump", cl::Hidden,
    cl::desc("With --backend=cuda-emu, write the CUDA source, launch plan, "
             "and NVRTC logs and CUBINs for sm_80 and sm_90 to DIR; with "
             "--kernel-report, the source and the sm_90 CUBIN it reports"),
    cl::value_desc("DIR"));
cl::opt<std::string> cudaCompile(
    cl::cat(category), "cuda-nvrtc-compile", cl::Hidden,
    cl::desc("Compile the CUDA source FILE with NVRTC for sm_90, print its "
             "log and exit"),
    cl::value_desc("FILE"));

cl::opt<bool> cudaGraph(
    cl::cat(category), "cuda-graph",
    cl::desc("With --backend=cuda, capture the kernel launches into a CUDA "
             "graph and replay it"));

// The CUDA backend's GPU decisions (docs/cuda.md, "The launch plan").
cl::opt<bool> cudaPlan(
    cl::cat(category), "cuda-plan",
    cl::desc("Print the CUDA plan of each loop over members (strategy, "
             "threads, temporaries, staged operands, reductions) instead of "
             "running the function"));
cl::opt<std::string>
    cudaStrategy(cl::cat(category), "cuda-strategy",
                 cl::desc("How CUDA kernels share out loops over members: "
                          "auto (the default: the performance model picks "
                          "per loop), member-per-block, tiled or "
                          "members-per-block"),
                 cl::value_desc("name"), cl::init("auto"));
cl::opt<std::string> cudaGemm(
    cl::cat(category), "cuda-gemm",
    cl::desc("Who computes contractions that are matrix products: auto (the "
             "default: the performance model picks), generated (kernels) or "
             "cublas (vendor GEMM steps of the plan)"),
    cl::value_desc("name"), cl::init("auto"));

cl::opt<std::string> gpuPrecision(
    cl::cat(category), "gpu-precision",
    cl::desc("How CUDA contractions compute their products: f32 (the "
             "default: FP32 FMAs), tf32 (TF32 tensor cores) or 3xtf32 "
             "(three TF32 products each, about f32's accuracy)"),
    cl::value_desc("name"), cl::init("f32"));

/// What --cuda-strategy, --cuda-gemm and --gpu-precision name, parsed
/// once by main.
cuda::CodegenOptions codegenOptions;

/// The CUDA program of `entry`, with the options of the command line.
llvm::Expected<cuda::CudaProgram> generateCudaProgram(ModuleOp module,
                                                      func::FuncOp entry) {
  return cuda::generateCuda(module, entry.getSymName(), maxBufferBytes,
                            codegenOptions);
}

/// Prints the CUDA plan of `entry`.
llvm::Error printCudaPlan(ModuleOp module, func::FuncOp entry) {
  llvm::Expected<cuda::CudaProgram> program =
      generateCudaProgram(module, entry);
  if (!program)
    return program.takeError();
  llvm::outs() << cuda::printKernelConfigs(*program);
  return llvm::Error::success();
}

enum class ReportFormat { None, Table, Json };
cl::opt<ReportFormat> kernelReport(
    cl::cat(category), "kernel-report",
    cl::desc("Print the CUDA kernel report of the function (kernels, "
             "launches, FLOPs, global-memory traffic; registers, spills and "
             "occupancy for sm_90 when NVRTC is available) instead of "
             "running it"),
    cl::values(clEnumValN(ReportFormat::Table, "table", "a table"),
               clEnumValN(ReportFormat::Json, "json", "JSON")),
    cl::init(ReportFormat::None));

/// Prints the kernel report of `entry`.
llvm::Error printKernelReport(ModuleOp module, func::FuncOp entry) {
  llvm::Expected<cuda::CudaProgram> program =
      generateCudaProgram(module, entry);
  if (!program)
    return program.takeError();
  std::optional<cuda::CompiledCuda> compiled;
  if (cuda::isNvrtcAvailable()) {
    llvm::Expected<cuda::CompiledCuda> sm90 = cuda::compileWithNvrtc(
        program->source, (entry.getSymName() + ".cu").str(), "sm_90");
    if (!sm90)
      return sm90.takeError();
    compiled = std::move(*sm90);
  }
  // The source and the CUBIN the report describes, for ens-sass
  // (test/Backend/Cuda/model-vs-sass.test).
  if (!cudaDump.empty()) {
    llvm::sys::fs::create_directories(cudaDump);
    std::string base = (cudaDump + "/" + entry.getSymName()).str();
    auto write = [](const std::string &path, StringRef text) {
      std::error_code ec;
      llvm::raw_fd_ostream os(path, ec);
      os << text;
      return ec;
    };
    if (std::error_code ec = write(base + ".cu", program->source))
      return llvm::createStringError(ec, "cannot write " + base + ".cu");
    if (compiled)
      if (std::error_code ec = write(base + ".sm_90.cubin", compiled->image))
        return llvm::createStringError(ec, "cannot write the CUBIN");
  }
  const cuda::CompiledCuda *log = compiled ? &*compiled : nullptr;
  llvm::outs() << (kernelReport == ReportFormat::Json
                       ? cuda::formatKernelReportJson(*program, log)
                       : cuda::formatKernelReport(*program, log));
  return llvm::Error::success();
}

/// The options of every target, from the command line.
ExecutableOptions getExecutableOptions() {
  ExecutableOptions options;
  options.maxBufferBytes = maxBufferBytes;
  options.cpu.threads = threads;
  options.cuda.dumpDirectory = cudaDump;
  options.cuda.checkWithNvrtc = true;
  options.cuda.useGraph = cudaGraph;
  options.cuda.codegen = codegenOptions;
  return options;
}

/// Runs `entry` on the chosen backend.
llvm::Expected<std::vector<HostTensor>> run(ModuleOp module, func::FuncOp entry,
                                            ArrayRef<HostTensor> args) {
  llvm::Expected<std::unique_ptr<Executable>> executable = compileExecutable(
      module, entry.getSymName(), backend, getExecutableOptions());
  if (!executable)
    return executable.takeError();
  return (*executable)->run(args);
}

/// Reads the array that `spec` names: a .npy file, or FILE.npz:NAME, the
/// array NAME of a .npz file (as np.savez writes it).
llvm::Expected<HostTensor> readInput(StringRef spec) {
  size_t npz = spec.rfind(".npz:");
  if (npz == StringRef::npos)
    return readNpy(spec);
  StringRef path = spec.take_front(npz + 4), name = spec.drop_front(npz + 5);
  llvm::Expected<std::vector<NamedArray>> arrays = readNpz(path);
  if (!arrays)
    return arrays.takeError();
  std::string names;
  for (auto &[arrayName, array] : *arrays) {
    if (arrayName == name)
      return std::move(array);
    names += (names.empty() ? "" : ", ") + arrayName;
  }
  return llvm::createStringError(
      llvm::inconvertibleErrorCode(),
      path + " has no array named '" + name + "' (it has " +
          (names.empty() ? std::string("none") : names) + ")");
}

/// Writes `tensors` as DIR/<prefix><i>.npy, if `dir` is not empty.
llvm::Error writeTensors(StringRef dir, StringRef prefix,
                         ArrayRef<HostTensor> tensors) {
  if (dir.empty())
    return llvm::Error::success();
  if (std::error_code ec = llvm::sys::fs::create_directories(dir))
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "cannot create '" + dir +
                                       "': " + ec.message());
  for (auto [i, tensor] : llvm::enumerate(tensors)) {
    llvm::SmallString<128> path(dir);
    llvm::sys::path::append(path, prefix + std::to_string(i) + ".npy");
    if (llvm::Error error = writeNpy(path, tensor))
      return error;
  }
  return llvm::Error::success();
}

/// Specializes the entry of `module` (if it has one) when its program has
/// `?` sizes: to the types of `inputs`, or else to its own argument types.
/// The later steps report a missing entry or wrong inputs as before.
llvm::Error specializeEntry(ModuleOp module, ArrayRef<HostTensor> inputs) {
  std::string ignored;
  FailureOr<func::FuncOp> entry =
      findEntryFunction(module, entryName, inputFile, ignored);
  if (failed(entry))
    return llvm::Error::success();
  StringRef name = entry->getSymName();
  llvm::Error dynamic = checkStaticShapes(module, name);
  if (!dynamic)
    return llvm::Error::success();
  SmallVector<Type> types(entry->getArgumentTypes());
  if (!inputs.empty()) {
    types.clear();
    for (const HostTensor &input : inputs)
      types.push_back(RankedTensorType::get(
          input.shape, getElementType(module.getContext(), input.dtype)));
  } else if (llvm::any_of(types, hasUnknownSizes)) {
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        llvm::toString(std::move(dynamic)) +
            "; --random-inputs cannot choose a size: give one --input per "
            "argument");
  }
  llvm::consumeError(std::move(dynamic));
  if (failed(specializeEntryInPlace(module, name, types)))
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "cannot specialize @" + name +
                                       " to the types of its arguments");
  return llvm::Error::success();
}

} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  // Past a file-size limit (ulimit -f), a write then fails with EFBIG and is
  // reported like a full disk, instead of SIGXFSZ killing the run.
  std::signal(SIGXFSZ, SIG_IGN);
  hideUnrelatedOptions(&category);
  registerDebugOptions();
  cl::ParseCommandLineOptions(argc, argv,
                              "Run an ens function on .npy inputs\n");
  if (maxBufferBytes < 0) {
    llvm::WithColor::error() << "--max-buffer-bytes must not be negative\n";
    return 1;
  }
  llvm::Expected<cuda::CodegenOptions> codegen = cuda::parseCodegenOptions(
      cudaStrategy, cudaGemm, gpuPrecision, /*nameFlags=*/true);
  if (!codegen)
    return fail(llvm::toString(codegen.takeError()));
  codegenOptions = *codegen;
  if (!cudaCompile.empty()) {
    auto source = llvm::MemoryBuffer::getFile(cudaCompile);
    if (!source) {
      llvm::WithColor::error() << "cannot read " << cudaCompile << "\n";
      return 1;
    }
    llvm::Expected<cuda::CompiledCuda> compiled =
        cuda::compileWithNvrtc((*source)->getBuffer(),
                               llvm::sys::path::filename(cudaCompile), "sm_90");
    if (!compiled) {
      llvm::WithColor::error() << llvm::toString(compiled.takeError()) << "\n";
      return 1;
    }
    llvm::outs() << compiled->log;
    return 0;
  }

  DialectRegistry registry;
  registerAllDialects(registry);
  registerCpuBackendDialects(registry);
  MLIRContext context(registry);

  std::string errorMessage;
  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);
  OwningOpRef<ModuleOp> module =
      parseProgramFile(inputFile, sourceMgr, &context, errorMessage);
  if (!module)
    return fail(errorMessage);

  if (randomSeed.getNumOccurrences() && !inputs.empty())
    return fail("give either --input files or --random-inputs, not both");
  std::vector<HostTensor> args;
  for (const std::string &spec : inputs) {
    llvm::Expected<HostTensor> tensor = readInput(spec);
    if (!tensor)
      return fail(tensor.takeError());
    args.push_back(std::move(*tensor));
  }
  if (llvm::Error error = specializeEntry(*module, args))
    return fail(std::move(error));

  PassManager lowering(&context);
  // The interpreter runs ens.vmap by its definition, member by member.
  EnsFrontPipelineOptions front;
  front.batch = false;
  buildEnsFrontPipeline(lowering, front);
  if (failed(lowering.run(*module)))
    return fail("cannot prepare " + inputFile + " for the interpreter");

  FailureOr<func::FuncOp> entry =
      findEntryFunction(*module, entryName, inputFile, errorMessage);
  if (failed(entry))
    return fail(errorMessage);
  if (cudaPlan) {
    if (llvm::Error failure = printCudaPlan(*module, *entry))
      return fail(std::move(failure));
    return 0;
  }
  if (kernelReport != ReportFormat::None) {
    if (llvm::Error failure = printKernelReport(*module, *entry))
      return fail(std::move(failure));
    return 0;
  }

  if (randomSeed.getNumOccurrences()) {
    for (auto [i, type] : llvm::enumerate(entry->getFunctionType().getInputs()))
      if (llvm::Error error = checkTensorType(type))
        return fail("@" + entry->getSymName() + " argument " + llvm::Twine(i) +
                    ": " + llvm::toString(std::move(error)) +
                    "; --random-inputs cannot fill it");
    args = makeRandomArguments(entry->getFunctionType(), randomSeed);
  }
  if (llvm::Error error = checkArguments(entry->getFunctionType(), args))
    return fail("@" + entry->getSymName() + " " +
                llvm::toString(std::move(error)) +
                " (one --input per "
                "argument, in order)");

  llvm::Expected<std::vector<HostTensor>> results = run(*module, *entry, args);
  if (!results)
    return fail(results.takeError());

  if (!expected.empty() && expected.size() != results->size())
    return fail(llvm::formatv("@{0} returns {1} results but --expect names "
                              "{2} files",
                              entry->getSymName(), results->size(),
                              expected.size())
                    .str());
  for (auto [i, path] : llvm::enumerate(expected))
    if (llvm::Error error = checkExpected(i, (*results)[i], path))
      return fail(std::move(error));

  for (auto [dir, prefix, tensors] :
       {std::tuple(StringRef(inputDir), "in", ArrayRef(args)),
        std::tuple(StringRef(outputDir), "out", ArrayRef(*results))})
    if (llvm::Error error = writeTensors(dir, prefix, tensors))
      return fail(std::move(error));
  if (printResults || printSummary || (outputDir.empty() && expected.empty())) {
    for (auto [i, result] : llvm::enumerate(*results)) {
      llvm::outs() << "out" << i << " = " << result.getTypeString() << " ";
      if (printSummary)
        printSummaryOf(result);
      else
        printHostTensor(llvm::outs(), result);
      llvm::outs() << "\n";
    }
  }
  return 0;
}
