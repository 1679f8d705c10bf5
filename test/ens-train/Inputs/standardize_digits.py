"""Splits and standardises digits.npz (the UCI handwritten digits as
scikit-learn ships them; see tools/ens-bench/peers/make_digits_npz.py) into
the CSV files that ens-train and tools/ens-bench/peers/digits_torch.py both
train on. Python standard library only (no NumPy).

    python3 standardize_digits.py digits.npz OUT_DIR

Rows 0..1436 are the training set, rows 1437..1796 the test set, in the
file's order. Each feature is standardised with the mean and the population
standard deviation (ddof=0) of the training rows, in float64 (a feature
whose deviation is 0 gets 1), x' = (x - mean) / std, then rounded to
float32: the same values, bit for bit, as NumPy's

    xf = x.astype(np.float64)
    mean, std = xf[:1437].mean(0), xf[:1437].std(0)
    std[std == 0] = 1
    ((xf - mean) / std).astype(np.float32)

OUT_DIR/digits-train.csv and OUT_DIR/digits-test.csv have one row per
example, no header: the 64 features printed with %.9g (which round-trips a
float32), then the integer label.
"""

import ast
import math
import os
import struct
import sys
import zipfile

TRAIN_ROWS = 1437


def read_npy(data):
    """(descr, shape, payload) of a .npy file's bytes."""
    if data[:6] != b"\x93NUMPY":
        raise ValueError("not a .npy file")
    major = data[6]
    if major == 1:
        (length,), start = struct.unpack("<H", data[8:10]), 10
    else:
        (length,), start = struct.unpack("<I", data[8:12]), 12
    header = ast.literal_eval(data[start:start + length].decode("latin1"))
    if header["fortran_order"]:
        raise ValueError("Fortran-ordered array")
    return header["descr"], header["shape"], data[start + length:]


def load(path):
    with zipfile.ZipFile(path) as archive:
        descr, shape, x = read_npy(archive.read("x.npy"))
        if descr != "|u1" or len(shape) != 2:
            raise ValueError(f"x is {descr} {shape}, not 2-D uint8")
        rows, features = shape
        x = [list(x[r * features:(r + 1) * features]) for r in range(rows)]
        descr, shape, y = read_npy(archive.read("y.npy"))
        if descr != "<i8" or shape != (rows,):
            raise ValueError(f"y is {descr} {shape}, not [{rows}] int64")
        y = list(struct.unpack(f"<{rows}q", y[:8 * rows]))
    return x, y


def f32(value):
    return struct.unpack("<f", struct.pack("<f", value))[0]


def standardize(x):
    """The features standardised with the training rows' statistics, in
    float64 like NumPy (its reductions over axis 0 add the rows in order),
    rounded to float32."""
    train = x[:TRAIN_ROWS]
    features = len(x[0])
    means, stds = [], []
    for j in range(features):
        total = 0.0
        for row in train:
            total += float(row[j])
        mean = total / len(train)
        squares = 0.0
        for row in train:
            d = float(row[j]) - mean
            squares += d * d
        std = math.sqrt(squares / len(train))
        means.append(mean)
        stds.append(std if std != 0 else 1.0)
    return [[f32((float(v) - means[j]) / stds[j]) for j, v in enumerate(row)]
            for row in x]


def write(path, x, y):
    with open(path, "w") as f:
        for row, label in zip(x, y):
            f.write(",".join("%.9g" % v for v in row) + ",%d\n" % label)


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: standardize_digits.py digits.npz OUT_DIR")
    x, y = load(sys.argv[1])
    z = standardize(x)
    os.makedirs(sys.argv[2], exist_ok=True)
    write(os.path.join(sys.argv[2], "digits-train.csv"), z[:TRAIN_ROWS],
          y[:TRAIN_ROWS])
    write(os.path.join(sys.argv[2], "digits-test.csv"), z[TRAIN_ROWS:],
          y[TRAIN_ROWS:])


if __name__ == "__main__":
    main()
