"""Writes data files for the ens-train tests with the Python standard
library only (no NumPy): the same 256 x (64 + 8) float32 table as .csv,
.npz (stored, with ZIP64 extra fields, as np.savez writes it) and .npy, a
longer table of 704 rows that starts with it (long.npz, long.csv), a
classification set (blobs.npz, blobs.csv), the seed-002 workflow's
10-target table (workflow.csv), and broken variants.

    python3 make_data.py OUT_DIR
"""

import math
import os
import random
import struct
import sys
import zipfile

ROWS, FEATURES, OUTPUTS = 256, 64, 8
# long.npz and long.csv: 2.75 batches of the model's 256 rows.
LONG_ROWS = 704
BLOB_ROWS = 240
WORKFLOW_ROWS = 1280


def f32(value):
    return struct.unpack("<f", struct.pack("<f", value))[0]


def npy(shape, values, descr="<f4"):
    """A .npy file (format 1.0) of little-endian float32 values, or of
    int64 ones with descr "<i8"."""
    dims = ", ".join(str(d) for d in shape) + ("," if len(shape) == 1 else "")
    header = "{'descr': '%s', 'fortran_order': False, 'shape': (%s), }" % (
        descr, dims)
    header += " " * ((64 - (10 + len(header) + 1) % 64) % 64) + "\n"
    code = {"<f4": "f", "<i8": "q"}[descr]
    return (b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) +
            header.encode("latin1") +
            struct.pack("<%d%s" % (len(values), code), *values))


def npz(path, arrays, compression=zipfile.ZIP_STORED):
    """arrays: name -> (shape, values) or (shape, values, descr)."""
    with zipfile.ZipFile(path, "w", compression=compression) as archive:
        for name, array in arrays.items():
            with archive.open(name + ".npy", "w", force_zip64=True) as entry:
                entry.write(npy(*array))


def write_workflow(out):
    """The seed-002 workflow's data: WORKFLOW_ROWS rows of 16 features,
    uniform on [-1, 1], and 10 target columns, target k a different smooth
    function of them plus noise N(0, 0.05), with a header line; and 64 new
    rows of features alone (a header, then x) for predict."""
    rng = random.Random(2)
    features = 16

    def targets(x):
        return [math.sin(sum(x[(k + i) % features] for i in range(4)) / 2 +
                         k / 5) for k in range(10)]

    header = ",".join(["x%d" % i for i in range(features)] +
                      ["target%d" % k for k in range(10)])
    rows = []
    for _ in range(WORKFLOW_ROWS):
        x = [rng.uniform(-1, 1) for _ in range(features)]
        y = [t + rng.gauss(0, 0.05) for t in targets(x)]
        rows.append(",".join("%.6f" % v for v in x + y))
    with open(os.path.join(out, "workflow.csv"), "w") as f:
        f.write(header + "\n" + "\n".join(rows) + "\n")
    new = [",".join("%.6f" % rng.uniform(-1, 1) for _ in range(features))
           for _ in range(64)]
    with open(os.path.join(out, "workflow-new.csv"), "w") as f:
        f.write(",".join("x%d" % i for i in range(features)) + "\n" +
                "\n".join(new) + "\n")


