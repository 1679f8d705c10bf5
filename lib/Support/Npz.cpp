//===- Npz.cpp - NumPy .npz archives for host tensors ---------------------===//

#include "ens/Support/Npz.h"

#include "ens/Support/FileSystem.h"
#include "ens/Support/Npy.h"
#include "ens/Support/Sizes.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/CRC.h"

using namespace mlir::ens;

namespace {
constexpr uint32_t kLocalHeader = 0x04034b50;
constexpr uint32_t kCentralHeader = 0x02014b50;
constexpr uint32_t kEndOfCentralDirectory = 0x06054b50;
constexpr uint32_t kZip64EndOfCentralDirectory = 0x06064b50;
constexpr uint32_t kZip64Locator = 0x07064b50;
constexpr uint16_t kZip64ExtraField = 0x0001;
/// The fixed part of a central directory entry.
constexpr uint64_t kCentralHeaderSize = 46;
/// 1980-01-01 00:00, the earliest ZIP date, so that output is reproducible.
constexpr uint16_t kDosDate = (0 << 9) | (1 << 5) | 1;

/// Little-endian reads from an archive, bounds-checked: a read past the end
/// gives 0 and marks the archive truncated, which the caller checks once
/// after a group of reads (as llvm::DataExtractor's cursors do).
class Reader {
public:
  Reader(llvm::StringRef bytes, llvm::StringRef name)
      : bytes(bytes), name(name) {}

  uint64_t read(uint64_t offset, unsigned size) {
    if (offset > bytes.size() || size > bytes.size() - offset) {
      truncated = true;
      return 0;
    }
    uint64_t value = 0;
    for (unsigned i = 0; i < size; ++i)
      value |= uint64_t(static_cast<unsigned char>(bytes[offset + i]))
               << (8 * i);
    return value;
  }
  uint16_t u16(uint64_t offset) { return read(offset, 2); }
  uint32_t u32(uint64_t offset) { return read(offset, 4); }
  uint64_t u64(uint64_t offset) { return read(offset, 8); }
  llvm::StringRef str(uint64_t offset, uint64_t size) {
    if (offset > bytes.size() || size > bytes.size() - offset) {
      truncated = true;
      return {};
    }
    return bytes.substr(offset, size);
  }
  /// The error `message`, or "is truncated" if a read ran past the end
  /// before it: that came first.
  llvm::Error fail(const llvm::Twine &message) const {
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   name + " " +
                                       (truncated ? "is truncated" : message));
  }
  /// The error of the reads so far, if one ran past the end.
  llvm::Error check() const {
    return truncated ? fail("") : llvm::Error::success();
  }

  llvm::StringRef bytes;
  llvm::StringRef name;
  bool truncated = false;
};

/// A stored entry, located and checked before any is decoded.
struct Entry {
  std::string name;
  /// Where its local header starts and its data lies.
  uint64_t start, data, size;
  uint32_t crc;
};

void put16(std::string &out, uint16_t value) {
  out.push_back(char(value & 0xff));
  out.push_back(char(value >> 8));
}
void put32(std::string &out, uint32_t value) {
  put16(out, value & 0xffff);
  put16(out, value >> 16);
}

uint32_t crcOf(llvm::StringRef data) {
  return llvm::crc32(llvm::arrayRefFromStringRef(data));
}
} // namespace

