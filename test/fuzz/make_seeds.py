"""Writes the seed corpora of the fuzz targets (test/fuzz/corpus/<target>)
with the Python standard library only. The checkpoint seeds need an
ens-train binary: they are a real checkpoint of Inputs/checkpoint-model.mlir,
packed as the checkpoint target reads it. The artifact seeds need ens-export:
examples/tensordot.mlir exported for cpu and, with its emulator build, for
cuda (the fuzz target runs the code of both on this host); the seeds fma-,
init-member- and tensordot-sm_80.ens, without code for the host, came
before them.

    python3 make_seeds.py CORPUS_DIR ENS_TRAIN ENS_EXPORT
"""

import os
import random
import shutil
import struct
import subprocess
import sys
import tempfile
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def npy(descr, shape, payload, version=1):
    """A .npy file of the given dtype descriptor, shape and raw payload."""
    dims = ", ".join(str(d) for d in shape) + ("," if len(shape) == 1 else "")
    header = "{'descr': '%s', 'fortran_order': False, 'shape': (%s), }" % (
        descr, dims)
    prefix = 10 if version == 1 else 12
    header += " " * ((64 - (prefix + len(header) + 1) % 64) % 64) + "\n"
    length = (struct.pack("<H", len(header)) if version == 1 else
              struct.pack("<I", len(header)))
    return (b"\x93NUMPY" + bytes([version, 0]) + length +
            header.encode("latin1") + payload)


def f32(*values):
    return struct.pack("<%df" % len(values), *values)


def npz(arrays, zip64):
    """An uncompressed .npz of {name: .npy bytes}, as np.savez writes it."""
    with tempfile.TemporaryFile() as f:
        with zipfile.ZipFile(f, "w", zipfile.ZIP_STORED) as archive:
            for name, data in arrays.items():
                with archive.open(name + ".npy", "w",
                                  force_zip64=zip64) as entry:
                    entry.write(data)
        f.seek(0)
        return f.read()


def write(directory, name, data):
    os.makedirs(directory, exist_ok=True)
    with open(os.path.join(directory, name), "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode())


def checkpoint(ens_train):
    """A two-member checkpoint after two steps, packed as CheckpointFuzzer.cpp
    reads it: the manifest's length and bytes, then each array of state.npz
    as its name, a NUL, the .npy file's length and bytes."""
    with tempfile.TemporaryDirectory() as work:
        subprocess.run(
            [ens_train, "--model=" + os.path.join(HERE, "Inputs",
                                                  "checkpoint-model.mlir"),
             "--members=2", "--steps=2", "--plot=",
             "--checkpoint=" + os.path.join(work, "ckpt")],
            check=True, stdout=subprocess.DEVNULL)
        # The newest generation, which CURRENT names.
        ckpt = os.path.join(work, "ckpt")
        with open(os.path.join(ckpt, "CURRENT")) as f:
            generation = os.path.join(ckpt, f.read().strip())
        with open(os.path.join(generation, "manifest.json"), "rb") as f:
            manifest = f.read()
        packed = struct.pack("<I", len(manifest)) + manifest
        with zipfile.ZipFile(os.path.join(generation, "state.npz")) as z:
            for entry in z.namelist():
                data = z.read(entry)
                packed += (entry[:-len(".npy")].encode() + b"\0" +
                           struct.pack("<I", len(data)) + data)
    return packed


def artifacts(directory, ens_export):
    """Exports examples/tensordot.mlir for cpu and for cuda-emu."""
    os.makedirs(directory, exist_ok=True)
    program = os.path.join(ROOT, "examples", "tensordot.mlir")
    for name, flags in [("tensordot-cpu.ens", ["--target=cpu"]),
                        ("tensordot-emulator.ens",
                         ["--target=cuda", "--arch=sm_80", "--emulator"])]:
        subprocess.run([ens_export, program, *flags, "-o",
                        os.path.join(directory, name)], check=True)


def main():
    out, ens_train, ens_export = sys.argv[1], sys.argv[2], sys.argv[3]

    mlir = os.path.join(out, "mlir")
    for name in ["tensordot.mlir", "ensemble_tensordot.mlir", "mlp.mlir"]:
        os.makedirs(mlir, exist_ok=True)
        shutil.copy(os.path.join(ROOT, "examples", name), mlir)
    shutil.copy(os.path.join(ROOT, "test", "ens-run", "Inputs",
                             "invalid.mlir"), mlir)
    # A forward reference bound across functions, then a parse error: MLIR
    # 19's parser corrupted the heap on it (issue #25).
    for name in ["forward-reference-then-error.mlir",
                 "forward-reference-then-error-module.mlir"]:
        shutil.copy(os.path.join(ROOT, "test", "ens-opt", "Inputs", name),
                    mlir)

    artifacts(os.path.join(out, "artifact"), ens_export)

    d = os.path.join(out, "npy")
    write(d, "f32-2x3.npy", npy("<f4", [2, 3], f32(1, 2, 3, 4, 5, 6)))
    write(d, "f64-3.npy", npy("<f8", [3], struct.pack("<3d", 1, -2, 0.5)))
    write(d, "i32-scalar.npy", npy("<i4", [], struct.pack("<i", -7)))
    write(d, "b1-2.npy", npy("|b1", [2], b"\x01\x00"))
    write(d, "f2-2x1.npy", npy("<f2", [2, 1], struct.pack("<2e", 1.5, -2)))
    write(d, "f32-v2.npy", npy("<f4", [1, 2], f32(3, 4), version=2))

    d = os.path.join(out, "npz")
    xy = {"x": npy("<f4", [2, 1], f32(1, 2)),
          "y": npy("<f4", [2, 1], f32(3, 4))}
    write(d, "xy-zip64.npz", npz(xy, zip64=True))
    write(d, "xy.npz", npz(xy, zip64=False))
    write(d, "scalar.npz", npz({"step": npy("<i4", [], struct.pack("<i", 3))},
                               zip64=True))

    # The first byte picks the format and the shape (DatasetFuzzer.cpp):
    # 3, 4 and 5 are .csv, .npy and .npz with 1 feature and 1 output; the
    # seeds hold 2 rows.
    d = os.path.join(out, "dataset")
    write(d, "header.csv", b"\x03x,y\n1,2\n3,4\n")
    write(d, "plain.csv", b"\x031.5,-2\n3e-1,4\n")
    write(d, "table.npy", b"\x04" + npy("<f4", [2, 2], f32(1, 2, 3, 4)))
    write(d, "xy.npz", b"\x05" + npz(xy, zip64=True))

    write(os.path.join(out, "checkpoint"), "two-members.bin",
          checkpoint(ens_train))

    d = os.path.join(out, "train-flags")
    write(d, "members.txt", "--members=4\n--steps=10\n--lr=0.01")
    write(d, "adam.txt", "--lr-min=1e-3\n--lr-max=1e-2\n--beta1=0.5\n"
          "--beta2=0.99\n--eps=1e-6\n--weight-decay=0.1")
    write(d, "backend.txt", "--backend=interp\n--seed=7\n--data=x.csv\n"
          "--checkpoint-every=0")
    write(d, "bad.txt", "--members=0\n--lr=-1")

    # Program choices are bytes; any bytes make a program.
    rng = random.Random(11)
    d = os.path.join(out, "program")
    for i in range(6):
        write(d, "random-%d.bin" % i, bytes(rng.randrange(256)
                                            for _ in range(48)))


if __name__ == "__main__":
    main()
