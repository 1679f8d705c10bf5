# ===- torch_peers.py - The ensemble training step in PyTorch -------------=== #
#
# One @train_step of examples/ensemble_train_step.mlir or of a workload made
# by examples/workloads/make_workloads.py, written as PyTorch users write it,
# checked against the outputs of ens and timed (part of the GPU check kit;
# it needs PyTorch and numpy, not ens):
#
#   --impl=loop        a Python loop over the members: each member's
#                      parameters as leaves, forward, F.mse_loss,
#                      torch.autograd.grad, Adam on that member's tensors
#   --impl=vmap        torch.func: vmap(grad_and_value(loss)) over the stacked
#                      parameters (the batch shared), Adam on the stacks
#   --impl=vmap-graph  the vmap step captured once in a torch.cuda.CUDAGraph
#                      and replayed (CUDA only)
#
# Adam is written out in torch ops (stdlib/adam.mlir's math: beta1 0.9,
# beta2 0.999, eps 1e-8, weight decay 0, per-member learning rates), not
# torch.optim.Adam: an optimizer starts from zero moments and keeps its own
# step count, so it cannot take the moments and the step that the state
# gives.
#
#   python3 torch_peers.py --state=DIR --want=DIR --activation=tanh \
#       --impl=vmap --runs=20
#
# DIR of --state holds in0.npy, in1.npy, ... (@train_step's 6L+4 arguments),
# DIR of --want out0.npy, ... (its 6L+1 results). Prints one JSON line: the
# timing and the largest error, {"impl", "unavailable"} (exit 0) where this
# PyTorch cannot run the implementation, or {"impl", "mismatch"} (exit 1).
# Bad arguments or files: a message on stderr, exit 2.
#
# ===----------------------------------------------------------------------=== #

import argparse
import collections
import importlib
import json
import os
import re
import statistics
import sys
import time

BETA1 = 0.9
BETA2 = 0.999
EPS = 1e-8
WEIGHT_DECAY = 0.0

# @train_step's arguments, loaded onto the device: params, first_moments and
# second_moments are lists of 2L stacked tensors (w1, b1, w2, b2, ...).
State = collections.namedtuple(
    "State", "params first_moments second_moments step lr x targets")


def emit(message):
    """Prints the one JSON line of the result."""
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def unavailable(impl, reason):
    emit({"impl": impl, "unavailable": reason})
    sys.exit(0)


def fail(message):
    """Bad arguments or files: a message on stderr, exit 2."""
    sys.stderr.write(f"torch_peers.py: {message}\n")
    sys.exit(2)


def parse_args():
    parser = argparse.ArgumentParser(
        description="The ens ensemble training step in PyTorch: checked "
                    "against ens's outputs, then timed.")
    parser.add_argument("--state", required=True,
                        help="folder of the inputs in0.npy, in1.npy, ...")
    parser.add_argument("--want", required=True,
                        help="folder of the expected outputs out0.npy, ...")
    parser.add_argument("--activation", required=True,
                        choices=["tanh", "relu"])
    parser.add_argument("--impl", required=True,
                        choices=["loop", "vmap", "vmap-graph"])
    parser.add_argument("--runs", type=int, required=True,
                        help="timed calls of the step")
    parser.add_argument("--warmup", type=int, default=3,
                        help="untimed calls before them (default 3)")
    parser.add_argument("--atol", type=float, default=2e-4)
    parser.add_argument("--rtol", type=float, default=1e-3)
    parser.add_argument("--device", choices=["cuda", "cpu"],
                        help="default: cuda where available, else cpu")
    args = parser.parse_args()
    if args.runs < 1:
        parser.error("--runs must be at least 1")
    if args.warmup < 0:
        parser.error("--warmup must not be negative")
    if not (args.atol >= 0 and args.rtol >= 0):
        parser.error("--atol and --rtol must not be negative")
    return args


# ---- Files ---------------------------------------------------------------- #

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
    """The expected outputs out0.npy ... of `folder`, of the given shapes."""
    arrays = []
    for i, shape in enumerate(shapes):
        array = load_array(np, os.path.join(folder, f"out{i}.npy"))
        if array.shape != shape:
            fail(f"{folder}/out{i}.npy has shape {array.shape}; the step "
                 f"makes {shape}")
        arrays.append(array)
    return arrays


# ---- The step ------------------------------------------------------------- #

def forward(params, x, activation):
    """One member's MLP: z = h @ w + b per layer, the activation between
    layers, the last z returned."""
    h = x
    for layer in range(0, len(params), 2):
        z = h @ params[layer] + params[layer + 1]
        if layer + 2 < len(params):
            h = activation(z)
    return z


def adam(torch, param, grad, m, v, step, lr):
    """stdlib/adam.mlir: returns (param', m', v'). `lr` broadcasts against
    param (a scalar for one member, [M, 1, ...] for the stacks)."""
    new_m = BETA1 * m + (1 - BETA1) * grad
    new_v = BETA2 * v + (1 - BETA2) * grad.square()
    m_hat = new_m / (1 - torch.pow(BETA1, step))
    v_hat = new_v / (1 - torch.pow(BETA2, step))
    # The decoupled weight-decay term is computed, as adam.mlir does, at 0.
    update = m_hat / (v_hat.sqrt() + EPS) + WEIGHT_DECAY * param
    return param - lr * update, new_m, new_v


