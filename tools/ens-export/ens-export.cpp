//===- ens-export.cpp - Compile an ens function into an artifact ----------===//
//
// Compiles one function ahead of time into an artifact that libens-runtime
// runs without the compiler (docs/runtime.md):
//
//   ens-export model.mlir --entry=step --target=cuda --arch=sm_80,sm_90 \
//       -o step.ens
//
//===----------------------------------------------------------------------===//

#include "ens/Backend/CpuBackend.h"
#include "ens/Backend/Export.h"
#include "ens/InitAllDialects.h"
#include "ens/Parser/Parser.h"
#include "ens/Support/CommandLine.h"
#include "ens/Support/FileSystem.h"
#include "ens/Support/SourceLimits.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/WithColor.h"

#include <csignal>

using namespace mlir;
using namespace mlir::ens;
namespace cl = llvm::cl;
namespace rt = ::ens::runtime;

namespace {
cl::OptionCategory category("ens-export options");

cl::opt<std::string> inputFile(cl::cat(category), cl::Positional,
                               cl::desc("<program.mlir>"), cl::Required);
cl::opt<std::string> outputFile(cl::cat(category), "o",
                                cl::desc("The artifact to write"),
                                cl::value_desc("file.ens"), cl::Required);
cl::opt<std::string>
    entryName(cl::cat(category), "entry",
              cl::desc("Function to export (default: the only function)"),
              cl::value_desc("name"));
cl::opt<rt::ArtifactTarget> target(
    cl::cat(category), "target", cl::desc("What the artifact runs on"),
    cl::values(clEnumValN(rt::ArtifactTarget::Cuda, "cuda",
                          "NVIDIA GPUs: CUBIN and PTX with a launch plan"),
               clEnumValN(rt::ArtifactTarget::Cpu, "cpu",
                          "this kind of CPU: a shared object")),
    cl::init(rt::ArtifactTarget::Cuda));
cl::opt<std::string>
    archs(cl::cat(category), "arch",
          cl::desc("For cuda: the architectures to carry CUBIN for, "
                   "comma-separated; PTX for the oldest comes too"),
          cl::value_desc("sm_80,sm_90"), cl::init("sm_80,sm_90"));
cl::opt<bool>
    emulator(cl::cat(category), "emulator",
             cl::desc("For cuda: also carry the host build of the kernels, "
                      "so that ens-replay --backend=cuda-emu can run it"));
cl::opt<std::string>
    cudaStrategy(cl::cat(category), "cuda-strategy",
                 cl::desc("How CUDA kernels share out loops over members: "
                          "auto (the default), member-per-block, tiled or "
                          "members-per-block"),
                 cl::value_desc("name"), cl::init("auto"));
cl::opt<std::string>
    cudaGemm(cl::cat(category), "cuda-gemm",
             cl::desc("Who computes contractions that are matrix products: "
                      "auto (the default), generated or cublas"),
             cl::value_desc("name"), cl::init("auto"));
cl::opt<std::string> gpuPrecision(
    cl::cat(category), "gpu-precision",
    cl::desc("How CUDA contractions compute their products: f32 (the "
             "default), tf32 or 3xtf32"),
    cl::value_desc("name"), cl::init("f32"));
cl::opt<int64_t> maxBufferBytes(
    cl::cat(category), "max-buffer-bytes",
    cl::desc("The largest buffer the code may allocate, and the most a CUDA "
             "launch plan may take in all (default: as ens-run's)"),
    cl::value_desc("BYTES"), cl::init(0));

int fail(const llvm::Twine &message) {
  llvm::WithColor::error(llvm::errs(), "ens-export") << message << "\n";
  return 1;
}
} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  // Past a file-size limit, a write fails like a full disk instead of
  // SIGXFSZ killing the run.
  std::signal(SIGXFSZ, SIG_IGN);
  hideUnrelatedOptions(&category);
  cl::ParseCommandLineOptions(argc, argv,
                              "Compile an ens function into an artifact\n");
  if (maxBufferBytes < 0)
    return fail("--max-buffer-bytes must not be negative");

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
  FailureOr<func::FuncOp> entry =
      findEntryFunction(*module, entryName, inputFile, errorMessage);
  if (failed(entry))
    return fail(errorMessage);

  ExportOptions options;
  options.target = target;
  options.archs.clear();
  for (StringRef arch : llvm::split(archs, ","))
    options.archs.push_back(arch.trim().str());
  options.emulator = emulator;
  options.compile.maxBufferBytes = maxBufferBytes;
  llvm::Expected<cuda::CodegenOptions> codegen = cuda::parseCodegenOptions(
      cudaStrategy, cudaGemm, gpuPrecision, /*nameFlags=*/true);
  if (!codegen)
    return fail(llvm::toString(codegen.takeError()));
  options.compile.cuda.codegen = *codegen;
  llvm::Expected<rt::Artifact> artifact =
      exportFunction(*module, entry->getSymName(), options);
  if (!artifact)
    return fail(llvm::toString(artifact.takeError()));
  if (llvm::Error failure =
          toLlvmError(rt::writeArtifact(outputFile, *artifact)))
    return fail(llvm::toString(std::move(failure)));
  return 0;
}
