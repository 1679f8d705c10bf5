//===- ArtifactFuzzer.cpp - Fuzz the runtime's artifact reader and runners ===//
//
// Feeds the input, as the bytes of an artifact, to parseArtifact, which
// libens-runtime runs on every file it loads. The properties: no crash or
// unbounded allocation; an artifact it accepts is written again to bytes
// that it reads back to the same artifact (serializing twice gives the
// same bytes); and an accepted artifact that carries code for this host (a
// cpu artifact's object, a cuda artifact's emulator build) loads and runs on
// zeros, or fails with an error, never a stray access.
//
// Checksums reject almost every mutation of the bytes, so that mutations
// alone would test little beyond them. The custom mutator therefore
// mutates, half of the time, the manifest alone and hashes it again, as a
// forger could (issue #25): crafted metadata, over genuine code, reaches
// the runners' cross-checks against what the code declares.
//
//===----------------------------------------------------------------------===//

#include "ens/Runtime/Artifact.h"
#include "ens/Runtime/Bytes.h"
#include "ens/Runtime/Program.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>

using namespace ens::runtime;

/// libFuzzer's own mutator (absent from the replay build, which never calls
/// the custom mutator).
extern "C" size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t maxSize)
    __attribute__((weak));

namespace {
/// The artifact header: magic, version, reserved, manifest bytes, manifest
/// hash (lib/Runtime/Artifact.cpp).
constexpr size_t kHeaderBytes = 32;
/// The most bytes of arguments and results a run on zeros may take.
constexpr int64_t kMaxRunBytes = int64_t(64) << 20;

/// Mutates the manifest of the artifact in `data` in place and gives it its
/// new length and hash; 0 when `data` has no manifest to mutate.
size_t mutateManifest(uint8_t *data, size_t size, size_t maxSize) {
  if (size < kHeaderBytes || std::memcmp(data, "ENSPROG", 8) != 0)
    return 0;
  uint64_t manifestBytes = getLittleEndian64(data + 16);
  if (manifestBytes == 0 || manifestBytes > size - kHeaderBytes)
    return 0;
  // The manifest, moved to its own buffer with room to grow, then put back
  // between the header and the unchanged sections.
  size_t rest = size - kHeaderBytes - manifestBytes;
  if (maxSize < kHeaderBytes + rest + 1)
    return 0;
  size_t room = maxSize - kHeaderBytes - rest;
  std::string manifest(reinterpret_cast<char *>(data) + kHeaderBytes,
                       manifestBytes);
  std::string sections(
      reinterpret_cast<char *>(data) + kHeaderBytes + manifestBytes, rest);
  manifest.resize(std::max<size_t>(room, manifestBytes));
  size_t mutated = LLVMFuzzerMutate(reinterpret_cast<uint8_t *>(&manifest[0]),
                                    manifestBytes, room);
  std::memcpy(data + kHeaderBytes, manifest.data(), mutated);
  std::memcpy(data + kHeaderBytes + mutated, sections.data(), rest);
  putLittleEndian64(data + 16, mutated);
  putLittleEndian64(data + 24, hashFnv1a(data + kHeaderBytes, mutated));
  return kHeaderBytes + mutated + rest;
}

/// Loads `artifact` where this host can run its code and runs it once on
/// zeros; every failure must be an Error.
void runOnZeros(const Artifact &artifact) {
  Backend backend = Backend::Cpu;
  if (artifact.target == ArtifactTarget::Cuda) {
    if (!artifact.findSection(section::kEmulatorObject))
      return;
    backend = Backend::CudaEmu;
  }
  int64_t total = 0;
  std::vector<std::vector<uint8_t>> args, results;
  for (auto [specs, buffers] :
       {std::pair(&artifact.signature.args, &args),
        std::pair(&artifact.signature.results, &results)}) {
    for (const TensorSpec &spec : *specs) {
      std::optional<int64_t> bytes = getDenseBytes(spec.dtype, spec.shape);
      if (!bytes || (total += *bytes) > kMaxRunBytes)
        return;
      buffers->emplace_back(static_cast<size_t>(*bytes));
    }
  }
  Expected<std::unique_ptr<Program>> program = Program::load(artifact, backend);
  if (!program) {
    (void)program.takeError();
    return;
  }
  std::vector<const void *> in;
  std::vector<void *> out;
  for (std::vector<uint8_t> &arg : args)
    in.push_back(arg.data());
  for (std::vector<uint8_t> &result : results)
    out.push_back(result.data());
  (void)(*program)->runOnHost(in, out);
}
} // namespace

extern "C" size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size,
                                          size_t maxSize, unsigned int seed) {
  if (seed % 2 == 0)
    if (size_t mutated = mutateManifest(data, size, maxSize))
      return mutated;
  return LLVMFuzzerMutate(data, size, maxSize);
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string_view bytes(reinterpret_cast<const char *>(data), size);
  Expected<Artifact> artifact = parseArtifact(bytes, "fuzz.ens");
  if (!artifact) {
    Error failure = artifact.takeError();
    if (failure.getMessage().rfind("fuzz.ens: ", 0) != 0) {
      std::fprintf(stderr, "fuzz: an error that does not name the file: %s\n",
                   failure.getMessage().c_str());
      std::abort();
    }
    return 0;
  }
  std::string written = serializeArtifact(*artifact);
  Expected<Artifact> again = parseArtifact(written, "again.ens");
  if (!again) {
    std::fprintf(stderr, "fuzz: a written artifact does not read: %s\n",
                 again.takeError().getMessage().c_str());
    std::abort();
  }
  if (serializeArtifact(*again) != written) {
    std::fprintf(stderr, "fuzz: an artifact changed on a round trip\n");
    std::abort();
  }
  runOnZeros(*artifact);
  return 0;
}
