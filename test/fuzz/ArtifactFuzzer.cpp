//===- ArtifactFuzzer.cpp - Fuzz the runtime's artifact reader ------------===//
//
// Feeds the input, as the bytes of an artifact, to parseArtifact, which
// libens-runtime runs on every file it loads. The properties: no crash or
// unbounded allocation; an artifact it accepts is written again to bytes
// that it reads back to the same artifact (serializing twice gives the
// same bytes).
//
//===----------------------------------------------------------------------===//

#include "ens/Runtime/Artifact.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>

using namespace ens::runtime;

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
  return 0;
}
