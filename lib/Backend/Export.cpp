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

#include "ens/Backend/Cuda/Codegen.h"
#include "ens/Backend/Cuda/Emulator.h"
#include "ens/Backend/Cuda/Nvrtc.h"
#include "ens/Support/TensorTypes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/raw_ostream.h"

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
  std::optional<cuda::StrategyChoice> strategy =
      cuda::parseStrategyChoice(options.compile.cuda.strategy);
  if (!strategy)
    return error("unknown CUDA strategy '" + options.compile.cuda.strategy +
                 "' (known: " + cuda::getStrategyNames() + ")");
  if (options.archs.empty())
    return error("a cuda artifact needs at least one architecture");
  llvm::Expected<cuda::CudaProgram> program = cuda::generateCuda(
      module, entry, options.compile.maxBufferBytes, *strategy);
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
  artifact.options["cuda-strategy"] = options.compile.cuda.strategy.empty()
                                          ? "auto"
                                          : options.compile.cuda.strategy;
  artifact.options["arch"] = llvm::join(options.archs, ",");
  artifact.options["emulator"] = options.emulator ? "yes" : "no";
  return llvm::Error::success();
}

llvm::Expected<rt::Artifact>
mlir::ens::exportFunction(ModuleOp module, StringRef entry,
                          const ExportOptions &options) {
  auto function = module.lookupSymbol<func::FuncOp>(entry);
  if (!function)
    return error("no function @" + entry + " to export");
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
  if (options.target == rt::ArtifactTarget::Cpu)
    return error("cpu artifacts are not supported yet");
  if (llvm::Error failure = exportCuda(module, entry, options, artifact))
    return std::move(failure);
  return artifact;
}
