"""Checks the predictions of a heterogeneous ensemble (ens-train predict
on its checkpoint) against those of its groups' separate runs: its
`members` must be theirs, one after the other, with the same bytes, and
its `mean` and `std` the mean and (population) standard deviation over all
of them, computed here. Standard library only.

    python3 same_predictions.py ALL.npz GROUP0.npz GROUP1.npz ...
"""

import ast
import math
import struct
import sys
import zipfile


def load(path):
    """{name: (shape, values)} of the float32 arrays of an .npz file."""
    arrays = {}
    with zipfile.ZipFile(path) as archive:
        for name in archive.namelist():
            npy = archive.read(name)
            length = struct.unpack("<H", npy[8:10])[0]
            header = ast.literal_eval(npy[10:10 + length].decode("latin1"))
            assert header["descr"] == "<f4", (path, name, header)
            data = npy[10 + length:]
            values = struct.unpack("<%df" % (len(data) // 4), data)
            arrays[name[:-4]] = (tuple(header["shape"]), values)
    return arrays


def main():
    whole = load(sys.argv[1])
    groups = [load(path) for path in sys.argv[2:]]
    members = []
    for group in groups:
        shape, values = group["members"]
        count = len(values) // shape[0]
        members += [values[i * count:(i + 1) * count] for i in range(shape[0])]
    shape, values = whole["members"]
    if shape[0] != len(members):
        sys.exit("%d members, but the groups have %d" % (shape[0],
                                                         len(members)))
    if tuple(values) != tuple(v for member in members for v in member):
        sys.exit("the members differ from the groups' members")
    worst = 0.0
    for index in range(len(members[0])):
        column = [member[index] for member in members]
        mean = math.fsum(column) / len(column)
        std = math.sqrt(math.fsum((v - mean) ** 2 for v in column) /
                        len(column))
        for name, expected in (("mean", mean), ("std", std)):
            got = whole[name][1][index]
            error = abs(got - expected)
            worst = max(worst, error)
            if error > 1e-5 + 1e-5 * abs(expected):
                sys.exit("%s[%d] is %r, expected %r" % (name, index, got,
                                                        expected))
    print("%d members, the groups' in order; mean and std within %.1e" %
          (len(members), worst))


if __name__ == "__main__":
    main()