/// The entries of the central directory, each checked to be a stored entry
/// whose data lies inside the archive, and together to hold no more data
/// than the archive: no two entries share bytes, so that decoding costs at
/// most what the file holds.
static llvm::Expected<std::vector<Entry>> readDirectory(Reader &r) {
  const std::string notZip =
      "is not a .npz file (no ZIP end-of-central-directory record)";
  if (r.bytes.size() < 22)
    return r.fail(notZip);
  // The end record is the last 22 bytes plus a comment of up to 64 KiB.
  uint64_t end = r.bytes.size() - 22;
  uint64_t stop = end > 0xffff ? end - 0xffff : 0;
  while (r.u32(end) != kEndOfCentralDirectory) {
    if (end == stop)
      return r.fail(notZip);
    --end;
  }
  uint64_t count = r.u16(end + 10);
  uint64_t directory = r.u32(end + 16);
  if ((count == 0xffff || directory == 0xffffffff) && end >= 20 &&
      r.u32(end - 20) == kZip64Locator) {
    uint64_t record = r.u64(end - 20 + 8);
    if (r.u32(record) != kZip64EndOfCentralDirectory)
      return r.fail("has a malformed ZIP64 end record");
    count = r.u64(record + 32);
    directory = r.u64(record + 48);
  }
  if (count > kMaxNpzEntries)
    return r.fail("has " + std::to_string(count) + " entries, more than the " +
                  std::to_string(kMaxNpzEntries) + " a .npz may have here");
  if (directory > r.bytes.size() ||
      count * kCentralHeaderSize > r.bytes.size() - directory)
    return r.fail("declares " + std::to_string(count) +
                  " entries, more than its central directory holds");

  std::vector<Entry> entries;
  uint64_t at = directory, total = 0;
  for (uint64_t i = 0; i < count; ++i) {
    if (r.u32(at) != kCentralHeader)
      return r.fail("has a malformed ZIP central directory");
    uint16_t flags = r.u16(at + 8);
    uint16_t method = r.u16(at + 10);
    uint32_t crc = r.u32(at + 16);
    uint64_t compressedSize = r.u32(at + 20);
    uint64_t size = r.u32(at + 24);
    uint16_t nameLength = r.u16(at + 28);
    uint16_t extraLength = r.u16(at + 30);
    uint16_t commentLength = r.u16(at + 32);
    uint64_t local = r.u32(at + 42);
    std::string name = r.str(at + 46, nameLength).str();
    // ZIP64: sizes and offset that do not fit 32 bits are in an extra field,
    // in this order, each present only if its 32-bit field is saturated.
    for (uint64_t extra = at + 46 + nameLength, extraEnd = extra + extraLength;
         extra + 4 <= extraEnd;) {
      uint16_t id = r.u16(extra), length = r.u16(extra + 2);
      if (id == kZip64ExtraField) {
        uint64_t field = extra + 4;
        if (size == 0xffffffff)
          size = r.u64(field), field += 8;
        if (compressedSize == 0xffffffff)
          compressedSize = r.u64(field), field += 8;
        if (local == 0xffffffff)
          local = r.u64(field), field += 8;
      }
      extra += 4 + length;
    }
    at += 46 + nameLength + extraLength + commentLength;

    if (flags & 1)
      return r.fail("entry '" + name + "' is encrypted");
    if (method != 0)
      return r.fail(
          "entry '" + name + "' is compressed (method " +
          std::to_string(method) +
          ", as np.savez_compressed writes); only uncompressed archives "
          "are supported: save with np.savez");
    if (compressedSize != size)
      return r.fail("entry '" + name + "' has inconsistent sizes");
    if (r.u32(local) != kLocalHeader)
      return r.fail("entry '" + name + "' has a malformed local header");
    uint64_t data = local + 30 + r.u16(local + 26) + r.u16(local + 28);
    r.str(data, size);
    // Each size is at most the file's, so the sum cannot overflow here.
    total += size;
    if (total > r.bytes.size())
      return r.fail("declares more data in its entries than the file holds");
    if (llvm::Error truncated = r.check())
      return std::move(truncated);
    entries.push_back({std::move(name), local, data, size, crc});
  }

  std::vector<const Entry *> byStart;
  for (const Entry &entry : entries)
    byStart.push_back(&entry);
  llvm::sort(byStart, [](const Entry *a, const Entry *b) {
    return a->start < b->start;
  });
  for (size_t i = 1; i < byStart.size(); ++i)
    if (byStart[i - 1]->data + byStart[i - 1]->size > byStart[i]->start)
      return r.fail("entries '" + byStart[i - 1]->name + "' and '" +
                    byStart[i]->name + "' overlap");
  return entries;
}

llvm::Expected<std::vector<NamedArray>>
mlir::ens::parseNpz(llvm::StringRef bytes, llvm::StringRef name) {
  Reader r(bytes, name);
  llvm::Expected<std::vector<Entry>> entries = readDirectory(r);
  if (!entries)
    return entries.takeError();
  std::vector<NamedArray> arrays;
  llvm::StringSet<> names;
  for (const Entry &entry : *entries) {
    // Inside the archive: readDirectory checked.
    llvm::StringRef contents = r.str(entry.data, entry.size);
    if (crcOf(contents) != entry.crc)
      return r.fail("entry '" + entry.name + "' is corrupt (CRC mismatch)");
    llvm::StringRef base(entry.name);
    if (!base.consume_back(".npy"))
      continue;
    if (!names.insert(base).second)
      return r.fail("has two arrays named '" + base + "'");
    llvm::Expected<HostTensor> array =
        parseNpy(contents, (name + ":" + entry.name).str());
    if (!array)
      return array.takeError();
    arrays.emplace_back(base.str(), std::move(*array));
  }
  return arrays;
}

llvm::Expected<std::vector<NamedArray>>
mlir::ens::readNpz(llvm::StringRef path) {
  ReadOptions options;
  options.maxBytes = getDefaultMaxBufferBytes();
  llvm::Expected<std::string> bytes = readFileBounded(path, options);
  if (!bytes)
    return bytes.takeError();
  return parseNpz(*bytes, path);
}

llvm::Expected<std::string>
mlir::ens::serializeNpz(llvm::ArrayRef<NamedArray> arrays) {
  std::string out, directory;
  for (const auto &[name, array] : arrays) {
    llvm::Expected<std::string> npy = serializeNpy(array);
    if (!npy)
      return npy.takeError();
    std::string entry = name + ".npy";
    if (out.size() + npy->size() + 30 + entry.size() > 0xffffffffull)
      return llvm::createStringError(
          llvm::inconvertibleErrorCode(),
          "an archive of more than 4 GiB needs "
          "ZIP64, which serializeNpz does not write");
    uint32_t offset = out.size(), crc = crcOf(*npy);
    auto common = [&](std::string &header) {
      put16(header, 20); // Version needed: 2.0.
      put16(header, 0);  // Flags.
      put16(header, 0);  // Stored.
      put16(header, 0);  // Time.
      put16(header, kDosDate);
      put32(header, crc);
      put32(header, npy->size());
      put32(header, npy->size());
      put16(header, entry.size());
      put16(header, 0); // Extra field.
    };
    put32(out, kLocalHeader);
    common(out);
    out += entry;
    out += *npy;

    put32(directory, kCentralHeader);
    put16(directory, 20); // Version made by.
    common(directory);
    put16(directory, 0); // Comment.
    put16(directory, 0); // Disk.
    put16(directory, 0); // Internal attributes.
    put32(directory, 0); // External attributes.
    put32(directory, offset);
    directory += entry;
  }
  uint32_t directoryOffset = out.size();
  out += directory;
  put32(out, kEndOfCentralDirectory);
  put16(out, 0);
  put16(out, 0);
  put16(out, arrays.size());
  put16(out, arrays.size());
  put32(out, directory.size());
  put32(out, directoryOffset);
  put16(out, 0);
  return out;
}
