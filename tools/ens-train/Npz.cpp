//===- Npz.cpp - NumPy .npz archives --------------------------------------===//
//
// A ZIP reader and writer for stored entries only: enough for np.savez's
// archives and for ens-train's checkpoints.
//
//===----------------------------------------------------------------------===//

#include "Npz.h"

#include "Failure.h"

#include "ens/Support/Npy.h"

#include "llvm/Support/CRC.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace ens_train;

namespace {
constexpr uint32_t kLocalHeader = 0x04034b50;
constexpr uint32_t kCentralHeader = 0x02014b50;
constexpr uint32_t kEndOfCentralDirectory = 0x06054b50;
constexpr uint32_t kZip64EndOfCentralDirectory = 0x06064b50;
constexpr uint32_t kZip64Locator = 0x07064b50;
constexpr uint16_t kZip64ExtraField = 0x0001;
/// 1980-01-01 00:00, the earliest ZIP date, so that output is reproducible.
constexpr uint16_t kDosDate = (0 << 9) | (1 << 5) | 1;

/// Little-endian reads from an archive, with bounds checks that throw.
class Reader {
public:
  Reader(const std::string &bytes, const std::string &name)
      : bytes(bytes), name(name) {}

  uint64_t read(uint64_t offset, unsigned size) const {
    if (offset > bytes.size() || size > bytes.size() - offset)
      fail("is truncated");
    uint64_t value = 0;
    for (unsigned i = 0; i < size; ++i)
      value |= uint64_t(static_cast<unsigned char>(bytes[offset + i]))
               << (8 * i);
    return value;
  }
  uint16_t u16(uint64_t offset) const { return read(offset, 2); }
  uint32_t u32(uint64_t offset) const { return read(offset, 4); }
  uint64_t u64(uint64_t offset) const { return read(offset, 8); }
  std::string str(uint64_t offset, uint64_t size) const {
    read(offset, 0);
    if (size > bytes.size() - offset)
      fail("is truncated");
    return bytes.substr(offset, size);
  }
  [[noreturn]] void fail(const std::string &message) const {
    throw Failure(name + " " + message);
  }

  const std::string &bytes;
  const std::string &name;
};

void put16(std::string &out, uint16_t value) {
  out.push_back(char(value & 0xff));
  out.push_back(char(value >> 8));
}
void put32(std::string &out, uint32_t value) {
  put16(out, value & 0xffff);
  put16(out, value >> 16);
}

uint32_t crcOf(const std::string &data) {
  return llvm::crc32(llvm::ArrayRef<uint8_t>(
      reinterpret_cast<const uint8_t *>(data.data()), data.size()));
}
} // namespace

std::vector<NamedArray> ens_train::parseNpz(const std::string &bytes,
                                            const std::string &name) {
  Reader r(bytes, name);
  const std::string notZip =
      "is not a .npz file (no ZIP end-of-central-directory record)";
  if (bytes.size() < 22)
    r.fail(notZip);
  // The end record is the last 22 bytes plus a comment of up to 64 KiB.
  uint64_t end = bytes.size() - 22;
  uint64_t stop = end > 0xffff ? end - 0xffff : 0;
  while (r.u32(end) != kEndOfCentralDirectory) {
    if (end == stop)
      r.fail(notZip);
    --end;
  }
  uint64_t entries = r.u16(end + 10);
  uint64_t directory = r.u32(end + 16);
  if ((entries == 0xffff || directory == 0xffffffff) && end >= 20 &&
      r.u32(end - 20) == kZip64Locator) {
    uint64_t record = r.u64(end - 20 + 8);
    if (r.u32(record) != kZip64EndOfCentralDirectory)
      r.fail("has a malformed ZIP64 end record");
    entries = r.u64(record + 32);
    directory = r.u64(record + 48);
  }

  std::vector<NamedArray> arrays;
  uint64_t at = directory;
  for (uint64_t i = 0; i < entries; ++i) {
    if (r.u32(at) != kCentralHeader)
      r.fail("has a malformed ZIP central directory");
    uint16_t flags = r.u16(at + 8);
    uint16_t method = r.u16(at + 10);
    uint32_t crc = r.u32(at + 16);
    uint64_t compressedSize = r.u32(at + 20);
    uint64_t size = r.u32(at + 24);
    uint16_t nameLength = r.u16(at + 28);
    uint16_t extraLength = r.u16(at + 30);
    uint16_t commentLength = r.u16(at + 32);
    uint64_t local = r.u32(at + 42);
    std::string entry = r.str(at + 46, nameLength);
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
      r.fail("entry '" + entry + "' is encrypted");
    if (method != 0)
      r.fail("entry '" + entry + "' is compressed (method " +
             std::to_string(method) +
             ", as np.savez_compressed writes); only uncompressed archives "
             "are supported: save with np.savez");
    if (compressedSize != size)
      r.fail("entry '" + entry + "' has inconsistent sizes");
    if (r.u32(local) != kLocalHeader)
      r.fail("entry '" + entry + "' has a malformed local header");
    uint64_t data = local + 30 + r.u16(local + 26) + r.u16(local + 28);
    std::string contents = r.str(data, size);
    if (crcOf(contents) != crc)
      r.fail("entry '" + entry + "' is corrupt (CRC mismatch)");
    llvm::StringRef base(entry);
    if (!base.consume_back(".npy"))
      continue;
    llvm::Expected<mlir::ens::HostTensor> array =
        mlir::ens::parseNpy(contents, name + ":" + entry);
    if (!array)
      throw Failure(llvm::toString(array.takeError()));
    arrays.emplace_back(base.str(), std::move(*array));
  }
  return arrays;
}

std::vector<NamedArray> ens_train::readNpz(const std::string &path) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> file =
      llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                  /*RequiresNullTerminator=*/false);
  if (!file)
    throw Failure("cannot read " + path + ": " + file.getError().message());
  return parseNpz((*file)->getBuffer().str(), path);
}

std::string ens_train::serializeNpz(const std::vector<NamedArray> &arrays) {
  std::string out, directory;
  for (const auto &[name, array] : arrays) {
    llvm::Expected<std::string> npy = mlir::ens::serializeNpy(array);
    if (!npy)
      throw Failure(llvm::toString(npy.takeError()));
    std::string entry = name + ".npy";
    if (out.size() + npy->size() + 30 + entry.size() > 0xffffffffull)
      throw Failure("checkpoint too large for a .npz without ZIP64");
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
