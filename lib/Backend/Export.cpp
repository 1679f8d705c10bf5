//===- Export.cpp - Compiled functions as runtime artifacts ---------------===//
//
// A cuda artifact is the CUDA program of the function: its launch plan,
// CUBIN for each requested architecture and PTX for the oldest, compiled
// by NVRTC from the same source as the JIT's, the source itself, and, on
// request, the emulator's host build of it. A cpu artifact is the CPU
// backend's code compiled ahead of time into a shared object.
//
//===----------------------------------------------------------------------===//

#include "ens/Backend/Export.h"

#include "ens/Backend/CpuBackend.h"
#include "ens/Backend/Cuda/Codegen.h"
#include "ens/Backend/Cuda/Emulator.h"
#include "ens/Backend/Cuda/Nvrtc.h"
#include "ens/Dialect/Ens/Transforms/Specialize.h"
#include "ens/Runtime/Runner.h"
#include "ens/Support/TensorTypes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TargetParser/Host.h"

using namespace mlir;
using namespace mlir::ens;
namespace rt = ::ens::runtime;

static llvm::Error error(const Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

/// The SHA-256 of `module` as printed, in hex.
static std::string hashModule(ModuleOp module) {
  std::string text;
  llvm::raw_string_ostream os(text);
  module->print(os, OpPrintingFlags().printGenericOpForm());
  std::array<uint8_t, 32> hash = llvm::SHA256::hash(
      ArrayRef(reinterpret_cast<const uint8_t *>(text.data()), text.size()));
  return llvm::toHex(hash, /*LowerCase=*/true);
}

/// Fills the sections and plan of a cuda artifact.
static llvm::Error exportCuda(ModuleOp module, StringRef entry,
                              const ExportOptions &options,
                              rt::Artifact &artifact) {
  if (options.archs.empty())
    return error("a cuda artifact needs at least one architecture");
  llvm::Expected<cuda::CudaProgram> program =
      cuda::generateCuda(module, entry, options.compile.maxBufferBytes,
                         options.compile.cuda.codegen);
  if (!program)
    return program.takeError();
  std::string name = (entry + ".cu").str();
  unsigned oldest = ~0u;
  for (const std::string &arch : options.archs) {
    unsigned version = 0;
    StringRef digits = arch;
    if (!digits.consume_front("sm_") || digits.getAsInteger(10, version))
      return error("'" + arch + "' is not a GPU architecture (sm_80, sm_90)");
    oldest = std::min(oldest, version);
    llvm::Expected<cuda::CompiledCuda> compiled =
        cuda::compileWithNvrtc(program->source, name, arch);
    if (!compiled)
      return compiled.takeError();
    artifact.sections[rt::section::cubin(arch)] = std::move(compiled->image);
  }
  std::string virtualArch = "compute_" + std::to_string(oldest);
  llvm::Expected<cuda::CompiledCuda> ptx =
      cuda::compileWithNvrtc(program->source, name, virtualArch);
  if (!ptx)
    return ptx.takeError();
  artifact.sections[rt::section::ptx(virtualArch)] = std::move(ptx->image);
  artifact.sections[rt::section::kCudaSource] = program->source;
  if (options.emulator) {
    llvm::Expected<std::string> object = cuda::buildEmulatorObject(*program);
    if (!object)
      return object.takeError();
    artifact.sections[rt::section::kEmulatorObject] = std::move(*object);
  }
  artifact.plan = std::move(program->plan);
  const cuda::CodegenOptions &codegen = options.compile.cuda.codegen;
  artifact.options["cuda-strategy"] =
      codegen.strategy ? cuda::stringifyStrategy(*codegen.strategy).str()
                       : "auto";
  artifact.options["cuda-gemm"] = cuda::stringifyGemmChoice(codegen.gemm).str();
  artifact.options["gpu-precision"] =
      cuda::stringifyPrecision(codegen.precision).str();
  artifact.options["arch"] = llvm::join(options.archs, ",");
  artifact.options["emulator"] = options.emulator ? "yes" : "no";
  return llvm::Error::success();
}

/// Fills the section of a cpu artifact: the code for this host, and the
/// host's features that the runtime checks before it runs the code.
static llvm::Error exportCpu(ModuleOp module, StringRef entry,
                             const ExportOptions &options,
                             rt::Artifact &artifact) {
  CpuOptions cpuOptions;
  cpuOptions.threads = options.compile.cpu.threads;
  cpuOptions.maxBufferBytes = options.compile.maxBufferBytes;
  llvm::Expected<std::string> object =
      cpu::compileCpuObject(module, entry, cpuOptions);
  if (!object)
    return object.takeError();
  artifact.sections[rt::section::kCpuObject] = std::move(*object);
  // The code is compiled for this host's CPU, as the JIT's is.
  llvm::StringMap<bool> hostFeatures = llvm::sys::getHostCPUFeatures();
  std::vector<std::string> features;
  for (const std::string &feature : rt::getCheckableCpuFeatures())
    if (hostFeatures.lookup(feature))
      features.push_back(feature);
  artifact.options["cpu"] = llvm::sys::getHostCPUName().str();
  artifact.options["cpu-features"] = llvm::join(features, ",");
  artifact.options["cpu-threads"] = std::to_string(cpuOptions.threads);
  return llvm::Error::success();
}

llvm::Expected<rt::Artifact>
mlir::ens::exportFunction(ModuleOp module, StringRef entry,
                          const ExportOptions &options) {
  auto function = module.lookupSymbol<func::FuncOp>(entry);
  if (!function)
    return error("no function @" + entry + " to export");
  if (llvm::Error dynamic = checkStaticShapes(module, entry))
    return std::move(dynamic);
  rt::Artifact artifact;
  artifact.target = options.target;
  artifact.entry = entry.str();
  artifact.sourceHash = hashModule(module);
  artifact.producer = "ens " ENS_VERSION;
  artifact.options["max-buffer-bytes"] =
      std::to_string(options.compile.maxBufferBytes);
  llvm::Expected<rt::Signature> signature =
      getRuntimeSignature(function.getFunctionType());
  if (!signature)
    return signature.takeError();
  artifact.signature = std::move(*signature);
  llvm::Error failure = options.target == rt::ArtifactTarget::Cpu
                            ? exportCpu(module, entry, options, artifact)
                            : exportCuda(module, entry, options, artifact);
  if (failure)
    return std::move(failure);
  return artifact;
}