def write_blobs(out):
    """A separable classification set: BLOB_ROWS rows of 4 features around
    one of 3 centres (2 on axis c for class c), noise N(0, 0.4), labels as
    int64 (NumPy's default integer) in blobs.npz and as a last column in
    blobs.csv; and copies with a label out of range and a fractional one."""
    rng = random.Random(1)
    x, labels = [], []
    for i in range(BLOB_ROWS):
        c = i % 3
        x.append([f32((2.0 if k == c else 0.0) + rng.gauss(0, 0.4))
                  for k in range(4)])
        labels.append(c)
    npz(os.path.join(out, "blobs.npz"),
        {"x": ([BLOB_ROWS, 4], [v for row in x for v in row]),
         "y": ([BLOB_ROWS], labels, "<i8")})
    lines = [",".join("%.9g" % v for v in row) + ",%d" % c
             for row, c in zip(x, labels)]
    with open(os.path.join(out, "blobs.csv"), "w") as f:
        f.write("\n".join(lines) + "\n")
    # Two label columns, the second (c + 1) mod 3, for --ensembles=2, and the
    # second alone.
    shifted = [",".join("%.9g" % v for v in row) + ",%d" % ((c + 1) % 3)
               for row, c in zip(x, labels)]
    with open(os.path.join(out, "blobs-two.csv"), "w") as f:
        f.write("\n".join("%s,%d" % (line, (c + 1) % 3)
                          for line, c in zip(lines, labels)) + "\n")
    with open(os.path.join(out, "blobs-shifted.csv"), "w") as f:
        f.write("\n".join(shifted) + "\n")
    for name, label in (("blobs-label3.csv", "3"), ("blobs-label-half.csv",
                                                      "1.5")):
        bad = lines[:6] + [lines[6].rsplit(",", 1)[0] + "," + label]
        with open(os.path.join(out, name), "w") as f:
            f.write("\n".join(bad + lines[7:]) + "\n")


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    rng = random.Random(0)
    long_x = [[f32(rng.uniform(-1, 1)) for _ in range(FEATURES)]
              for _ in range(LONG_ROWS)]
    long_y = [[f32(math.tanh(sum(row[8 * j:8 * j + 8]) / 4))
               for j in range(OUTPUTS)] for row in long_x]
    x, y = long_x[:ROWS], long_y[:ROWS]
    flat_x = [v for row in x for v in row]
    flat_y = [v for row in y for v in row]
    table = [v for rx, ry in zip(x, y) for v in rx + ry]

    with open(os.path.join(out, "data.npy"), "wb") as f:
        f.write(npy([ROWS, FEATURES + OUTPUTS], table))
    npz(os.path.join(out, "data.npz"),
        {"x": ([ROWS, FEATURES], flat_x), "y": ([ROWS, OUTPUTS], flat_y)})
    npz(os.path.join(out, "compressed.npz"),
        {"x": ([ROWS, FEATURES], flat_x), "y": ([ROWS, OUTPUTS], flat_y)},
        zipfile.ZIP_DEFLATED)
    npz(os.path.join(out, "no-y.npz"), {"x": ([ROWS, FEATURES], flat_x)})
    with open(os.path.join(out, "wrong-shape.npy"), "wb") as f:
        f.write(npy([ROWS, FEATURES], flat_x))

    npz(os.path.join(out, "long.npz"),
        {"x": ([LONG_ROWS, FEATURES], [v for row in long_x for v in row]),
         "y": ([LONG_ROWS, OUTPUTS], [v for row in long_y for v in row])})

    header = ",".join(["x%d" % i for i in range(FEATURES)] +
                      ["y%d" % j for j in range(OUTPUTS)])
    rows = [",".join("%.9g" % v for v in rx + ry) for rx, ry in zip(x, y)]
    with open(os.path.join(out, "data.csv"), "w") as f:
        f.write(header + "\n" + "\n".join(rows) + "\n")
    with open(os.path.join(out, "long.csv"), "w") as f:
        f.write("\n".join(",".join("%.9g" % v for v in rx + ry)
                          for rx, ry in zip(long_x, long_y)) + "\n")
    # Each pair of long.csv's targets alone, for runs of one ensemble to
    # compare with --ensembles=4.
    for k in range(OUTPUTS // 2):
        with open(os.path.join(out, "long-targets%d.csv" % k), "w") as f:
            f.write("\n".join(",".join("%.9g" % v
                                       for v in rx + ry[2 * k:2 * k + 2])
                              for rx, ry in zip(long_x, long_y)) + "\n")
    with open(os.path.join(out, "short.csv"), "w") as f:
        f.write("\n".join(rows[:10]) + "\n")
    with open(os.path.join(out, "ragged.csv"), "w") as f:
        f.write("\n".join(rows[:5] + ["1,2,3"] + rows[6:]) + "\n")
    write_blobs(out)
    write_workflow(out)


if __name__ == "__main__":
    main()