def loop_step(torch, state, activation):
    """A Python loop over the members, autograd on each member's leaves.
    Returns the outputs: new params, first moments, second moments, then
    the losses [M]."""
    F = torch.nn.functional
    members = state.lr.shape[0]
    per_member = [[] for _ in range(3 * len(state.params))]
    losses = []
    for i in range(members):
        leaves = [p[i].detach().requires_grad_() for p in state.params]
        loss = F.mse_loss(forward(leaves, state.x, activation),
                          state.targets)
        grads = torch.autograd.grad(loss, leaves)
        with torch.no_grad():
            for k, (p, g) in enumerate(zip(leaves, grads)):
                new = adam(torch, p, g, state.first_moments[k][i],
                           state.second_moments[k][i], state.step,
                           state.lr[i])
                for j, value in enumerate(new):
                    per_member[j * len(leaves) + k].append(value)
        losses.append(loss.detach())
    return [torch.stack(values) for values in per_member] + [
        torch.stack(losses)]


def make_vmap_step(torch, activation):
    """The torch.func step: grad_and_value of one member's loss, vmapped over
    the stacked parameters with the batch shared, then Adam on the stacks."""
    F = torch.nn.functional

    def member_loss(params, x, targets):
        return F.mse_loss(forward(params, x, activation), targets)

    grads_and_losses = torch.func.vmap(torch.func.grad_and_value(member_loss),
                                       in_dims=(0, None, None))

    def step(state):
        grads, losses = grads_and_losses(tuple(state.params), state.x,
                                         state.targets)
        new = [adam(torch, p, g, m, v, state.step,
                    state.lr.view(-1, *[1] * (p.dim() - 1)))
               for p, g, m, v in zip(state.params, grads, state.first_moments,
                                     state.second_moments)]
        return [n[0] for n in new] + [n[1] for n in new] + [
            n[2] for n in new] + [losses]

    return step


def capture_graph(torch, step, state):
    """Captures step(state) in a CUDA graph, after three warm-up calls on a
    side stream (as torch.cuda.graph's documentation does). Returns a call
    that replays it and returns its static outputs."""
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        for _ in range(3):
            step(state)
    torch.cuda.current_stream().wait_stream(side)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        outputs = step(state)

    def replay():
        graph.replay()
        return outputs

    return replay


def make_call(torch, impl, state, activation):
    """The step of `impl` as a call with no arguments returning the
    outputs; every call reads the same `state`."""
    if impl == "loop":
        return lambda: loop_step(torch, state, activation)
    step = make_vmap_step(torch, activation)
    if impl == "vmap":
        return lambda: step(state)
    return capture_graph(torch, step, state)


# ---- Checking and timing -------------------------------------------------- #

def compare(np, got, want, atol, rtol):
    """The largest |got - want| over all outputs, or a line naming the
    first output with an element outside atol + rtol |want| (its worst)."""
    largest = 0.0
    for k, (g, w) in enumerate(zip(got, want)):
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


def time_calls(torch, call, runs, warmup, cuda):
    """Seconds per call for `runs` calls after `warmup` untimed ones: CUDA
    events around each call on the GPU, perf_counter on the CPU."""
    for _ in range(warmup):
        call()
    if cuda:
        torch.cuda.synchronize()
    seconds = []
    for _ in range(runs):
        if cuda:
            start = torch.cuda.Event(enable_timing=True)
            end = torch.cuda.Event(enable_timing=True)
            start.record()
            call()
            end.record()
            torch.cuda.synchronize()
            seconds.append(start.elapsed_time(end) / 1000.0)
        else:
            start = time.perf_counter()
            call()
            seconds.append(time.perf_counter() - start)
    return seconds


def choose_device(torch, args):
    """The device to run on, or why the implementation cannot run."""
    device = args.device or ("cuda" if torch.cuda.is_available() else "cpu")
    if device == "cuda" and not torch.cuda.is_available():
        return None, f"this torch {torch.__version__} sees no CUDA device"
    if args.impl == "vmap-graph" and device != "cuda":
        return None, "CUDA graphs need a CUDA device"
    if args.impl != "loop":
        try:
            importlib.import_module("torch.func")
        except ImportError:
            return None, f"torch {torch.__version__} has no torch.func"
    return device, None


def main():
    args = parse_args()
    try:
        import numpy as np
    except ImportError as error:
        unavailable(args.impl, f"cannot import numpy: {error}")
    try:
        import torch
    except (ImportError, OSError) as error:
        unavailable(args.impl, f"cannot import torch: {error}")
    device, reason = choose_device(torch, args)
    if reason:
        unavailable(args.impl, reason)

    arrays, layers = load_state(np, args.state)
    want = load_want(np, args.want, check_state_shapes(arrays, layers))
    tensors = [torch.from_numpy(a).to(device) for a in arrays]
    n = 2 * layers
    state = State(tensors[:n], tensors[n:2 * n], tensors[2 * n:3 * n],
                  *tensors[3 * n:])
    activation = torch.tanh if args.activation == "tanh" else torch.relu

    call = make_call(torch, args.impl, state, activation)
    got = [t.detach().cpu().numpy() for t in call()]
    largest, mismatch = compare(np, got, want, args.atol, args.rtol)
    if mismatch:
        emit({"impl": args.impl, "mismatch": mismatch})
        sys.exit(1)

    cuda = device == "cuda"
    seconds = time_calls(torch, call, args.runs, args.warmup, cuda)
    emit({"impl": args.impl,
          "device": torch.cuda.get_device_name() if cuda else "cpu",
          "runs": args.runs, "median_s": statistics.median(seconds),
          "min_s": min(seconds), "max_s": max(seconds), "checked": True,
          "max_abs_error": largest})


if __name__ == "__main__":
    main()
