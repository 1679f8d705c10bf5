# ===- state_files.py - A training step's state and results, checked ------=== #
#
# The files of a training step of L layers, as the GPU check kit carries
# them: in0.npy ... in{6L+3}.npy (@train_step's arguments: w1, b1, ... then
# the first and second moments, the step, the per-member learning rates, x
# and the targets) and out0.npy ... out{6L}.npy (its results: the new
# parameters and moments, then the losses). torch_peer.py's `check` mode
# reads them and compares its outputs with them. Needs numpy only.
#
# ===----------------------------------------------------------------------=== #

import os
import re
import sys


def fail(message):
    """Bad arguments or files: a message on stderr, exit 2."""
    sys.stderr.write(f"torch_peer.py check: {message}\n")
    sys.exit(2)


def load_array(np, path):
    """One float .npy file as float32."""
    try:
        array = np.load(path, allow_pickle=False)
    except (OSError, ValueError) as error:
        fail(f"cannot read {path}: {error}")
    if array.dtype.kind != "f":
        fail(f"{path} holds {array.dtype}, not floats")
    return array.astype(np.float32, copy=False)


def load_state(np, folder):
    """The arrays in0.npy ... in{6L+3}.npy of `folder`, and L."""
    try:
        names = os.listdir(folder)
    except OSError as error:
        fail(f"cannot read the state folder {folder}: {error}")
    indices = sorted(int(match.group(1)) for match in
                     (re.fullmatch(r"in(\d+)\.npy", name) for name in names)
                     if match)
    count = len(indices)
    if indices != list(range(count)):
        fail(f"{folder} must hold in0.npy, in1.npy, ... with no gaps "
             f"(found indices {indices})")
    if count < 10 or (count - 4) % 6:
        fail(f"{folder} holds {count} inputs; a training step of L layers "
             "takes 6L+4")
    arrays = [load_array(np, os.path.join(folder, f"in{i}.npy"))
              for i in range(count)]
    return arrays, (count - 4) // 6


def param_shapes(arrays, layers):
    """The stacked shapes of w1, b1, ... from the weights given, checked to
    chain from layer to layer."""
    shapes = []
    for layer in range(layers):
        w = arrays[2 * layer].shape
        if len(w) != 3:
            fail(f"in{2 * layer}.npy (w{layer + 1}) has shape {w}, not "
                 "[members, in, out]")
        if shapes and (w[0], w[1]) != (shapes[0][0], shapes[-2][2]):
            fail(f"in{2 * layer}.npy (w{layer + 1}) has shape {w}, which "
                 f"does not follow w{layer}'s {shapes[-2]}")
        shapes += [w, (w[0], w[2])]
    return shapes


def check_state_shapes(arrays, layers):
    """Checks every input's shape; returns the outputs' shapes."""
    shapes = param_shapes(arrays, layers)
    members, width_in, width_out = shapes[0][0], shapes[0][1], shapes[-1][1]
    x = arrays[6 * layers + 2].shape
    if len(x) != 2:
        fail(f"in{6 * layers + 2}.npy (x) has shape {x}, not "
             f"[batch, {width_in}]")
    expected = shapes * 3 + [(), (members,), (x[0], width_in),
                             (x[0], width_out)]
    for i, (array, shape) in enumerate(zip(arrays, expected)):
        if array.shape != shape:
            fail(f"in{i}.npy has shape {array.shape}, expected {shape}")
    return shapes * 3 + [(members,)]


def load_want(np, folder, shapes):
    """The expected outputs out0.npy ... of `folder`, of the given shapes;
    None for each output that `folder`/unchecked lists (one index a line:
    results the GPU kit leaves out to stay small)."""
    unchecked = set()
    path = os.path.join(folder, "unchecked")
    if os.path.exists(path):
        with open(path) as f:
            unchecked = {int(line) for line in f if line.strip()}
    arrays = []
    for i, shape in enumerate(shapes):
        if i in unchecked:
            arrays.append(None)
            continue
        array = load_array(np, os.path.join(folder, f"out{i}.npy"))
        if array.shape != shape:
            fail(f"{folder}/out{i}.npy has shape {array.shape}; the step "
                 f"makes {shape}")
        arrays.append(array)
    return arrays


def compare(np, got, want, atol, rtol):
    """The largest |got - want| over all outputs, or a line naming the
    first output with an element outside atol + rtol |want| (its worst)."""
    largest = 0.0
    for k, (g, w) in enumerate(zip(got, want)):
        if w is None:
            continue
        error = np.abs(g - w)
        bad = ~np.isclose(g, w, rtol=rtol, atol=atol, equal_nan=True)
        if bad.any():
            excess = np.where(bad, np.nan_to_num(error, nan=np.inf), -1.0)
            i = int(excess.argmax())
            return None, (f"output {k} element {i}: got "
                          f"{float(g.ravel()[i]):.9g}, expected "
                          f"{float(w.ravel()[i]):.9g}")
        largest = max(largest, float(np.max(error, initial=0.0,
                                            where=~np.isnan(error))))
    return largest, None


def parse_check_args(prog, framework, impls, argv):
    """The command line of a peer's `check` mode (torch_peer.py's,
    jax_peer.py's)."""
    import argparse
    parser = argparse.ArgumentParser(
        prog=prog,
        description=f"The ens ensemble training step in {framework}: "
                    "checked against ens's outputs, then timed.")
    parser.add_argument("--state", required=True,
                        help="folder of the inputs in0.npy, in1.npy, ...")
    parser.add_argument("--want", required=True,
                        help="folder of the expected outputs out0.npy, ...")
    parser.add_argument("--activation", required=True,
                        choices=["tanh", "relu"])
    parser.add_argument("--impl", required=True, choices=impls)
    parser.add_argument("--runs", type=int, required=True,
                        help="timed calls of the step")
    parser.add_argument("--warmup", type=int, default=3,
                        help="untimed calls before them (default 3)")
    parser.add_argument("--atol", type=float, default=2e-4)
    parser.add_argument("--rtol", type=float, default=1e-3)
    parser.add_argument("--device", choices=["cuda", "cpu"],
                        help="default: cuda where available, else cpu")
    args = parser.parse_args(argv)
    if args.runs < 1:
        parser.error("--runs must be at least 1")
    if args.warmup < 0:
        parser.error("--warmup must not be negative")
    if not (args.atol >= 0 and args.rtol >= 0):
        parser.error("--atol and --rtol must not be negative")
    return args
