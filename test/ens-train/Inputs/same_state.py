"""Compares the arrays of two ens-train checkpoints bit for bit: the
state.npz of each one's committed generation (CURRENT). Standard library
only.

    python3 same_state.py CHECKPOINT_A CHECKPOINT_B

Exits 1, naming the first array that differs, unless both hold the same
arrays with the same bytes.
"""

import os
import sys
import zipfile


def arrays(checkpoint):
    with open(os.path.join(checkpoint, "CURRENT")) as f:
        generation = f.read().strip()
    path = os.path.join(checkpoint, generation, "state.npz")
    with zipfile.ZipFile(path) as archive:
        return {name: archive.read(name) for name in archive.namelist()}


def main():
    a, b = arrays(sys.argv[1]), arrays(sys.argv[2])
    if sorted(a) != sorted(b):
        print("different arrays: %s and %s" % (sorted(a), sorted(b)))
        return 1
    for name in sorted(a):
        if a[name] != b[name]:
            print("%s differs" % name)
            return 1
    print("%d arrays, the same bytes" % len(a))
    return 0


if __name__ == "__main__":
    sys.exit(main())
