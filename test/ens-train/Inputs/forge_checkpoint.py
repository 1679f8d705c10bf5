"""Copies an ens-train checkpoint with changes, to test how resuming
validates what it reads. Standard library only.

    python3 forge_checkpoint.py SRC DST [--legacy] [CHANGE...]

SRC is a checkpoint directory; its committed generation (CURRENT) is copied
to DST as DST/CURRENT and DST/<generation>/, or with --legacy as a version-1
checkpoint: DST/manifest.json and DST/state.npz, with version 1 and without
the state's size and checksum. Each CHANGE is one of

    KEY=JSON          sets a manifest field (KEY may be dotted: optimizer.beta1)
    -KEY              deletes a manifest field
    KEY~DEPTH         sets a manifest field to DEPTH nested empty lists
    @NAME=DTYPE:SHAPE:FILL
                      replaces array NAME of state.npz by one of dtype <f4 or
                      <i4, SHAPE (sizes separated by "x", "" for a scalar)
                      and every element FILL, and describes it so in the
                      manifest; only with --legacy, as a version-2 state
                      must match its checksum (XXH3), which this script
                      cannot compute.
"""

import json
import os
import shutil
import struct
import sys
import zipfile


def npy(dtype, shape, fill):
    dims = ", ".join(str(d) for d in shape) + ("," if len(shape) == 1 else "")
    header = "{'descr': '%s', 'fortran_order': False, 'shape': (%s), }" % (
        dtype, dims)
    header += " " * ((64 - (10 + len(header) + 1) % 64) % 64) + "\n"
    count = 1
    for d in shape:
        count *= d
    code = "f" if dtype == "<f4" else "i"
    return (b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) +
            header.encode("latin1") + struct.pack("<%d%s" % (count, code),
                                                  *[fill] * count))


def set_field(manifest, key, value):
    *path, last = key.split(".")
    for part in path:
        manifest = manifest[part]
    if value is None:
        del manifest[last]
    else:
        manifest[last] = value


def main():
    src, dst, changes = sys.argv[1], sys.argv[2], sys.argv[3:]
    legacy = "--legacy" in changes
    changes = [c for c in changes if c != "--legacy"]
    with open(os.path.join(src, "CURRENT")) as f:
        generation = f.read().strip()
    with open(os.path.join(src, generation, "manifest.json")) as f:
        manifest = json.load(f)
    with zipfile.ZipFile(os.path.join(src, generation, "state.npz")) as z:
        entries = {name: z.read(name) for name in z.namelist()}

    arrays_changed = False
    nesting = 0
    for change in changes:
        if change.startswith("@"):
            if not legacy:
                sys.exit("array changes need --legacy")
            name, spec = change[1:].split("=", 1)
            dtype, shape, fill = spec.split(":")
            shape = [int(d) for d in shape.split("x")] if shape else []
            fill = float(fill) if dtype == "<f4" else int(fill)
            entries[name + ".npy"] = npy(dtype, shape, fill)
            manifest["arrays"][name] = {"shape": shape, "dtype": dtype}
            arrays_changed = True
        elif change.startswith("-"):
            set_field(manifest, change[1:], None)
        elif "~" in change:
            # Spelled out after printing: json.dumps recurses per level.
            key, depth = change.split("~", 1)
            set_field(manifest, key, "@nested")
            nesting = int(depth)
        else:
            key, value = change.split("=", 1)
            set_field(manifest, key, json.loads(value))

    if legacy:
        manifest["version"] = 1
        manifest.pop("state_bytes", None)
        manifest.pop("state_checksum", None)
        target = dst
    else:
        target = os.path.join(dst, generation)
    os.makedirs(target, exist_ok=True)
    if not legacy:
        with open(os.path.join(dst, "CURRENT"), "w") as f:
            f.write(generation + "\n")
    if arrays_changed:
        with zipfile.ZipFile(os.path.join(target, "state.npz"), "w") as z:
            for name, data in entries.items():
                z.writestr(name, data)
    else:
        shutil.copy(os.path.join(src, generation, "state.npz"), target)
    text = json.dumps(manifest, indent=2)
    if nesting:
        text = text.replace('"@nested"', "[" * nesting + "]" * nesting)
    with open(os.path.join(target, "manifest.json"), "w") as f:
        f.write(text)


if __name__ == "__main__":
    main()
