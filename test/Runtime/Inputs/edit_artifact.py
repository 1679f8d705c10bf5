"""Edits the manifest of an ens artifact and hashes it again, as a forger
could: the checksum then holds, and only the runtime's cross-checks stand
between the edited metadata and the code (issue #25).

    python3 edit_artifact.py IN.ens OUT.ens PYTHON-STATEMENT

The statement runs with `m`, the manifest as parsed JSON, to edit in place,
e.g. "m['plan']['launches'][0]['grid'][0] += 1".
"""

import json
import struct
import sys

FNV_OFFSET, FNV_PRIME = 0xCBF29CE484222325, 0x100000001B3


def fnv1a64(data):
    value = FNV_OFFSET
    for byte in data:
        value = ((value ^ byte) * FNV_PRIME) & 0xFFFFFFFFFFFFFFFF
    return value


def main():
    source, target, statement = sys.argv[1:4]
    data = open(source, "rb").read()
    magic, version, reserved, size, _ = struct.unpack_from("<8sIIQQ", data)
    manifest = json.loads(data[32:32 + size])
    exec(statement, {"m": manifest})
    text = json.dumps(manifest, indent=1).encode()
    header = struct.pack("<8sIIQQ", magic, version, reserved, len(text),
                         fnv1a64(text))
    open(target, "wb").write(header + text + data[32 + size:])


if __name__ == "__main__":
    main()
