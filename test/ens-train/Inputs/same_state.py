"""Compares the arrays of two ens-train checkpoints: the state.npz of each
one's committed generation (CURRENT). Standard library only.

    python3 same_state.py CHECKPOINT_A CHECKPOINT_B [RTOL ATOL]

Without tolerances, exits 1, naming the first array that differs, unless
both hold the same arrays with the same bytes. With them, the float32
arrays must agree elementwise within |a - b| <= ATOL + RTOL |b|; it prints
the largest relative difference.
"""

import ast
import os
import struct
import sys
import zipfile


def arrays(checkpoint):
    with open(os.path.join(checkpoint, "CURRENT")) as f:
        generation = f.read().strip()
    path = os.path.join(checkpoint, generation, "state.npz")
    with zipfile.ZipFile(path) as archive:
        return {name: archive.read(name) for name in archive.namelist()}


def floats(npy):
    """The values of a .npy file of '<f4' (format 1.0), or None."""
    length = struct.unpack("<H", npy[8:10])[0]
    header = ast.literal_eval(npy[10:10 + length].decode("latin1"))
    if header["descr"] != "<f4":
        return None
    data = npy[10 + length:]
    return struct.unpack("<%df" % (len(data) // 4), data)


def main():
    a, b = arrays(sys.argv[1]), arrays(sys.argv[2])
    if sorted(a) != sorted(b):
        print("different arrays: %s and %s" % (sorted(a), sorted(b)))
        return 1
    if len(sys.argv) == 5:
        rtol, atol = float(sys.argv[3]), float(sys.argv[4])
        worst = 0.0
        for name in sorted(a):
            x, y = floats(a[name]), floats(b[name])
            if x is None or y is None:
                if a[name] != b[name]:
                    print("%s differs" % name)
                    return 1
                continue
            for u, v in zip(x, y):
                if abs(u - v) > atol + rtol * abs(v):
                    print("%s: %r and %r differ by more than the tolerance" %
                          (name, u, v))
                    return 1
                if v != 0:
                    worst = max(worst, abs(u - v) / abs(v))
        print("%d arrays within the tolerance; the largest relative "
              "difference %.3g" % (len(a), worst))
        return 0
    for name in sorted(a):
        if a[name] != b[name]:
            print("%s differs" % name)
            return 1
    print("%d arrays, the same bytes" % len(a))
    return 0


if __name__ == "__main__":
    sys.exit(main())
