# ===- common.py - What ens-bench's Python peers share --------------------=== #
#
# The command line every peer takes, the workload's initial state and data
# (raw float32 files written by ens-bench), and the line protocol: a
# "ready" line with the first losses, then warmup/block/quit commands on
# standard input (see tools/ens-bench/PeerRunner.h).
#
# ===----------------------------------------------------------------------=== #

import argparse
import copy
import json
import sys
import time

import numpy as np


def parse_args():
    parser = argparse.ArgumentParser(description="an ens-bench peer")
    parser.add_argument("--impl", required=True)
    parser.add_argument("--model", required=True,
                        choices=["mlp", "tensordot", "cnn", "hetero"])
    parser.add_argument("--members", type=int, default=1)
    parser.add_argument("--groups", type=int, default=1)
    parser.add_argument("--in", dest="inputs", type=int, default=0)
    parser.add_argument("--hidden", type=int, default=0)
    parser.add_argument("--layers", type=int, default=1)
    parser.add_argument("--archs", default="",
                        help="hetero: the architectures, HIDDENxLAYERS,...")
    parser.add_argument("--out", type=int, default=0)
    parser.add_argument("--image", type=int, default=0)
    parser.add_argument("--channels1", type=int, default=0)
    parser.add_argument("--channels2", type=int, default=0)
    parser.add_argument("--batch", type=int, required=True)
    parser.add_argument("--lr", type=float, required=True)
    parser.add_argument("--data", required=True)
    parser.add_argument("--threads", type=int, required=True)
    parser.add_argument("--check-steps", type=int, default=3)
    return parser.parse_args()


def _load(args, name, shape):
    values = np.fromfile(f"{args.data}/{name}.bin", dtype="<f4")
    return values.reshape(shape)


def mlp_widths(args):
    """In, H (--layers times), Out: layer l maps widths[l-1] to widths[l]."""
    return [args.inputs] + [args.hidden] * args.layers + [args.out]


def mlp_param_names(args):
    """w1, b1, w2, b2, ..., one weight and bias per layer."""
    return [f"{kind}{layer}" for layer in range(1, args.layers + 2)
            for kind in ("w", "b")]


def mlp_arrays(args, prefix=""):
    """x [G,B,In], t [G,B,Out], and for each layer l wl [M,widths[l-1],
    widths[l]], bl [M,widths[l]] (stored as `prefix`wl, `prefix`bl)."""
    m, g, b = args.members, args.groups, args.batch
    widths = mlp_widths(args)
    arrays = {"x": _load(args, "x", (g, b, widths[0])),
              "t": _load(args, "t", (g, b, widths[-1]))}
    for layer in range(1, len(widths)):
        arrays[f"w{layer}"] = _load(args, f"{prefix}w{layer}",
                                    (m, widths[layer - 1], widths[layer]))
        arrays[f"b{layer}"] = _load(args, f"{prefix}b{layer}", (m, widths[layer]))
    return arrays


def hetero_architectures(args):
    """The hetero workload's architectures (--archs=HxL,...), each as the
    arguments and mlp_arrays of an mlp workload of its members alone, its
    arrays stored as a<k>_w1, ...; the batch [1,B,...] is shared."""
    archs = [a.split("x") for a in args.archs.split(",") if a]
    if not archs:
        unavailable("the hetero workload needs --archs")
    result = []
    for k, (hidden, layers) in enumerate(archs):
        alone = copy.copy(args)
        alone.model, alone.groups = "mlp", 1
        alone.members = args.members // len(archs)
        alone.hidden, alone.layers = int(hidden), int(layers)
        result.append((alone, mlp_arrays(alone, f"a{k}_")))
    return result


def tensordot_arrays(args):
    """x [B,3,2], t [B,1], w [3,2,1], b [1]."""
    b = args.batch
    return {
        "x": _load(args, "x", (b, 3, 2)),
        "t": _load(args, "t", (b, 1)),
        "w": _load(args, "w", (3, 2, 1)),
        "b": _load(args, "b", (1,)),
    }


def cnn_arrays(args):
    """x [B,1,S,S], t [B] (class indices, int64), w1 [M,c1,1,3,3], b1 [M,c1],
    w2 [M,c2,c1,3,3], b2 [M,c2], w3 [M,F,K], b3 [M,K] with F = c2 (S/4)^2."""
    m, b, s, k = args.members, args.batch, args.image, args.out
    c1, c2 = args.channels1, args.channels2
    f = c2 * (s // 4) * (s // 4)
    return {
        "x": _load(args, "x", (b, 1, s, s)),
        "t": _load(args, "t", (b,)).astype(np.int64),
        "w1": _load(args, "w1", (m, c1, 1, 3, 3)),
        "b1": _load(args, "b1", (m, c1)),
        "w2": _load(args, "w2", (m, c2, c1, 3, 3)),
        "b2": _load(args, "b2", (m, c2)),
        "w3": _load(args, "w3", (m, f, k)),
        "b3": _load(args, "b3", (m, k)),
    }


def emit(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def unavailable(reason):
    emit({"event": "unavailable", "reason": reason})
    sys.exit(1)


def serve(step, info, check_steps):
    """Runs the protocol. step(want_losses) runs one full training step and
    returns the losses (one per member) when asked; info describes the peer
    (impl, version, blas, notes, threads)."""
    losses = [[float(v) for v in step(True)] for _ in range(check_steps)]
    emit(dict(event="ready", losses=losses, **info))
    for line in sys.stdin:
        words = line.split()
        if not words or words[0] == "quit":
            return
        min_steps, min_ms = int(words[1]), float(words[2])
        max_steps = int(words[3]) if words[0] == "block" else 1 << 30
        step(False)
        times, total = [], 0.0
        while len(times) < max_steps and (len(times) < min_steps
                                          or total < min_ms):
            start = time.perf_counter()
            step(False)
            times.append((time.perf_counter() - start) * 1e3)
            total += times[-1]
        if words[0] == "block":
            emit({"event": "block", "ms": times})
        else:
            emit({"event": "warmup"})
