"""Writes forged .npz archives whose central directory lies, to test that
ens-train's reader bounds its work by the file. Standard library only.

    python3 make_bad_npz.py OUT_DIR

  many-views.npz  one stored 1 MiB entry and 20,000 central-directory
                  entries that all point at it (20 GB if each were decoded)
  overlap.npz     two entries pointing at the same data, within the file's
                  size
  zip64-count.npz a ZIP64 end record declaring 2^40 entries
  short-dir.npz   an end record declaring 60,000 entries in a tiny file
  same-name.npz   two separate arrays both named x
"""

import os
import struct
import sys
import zlib


def npy(count):
    header = "{'descr': '<f4', 'fortran_order': False, 'shape': (%d,), }" % count
    header += " " * ((64 - (10 + len(header) + 1) % 64) % 64) + "\n"
    return (b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) +
            header.encode("latin1") + b"\0" * (4 * count))


def local(name, data):
    return struct.pack("<IHHHHHIIIHH", 0x04034b50, 20, 0, 0, 0, 0x21,
                       zlib.crc32(data), len(data), len(data), len(name),
                       0) + name + data


def central(name, data, offset):
    return struct.pack("<IHHHHHHIIIHHHHHII", 0x02014b50, 20, 20, 0, 0, 0,
                       0x21, zlib.crc32(data), len(data), len(data),
                       len(name), 0, 0, 0, 0, 0, offset) + name


def end(count, size, offset):
    return struct.pack("<IHHHHIIH", 0x06054b50, 0, 0, min(count, 0xffff),
                       min(count, 0xffff), size, offset, 0)


def archive(path, body, directory, count, padding=b""):
    with open(path, "wb") as f:
        f.write(body + padding + directory +
                end(count, len(directory), len(body) + len(padding)))


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)

    data = npy(1 << 18)  # 1 MiB of f32 zeros.
    body = local(b"x.npy", data)
    directory = b"".join(central(b"x%d.npy" % i, data, 0)
                         for i in range(20000))
    archive(os.path.join(out, "many-views.npz"), body, directory, 20000)

    small = npy(4)
    body = local(b"x.npy", small)
    directory = central(b"x.npy", small, 0) + central(b"y.npy", small, 0)
    # Padding, so that the two views together still fit in the file.
    archive(os.path.join(out, "overlap.npz"), body, directory, 2,
            padding=b"\0" * 1024)

    # ZIP64: the end record, its locator, then a classic end record whose
    # saturated fields send the reader to them.
    zip64_end = struct.pack("<IQHHIIQQQQ", 0x06064b50, 44, 45, 45, 0, 0,
                            1 << 40, 1 << 40, 0, 0)
    locator = struct.pack("<IIQI", 0x07064b50, 0, 0, 1)
    with open(os.path.join(out, "zip64-count.npz"), "wb") as f:
        f.write(zip64_end + locator + end(0xffff, 0xffffffff, 0xffffffff))

    with open(os.path.join(out, "short-dir.npz"), "wb") as f:
        f.write(end(60000, 0, 0))

    first, second = local(b"x.npy", small), local(b"x.npy", small)
    directory = (central(b"x.npy", small, 0) +
                 central(b"x.npy", small, len(first)))
    archive(os.path.join(out, "same-name.npz"), first + second, directory, 2)


if __name__ == "__main__":
    main()
