//===- Bytes.h - Hashes and integers in ens's binary formats ----*- C++ -*-===//
//
// The artifact format (Artifact.h) stores its lengths as little-endian
// 64-bit integers and guards its manifest and sections with FNV-1a 64-bit
// hashes; the launch plan's kernel name (Plan.h) is an FNV-1a hash of the
// plan. The writers, the readers and the artifact fuzzer's mutator share
// these definitions so that they cannot drift apart.
//
// FNV-1a guards against corruption, not against an attacker, who could as
// well write a valid artifact.
//
//===----------------------------------------------------------------------===//

#ifndef ENS_RUNTIME_BYTES_H
#define ENS_RUNTIME_BYTES_H

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace ens::runtime {

/// An FNV-1a 64-bit hash fed a byte at a time.
class Fnv1a {
public:
  void addByte(unsigned char byte) { hash = (hash ^ byte) * 0x100000001b3ull; }
  void addBytes(const void *data, size_t size) {
    const auto *bytes = static_cast<const unsigned char *>(data);
    for (size_t i = 0; i < size; ++i)
      addByte(bytes[i]);
  }
  uint64_t get() const { return hash; }

private:
  uint64_t hash = 0xcbf29ce484222325ull;
};

/// The FNV-1a 64-bit hash of `size` bytes at `data`.
inline uint64_t hashFnv1a(const void *data, size_t size) {
  Fnv1a hash;
  hash.addBytes(data, size);
  return hash.get();
}

inline uint64_t hashFnv1a(std::string_view bytes) {
  return hashFnv1a(bytes.data(), bytes.size());
}

/// Writes `value` little-endian into the 8 bytes at `out`.
inline void putLittleEndian64(void *out, uint64_t value) {
  auto *bytes = static_cast<unsigned char *>(out);
  for (int i = 0; i < 8; ++i)
    bytes[i] = static_cast<unsigned char>(value >> (8 * i));
}

/// Reads the little-endian 64-bit integer in the 8 bytes at `in`.
inline uint64_t getLittleEndian64(const void *in) {
  const auto *bytes = static_cast<const unsigned char *>(in);
  uint64_t value = 0;
  for (int i = 7; i >= 0; --i)
    value = value << 8 | bytes[i];
  return value;
}

} // namespace ens::runtime

#endif // ENS_RUNTIME_BYTES_H
