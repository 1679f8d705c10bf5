//===- Artifact.h - Exported ens programs on disk ---------------*- C++ -*-===//
//
// An artifact is one compiled function in one file, written by ens-export
// (or ens::Executable::save) and run by the runtime without the compiler.
// docs/runtime.md describes the format:
//
//   bytes 0-7    the magic "ENSPROG\0"
//   bytes 8-11   the format version, little-endian (kArtifactVersion, or
//                kArtifactVersionWithoutGemms)
//   bytes 12-15  zero
//   bytes 16-23  the manifest's length N
//   bytes 24-31  the manifest's FNV-1a 64-bit hash
//   bytes 32-    the manifest, N bytes of JSON, then the sections
//
// The manifest gives the target, the entry, the signature, the options the
// program was compiled with, a hash of its source, the launch plan of a
// CUDA program, and where each section lies with its own hash. Sections
// hold the binary parts: CUBIN per architecture, PTX, the CUDA source, the
// host build of that source for the emulator, the constants, the CPU
// code. Every byte is accounted for: a file that is truncated, extended,
// corrupt or of another version is rejected with a message that says so.
//
//===----------------------------------------------------------------------===//

#ifndef ENS_RUNTIME_ARTIFACT_H
#define ENS_RUNTIME_ARTIFACT_H

#include "ens/Runtime/Error.h"
#include "ens/Runtime/Plan.h"

#include <cstdint>
#include <map>
#include <string>
#include <string_view>

namespace ens::runtime {

/// The newest version of the artifact format, which this runtime reads
/// and writes: version 2 is version 1 with vendor GEMM steps in the plan.
/// A runtime that reads version 1 only would skip those steps and compute
/// wrong results, so an artifact whose plan has them is version 2, and any
/// other stays version 1, which older runtimes still run.
constexpr uint32_t kArtifactVersion = 2;

/// The version of artifacts whose plan has no vendor GEMM steps.
constexpr uint32_t kArtifactVersionWithoutGemms = 1;

/// The largest artifact the runtime reads.
constexpr int64_t kMaxArtifactBytes = int64_t(1) << 30;

/// What an artifact's code runs on.
enum class ArtifactTarget { Cpu, Cuda };

/// "cpu" or "cuda".
const char *getArtifactTargetName(ArtifactTarget target);

/// The names of the sections ens writes.
namespace section {
/// The CUDA C++ source of a CUDA program.
constexpr const char *kCudaSource = "kernels.cu";
/// The host build of that source, run by the emulator (cuda-emu).
constexpr const char *kEmulatorObject = "emulator.so";
/// The initial bytes of the launch plan's constants, back to back.
constexpr const char *kConstants = "constants";
/// A CPU program's code: a shared object for the host.
constexpr const char *kCpuObject = "cpu.so";
/// CUBIN for an architecture, e.g. "sm_90.cubin".
std::string cubin(std::string_view arch);
/// PTX for a virtual architecture, e.g. "compute_90.ptx".
std::string ptx(std::string_view arch);
} // namespace section

/// One exported function.
struct Artifact {
  ArtifactTarget target = ArtifactTarget::Cuda;
  /// The function's name in its module.
  std::string entry;
  Signature signature;
  /// The options it was compiled with, by name ("cuda-strategy": "auto").
  std::map<std::string, std::string> options;
  /// The SHA-256 of the source program, in hex.
  std::string sourceHash;
  /// Who wrote it: "ens 0.1.0".
  std::string producer;
  /// For ArtifactTarget::Cuda: the buffers and launches. The constants'
  /// bytes travel in the kConstants section.
  LaunchPlan plan;
  /// The binary parts, by name (see `section`).
  std::map<std::string, std::string> sections;

  /// The section `name`, or null.
  const std::string *findSection(const std::string &name) const;
};

/// The bytes of `artifact` in the format above.
std::string serializeArtifact(const Artifact &artifact);

/// Decodes and checks an artifact. Messages start with `nameForErrors`.
Expected<Artifact> parseArtifact(std::string_view bytes,
                                 const std::string &nameForErrors);

/// Reads the artifact at `path`: a regular file of at most
/// kMaxArtifactBytes.
Expected<Artifact> readArtifact(const std::string &path);

/// Writes `artifact` to `path` atomically: to a new temporary file in the
/// same directory, synced, then renamed over `path`. A failure (a full
/// disk, say) leaves the previous file, or none.
Error writeArtifact(const std::string &path, const Artifact &artifact);

} // namespace ens::runtime

#endif // ENS_RUNTIME_ARTIFACT_H
