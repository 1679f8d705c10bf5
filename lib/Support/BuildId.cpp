//===- BuildId.cpp - The build of loaded code -----------------------------===//
//
// dl_iterate_phdr visits every loaded object; the one whose loadable
// segments hold the address is searched for the note, which the linker
// (--build-id, the default of Debian's toolchains) puts in a PT_NOTE
// segment.
//
//===----------------------------------------------------------------------===//

#include "ens/Support/BuildId.h"

#include <cstdint>
#include <cstring>
#include <elf.h>
#include <link.h>

using namespace mlir::ens;

namespace {
/// The search: in, the address; out, the note's bytes in hex.
struct Search {
  uintptr_t address;
  std::string id;
};
} // namespace

/// The build ID in the note segment at `notes` of `size` bytes, whose notes
/// are aligned to `alignment` bytes, in hex, or empty.
static std::string findBuildIdNote(const char *notes, size_t size,
                                   size_t alignment) {
  static const char kHex[] = "0123456789abcdef";
  // Each note: a header, then the name and the descriptor, each padded to
  // the segment's alignment (4 bytes, or 8 for the property notes).
  size_t mask = alignment == 8 ? 7 : 3;
  auto align = [mask](size_t bytes) { return (bytes + mask) & ~mask; };
  size_t offset = 0;
  while (offset + sizeof(ElfW(Nhdr)) <= size) {
    ElfW(Nhdr) header;
    std::memcpy(&header, notes + offset, sizeof(header));
    size_t name = offset + sizeof(header);
    size_t descriptor = name + align(header.n_namesz);
    size_t next = descriptor + align(header.n_descsz);
    if (next > size)
      break;
    if (header.n_type == NT_GNU_BUILD_ID && header.n_namesz == 4 &&
        std::memcmp(notes + name, "GNU", 4) == 0) {
      std::string id;
      for (size_t i = 0; i < header.n_descsz; ++i) {
        auto byte = static_cast<unsigned char>(notes[descriptor + i]);
        id += kHex[byte >> 4];
        id += kHex[byte & 15];
      }
      return id;
    }
    offset = next;
  }
  return std::string();
}

/// dl_iterate_phdr's callback: stops (returns 1) at the object that holds
/// the address.
static int visitObject(struct dl_phdr_info *info, size_t, void *data) {
  auto *search = static_cast<Search *>(data);
  bool contains = false;
  for (ElfW(Half) i = 0; i < info->dlpi_phnum && !contains; ++i) {
    const ElfW(Phdr) &segment = info->dlpi_phdr[i];
    uintptr_t start = info->dlpi_addr + segment.p_vaddr;
    contains = segment.p_type == PT_LOAD && search->address >= start &&
               search->address - start < segment.p_memsz;
  }
  if (!contains)
    return 0;
  for (ElfW(Half) i = 0; i < info->dlpi_phnum && search->id.empty(); ++i) {
    const ElfW(Phdr) &segment = info->dlpi_phdr[i];
    if (segment.p_type == PT_NOTE)
      search->id = findBuildIdNote(
          reinterpret_cast<const char *>(info->dlpi_addr + segment.p_vaddr),
          segment.p_memsz, segment.p_align);
  }
  return 1;
}

std::string mlir::ens::getBuildId(const void *address) {
  Search search{reinterpret_cast<uintptr_t>(address), std::string()};
  dl_iterate_phdr(visitObject, &search);
  return search.id;
}
