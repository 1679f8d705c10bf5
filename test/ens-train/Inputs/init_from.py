"""Writes and checks --init-from files for open-batch.mlir (w1 [64, 16],
b1 [16], w2 [16, 8]) with the standard library only.

    python3 init_from.py write DIR MEMBERS
        DIR/shared.npz: one array per parameter, for every member;
        DIR/stacked.npz: [MEMBERS, ...] arrays, each member its own;
        DIR/wrong-shape.npz, DIR/missing.npz, DIR/extra.npz: broken ones.
    python3 init_from.py check STATE.npz FILE.npz MEMBERS
        exits 1 unless STATE's w1, b1, w2 are FILE's (stacked or repeated).
"""

import os
import struct
import sys
import zipfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from make_data import npz  # noqa: E402

SHAPES = {"w1": [64, 16], "b1": [16], "w2": [16, 8]}


def count(shape):
    n = 1
    for d in shape:
        n *= d
    return n


def values(name, offset, n):
    # Distinct, exactly representable values per parameter and member.
    return [((i * 7 + offset * 13 + len(name)) % 97 - 48) / 64.0
            for i in range(n)]


def read_npy(data):
    header_len = struct.unpack_from("<H", data, 8)[0]
    body = data[10 + header_len:]
    return list(struct.unpack("<%df" % (len(body) // 4), body))


def main():
    if sys.argv[1] == "write":
        out, members = sys.argv[2], int(sys.argv[3])
        shared = {k: (s, values(k, 0, count(s))) for k, s in SHAPES.items()}
        stacked = {k: ([members] + s, sum((values(k, m + 1, count(s))
                                           for m in range(members)), []))
                   for k, s in SHAPES.items()}
        npz(os.path.join(out, "shared.npz"), shared)
        npz(os.path.join(out, "stacked.npz"), stacked)
        wrong = dict(shared)
        wrong["b1"] = ([17], values("b1", 0, 17))
        npz(os.path.join(out, "wrong-shape.npz"), wrong)
        npz(os.path.join(out, "missing.npz"),
            {k: v for k, v in shared.items() if k != "w2"})
        npz(os.path.join(out, "extra.npz"),
            dict(shared, w3=([2], [1.0, 2.0])))
        return 0
    state, given, members = sys.argv[2], sys.argv[3], int(sys.argv[4])
    with zipfile.ZipFile(state) as s, zipfile.ZipFile(given) as g:
        for name, shape in SHAPES.items():
            got = read_npy(s.read(name + ".npy"))
            want = read_npy(g.read(name + ".npy"))
            if len(want) == count(shape):
                want = want * members
            if got != want:
                print("init_from.py: %s differs" % name)
                return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
