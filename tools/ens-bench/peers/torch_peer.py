# ===- torch_peer.py - The PyTorch training-step peer ---------------------=== #
#
# The ensemble training step in PyTorch, as its users write it: the one
# PyTorch peer, used by ens-bench and by the GPU check kit.
#
# ens-bench (tools/ens-bench/PeerRunner.h; common.py for the protocol) runs
# it on a workload's step, timed against ens:
#
#   --impl=loop     one nn.Sequential and one torch.optim.Adam per member,
#                   trained one after another (MLP only)
#   --impl=vmap     torch.func: the members' parameters stacked with
#                   stack_module_state, the functional_call loss vmapped
#                   over them (nested for ensembles of ensembles), the sum
#                   differentiated by autograd, one Adam on the stacks; for
#                   the tensordot model, the one-example model vmapped over
#                   the examples
#   --impl=compile  torch.compile of the members hand-batched with baddbmm
#                   (or the batched tensordot model), backward through
#                   AOTAutograd, one Adam
#
# Adam is torch.optim.Adam with its defaults (betas 0.9/0.999, eps 1e-8),
# fused=True where this PyTorch has the fused CPU kernel (the fastest here).
# The CNN (examples/cnn.mlir's member: conv2d, relu, max_pool2d twice, a
# linear head, cross_entropy) is trained with torch.optim.SGD instead, as
# ens trains it; its compile peer batches the members by hand as grouped
# convolutions (groups = members) and bmm.
#
# The GPU check kit (scripts/gpu-kit/run.sh) runs its `check` mode on one
# @train_step of examples/ensemble_train_step.mlir or of a workload made by
# examples/workloads/make_workloads.py: the step's outputs are checked
# against ens's, then timed.
#
#   python3 torch_peer.py check --state=DIR --want=DIR --activation=tanh \
#       --impl=vmap --runs=20
#
#   --impl=loop        a Python loop over the members: each member's
#                      parameters as leaves, forward, F.mse_loss,
#                      torch.autograd.grad, Adam on that member's tensors
#   --impl=vmap        torch.func: vmap(grad_and_value(loss)) over the stacked
#                      parameters (the batch shared), Adam on the stacks
#   --impl=vmap-graph  the vmap step captured once in a torch.cuda.CUDAGraph
#                      and replayed (CUDA only)
#   --impl=bmm         written by hand on the stacked parameters: each layer
#                      one torch.baddbmm over the member axis, autograd on
#                      the sum of the members' losses, Adam on the stacks
#   --impl=bmm-graph   the bmm step captured in a CUDA graph (CUDA only)
#
# There Adam is written out in torch ops (stdlib/adam.mlir's math: beta1
# 0.9, beta2 0.999, eps 1e-8, weight decay 0, per-member learning rates),
# not torch.optim.Adam: an optimizer starts from zero moments and keeps its
# own step count, so it cannot take the moments and the step that the state
# gives. DIR of --state holds in0.npy, in1.npy, ... (@train_step's 6L+4
# arguments), DIR of --want out0.npy, ... (its 6L+1 results; state_files.py).
# `check` prints one JSON line: the timing and the largest error,
# {"impl", "unavailable"} (exit 0) where this PyTorch cannot run the
# implementation, or {"impl", "mismatch"} (exit 1). Bad arguments or files:
# a message on stderr, exit 2.
#
# ===----------------------------------------------------------------------=== #

import argparse
import collections
import copy
import importlib
import json
import os
import re
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
try:
    import numpy as np
    import common  # noqa: E402
    import state_files  # noqa: E402
    NUMPY_ERROR = None
except ImportError as error:
    NUMPY_ERROR = error

try:
    import torch
    import torch.nn as nn
    import torch.nn.functional as F
    TORCH_ERROR = None
except (ImportError, OSError) as error:
    TORCH_ERROR = error


# ---- ens-bench: the step as users write it -------------------------------- #

def blas_info():
    """What does PyTorch's contractions, from torch.__config__.show()."""
    config = torch.__config__.show()
    parts = []
    match = re.search(r"BLAS_INFO=(\w+)", config)
    if match:
        parts.append(f"BLAS_INFO={match.group(1)}")
    for label, pattern in (("MKL", r"Math Kernel Library Version ([\w.\-]+)"),
                           ("OpenBLAS", r"OpenBLAS ([\d.]+)"),
                           ("oneDNN", r"MKL-DNN (v[\d.]+)")):
        match = re.search(pattern, config)
        if match:
            parts.append(f"{label} {match.group(1)}")
    return ", ".join(parts) if parts else "unknown (see torch.__config__)"


def adam(params, lr):
    try:
        return torch.optim.Adam(params, lr=lr, fused=True), "fused Adam"
    except (TypeError, RuntimeError):
        return torch.optim.Adam(params, lr=lr), "Adam"


def make_models(args, a):
    """The members as nn.Sequential: Linear, Tanh, ..., Linear."""
    widths = common.mlp_widths(args)
    models = []
    for m in range(args.members):
        layers = []
        for layer in range(1, len(widths)):
            linear = nn.Linear(widths[layer - 1], widths[layer])
            with torch.no_grad():
                linear.weight.copy_(torch.from_numpy(a[f"w{layer}"][m].T))
                linear.bias.copy_(torch.from_numpy(a[f"b{layer}"][m]))
            layers += [linear, nn.Tanh()]
        models.append(nn.Sequential(*layers[:-1]))
    return models


def mlp_loop(args, a):
    return loop_over_models(make_models(args, a), args.lr, a, args.members // args.groups)


def hetero_loop(args):
    """The hetero workload: one loop over the models of every architecture."""
    models, a = [], None
    for alone, a in common.hetero_architectures(args):
        models += make_models(alone, a)
    return loop_over_models(models, args.lr, a, len(models))


def loop_over_models(models, lr, a, per_group):
    """A step of each model in turn, member m on batch m // per_group of a's
    x and t."""
    optimizers = [adam(model.parameters(), lr)[0] for model in models]
    x, t = torch.from_numpy(a["x"]), torch.from_numpy(a["t"])

    def step(want):
        losses = []
        for m, (model, optimizer) in enumerate(zip(models, optimizers)):
            g = m // per_group
            loss = F.mse_loss(model(x[g]), t[g])
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            if want:
                losses.append(loss.item())
        return losses

    note = adam([torch.zeros(1, requires_grad=True)], 1.0)[1]
    return step, f"a loop over members: nn.Sequential, mse_loss, backward, " \
                 f"one {note} each"


def import_vmap():
    """torch.func's vmap, or functorch's before torch 2.0."""
    try:
        from torch.func import vmap
    except ImportError:
        from functorch import vmap
    return vmap


def stacked_members(models):
    """The members' parameters stacked along a leading axis, and
    `forward(p, x)`: one member's model with parameters `p` (functional_call
    of a stateless copy)."""
    from torch.func import functional_call, stack_module_state
    params, _ = stack_module_state(models)
    base = copy.deepcopy(models[0]).to("meta")
    return params, lambda p, x: functional_call(base, p, (x,))


def summed_losses_step(losses_of, optimizer):
    """The members' losses vmapped (`losses_of()`), their sum
    differentiated by autograd, one optimizer step: faster here than
    vmap(grad_and_value(...)) (3.9 against 4.8 ms for 128 members of
    64-32-8), so the faster form is the peer."""
    def step(want):
        losses = losses_of()
        optimizer.zero_grad()
        losses.sum().backward()
        optimizer.step()
        return losses.reshape(-1).tolist() if want else None
    return step


def mlp_vmap(args, a):
    vmap = import_vmap()
    params, forward = stacked_members(make_models(args, a))

    # The MSE written out: F.mse_loss has no batching rule for a target
    # batched at another vmap level than the input (torch 2.x).
    def member_loss(p, x, t):
        return (forward(p, x) - t).pow(2).mean()

    x, t = torch.from_numpy(a["x"]), torch.from_numpy(a["t"])
    g, k = args.groups, args.members // args.groups
    if g == 1:
        run, x, t = vmap(member_loss, in_dims=(0, None, None)), x[0], t[0]
        shape = lambda v: v  # noqa: E731
    elif g == args.members:
        run = vmap(member_loss, in_dims=(0, 0, 0))
        shape = lambda v: v  # noqa: E731
    else:
        run = vmap(vmap(member_loss, in_dims=(0, None, None)),
                   in_dims=(0, 0, 0))
        shape = lambda v: v.view(g, k, *v.shape[1:])  # noqa: E731
    optimizer, note = adam(list(params.values()), args.lr)
    step = summed_losses_step(
        lambda: run({n: shape(v) for n, v in params.items()}, x, t), optimizer)
    nested = "vmap(vmap(...))" if 1 < g < args.members else "vmap"
    return step, f"torch.func: stack_module_state, {nested} of the " \
                 f"functional_call loss, backward of the sum, one {note}"


def stacked_mlp(args, a):
    """The stacked parameters as leaves, and the members' losses."""
    params = [torch.tensor(a[n], requires_grad=True)
              for n in common.mlp_param_names(args)]
    g, k, m = args.groups, args.members // args.groups, args.members

    def per_member(data):
        if g == 1:
            return data.expand(m, *data.shape[1:])
        if g == m:
            return data
        return data.unsqueeze(1).expand(g, k, *data.shape[1:]).reshape(
            m, *data.shape[1:])

    def losses(*arguments):
        *p, x, t = arguments
        h = per_member(x)
        for i in range(0, len(p), 2):
            h = torch.baddbmm(p[i + 1].unsqueeze(1), h, p[i])
            if i + 2 < len(p):
                h = torch.tanh(h)
        return (h - per_member(t)).pow(2).mean(dim=(1, 2))

    return params, losses


def mlp_compile(args, a):
    if not hasattr(torch, "compile"):
        common.unavailable(f"torch {torch.__version__} has no torch.compile")
    params, losses = stacked_mlp(args, a)
    compiled = torch.compile(losses)
    optimizer, note = adam(params, args.lr)
    x, t = torch.from_numpy(a["x"]), torch.from_numpy(a["t"])

    def step(want):
        values = compiled(*params, x, t)
        optimizer.zero_grad()
        values.sum().backward()
        optimizer.step()
        return values.tolist() if want else None

    return step, f"torch.compile of the members hand-batched with baddbmm, " \
                 f"backward, one {note}"


def tensordot_step(args, a, impl):
    w = torch.tensor(a["w"], requires_grad=True)
    b = torch.tensor(a["b"], requires_grad=True)
    x, t = torch.from_numpy(a["x"]), torch.from_numpy(a["t"])
    optimizer, note = adam([w, b], args.lr)
    if impl == "vmap":
        vmap = import_vmap()

        def predict(example, w, b):
            return torch.tensordot(example, w, dims=([0, 1], [0, 1])) + b

        batched = vmap(predict, in_dims=(0, None, None))
        loss_of = lambda w, b: F.mse_loss(batched(x, w, b), t)  # noqa: E731
        how = "torch.func.vmap of the one-example model over the examples"
    elif impl == "compile":
        if not hasattr(torch, "compile"):
            common.unavailable(f"torch {torch.__version__} has no "
                               "torch.compile")
        loss_of = torch.compile(lambda w, b: F.mse_loss(
            torch.tensordot(x, w, dims=([1, 2], [0, 1])) + b, t))
        how = "torch.compile of tensordot over the batch"
    else:
        common.unavailable("not applicable to one model")

    def step(want):
        loss = loss_of(w, b)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        return [loss.item()] if want else None

    return step, f"{how}, mse_loss, backward, {note}"


def sgd(params, lr):
    return torch.optim.SGD(params, lr=lr)


def make_cnns(args, a):
    models = []
    for m in range(args.members):
        conv1 = nn.Conv2d(1, args.channels1, 3, padding=1)
        conv2 = nn.Conv2d(args.channels1, args.channels2, 3, padding=1)
        head = nn.Linear(a["w3"].shape[1], args.out)
        with torch.no_grad():
            conv1.weight.copy_(torch.from_numpy(a["w1"][m]))
            conv1.bias.copy_(torch.from_numpy(a["b1"][m]))
            conv2.weight.copy_(torch.from_numpy(a["w2"][m]))
            conv2.bias.copy_(torch.from_numpy(a["b2"][m]))
            head.weight.copy_(torch.from_numpy(a["w3"][m].T))
            head.bias.copy_(torch.from_numpy(a["b3"][m]))
        models.append(nn.Sequential(conv1, nn.ReLU(), nn.MaxPool2d(2), conv2,
                                    nn.ReLU(), nn.MaxPool2d(2), nn.Flatten(),
                                    head))
    return models


def cnn_loop(args, a):
    models = make_cnns(args, a)
    optimizers = [sgd(model.parameters(), args.lr) for model in models]
    x, t = torch.from_numpy(a["x"]), torch.from_numpy(a["t"])

    def step(want):
        losses = []
        for model, optimizer in zip(models, optimizers):
            loss = F.cross_entropy(model(x), t)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            if want:
                losses.append(loss.item())
        return losses

    return step, "a loop over members: nn.Sequential, cross_entropy, " \
                 "backward, one SGD each"


def cnn_vmap(args, a):
    vmap = import_vmap()
    params, forward = stacked_members(make_cnns(args, a))
    x, t = torch.from_numpy(a["x"]), torch.from_numpy(a["t"])

    def member_loss(p, x, t):
        return F.cross_entropy(forward(p, x), t)

    run = vmap(member_loss, in_dims=(0, None, None))
    optimizer = sgd(list(params.values()), args.lr)
    step = summed_losses_step(lambda: run(params, x, t), optimizer)
    return step, "torch.func: stack_module_state, vmap of the " \
                 "functional_call loss, backward of the sum, one SGD"


def cnn_compile(args, a):
    if not hasattr(torch, "compile"):
        common.unavailable(f"torch {torch.__version__} has no torch.compile")
    params = [torch.tensor(a[n], requires_grad=True)
              for n in ("w1", "b1", "w2", "b2", "w3", "b3")]
    m, b = args.members, args.batch
    x, t = torch.from_numpy(a["x"]), torch.from_numpy(a["t"])

    # The members as groups: channels [M * c], the image shared.
    def losses(w1, b1, w2, b2, w3, b3, x, t):
        h = x.expand(b, m, *x.shape[2:])
        h = F.conv2d(h, w1.flatten(0, 1), b1.flatten(), padding=1, groups=m)
        h = F.max_pool2d(F.relu(h), 2)
        h = F.conv2d(h, w2.flatten(0, 1), b2.flatten(), padding=1, groups=m)
        h = F.max_pool2d(F.relu(h), 2)
        features = h.reshape(b, m, -1).transpose(0, 1)  # [M, B, F]
        logits = torch.baddbmm(b3.unsqueeze(1), features, w3)  # [M, B, K]
        per = F.cross_entropy(logits.flatten(0, 1), t.repeat(m),
                              reduction="none")
        return per.view(m, b).mean(dim=1)

    compiled = torch.compile(losses)
    optimizer = sgd(params, args.lr)

    def step(want):
        values = compiled(*params, x, t)
        optimizer.zero_grad()
        values.sum().backward()
        optimizer.step()
        return values.tolist() if want else None

    return step, "torch.compile of the members hand-batched as grouped " \
                 "conv2d and baddbmm, backward, one SGD"


def bench_main():
    if NUMPY_ERROR:
        raise NUMPY_ERROR
    if TORCH_ERROR:
        common.unavailable(f"cannot import torch: {TORCH_ERROR}")
    args = common.parse_args()
    torch.set_num_threads(args.threads)
    if args.model == "tensordot":
        step, notes = tensordot_step(args, common.tensordot_arrays(args),
                                     args.impl)
    elif args.model == "hetero":
        if args.impl != "loop":
            common.unavailable(f"the hetero workload has no stacked form for {args.impl}")
        step, notes = hetero_loop(args)
    elif args.model == "cnn":
        make = {"loop": cnn_loop, "vmap": cnn_vmap, "compile": cnn_compile}
        if args.impl not in make:
            common.unavailable(f"unknown implementation {args.impl}")
        step, notes = make[args.impl](args, common.cnn_arrays(args))
    else:
        make = {"loop": mlp_loop, "vmap": mlp_vmap, "compile": mlp_compile}
        if args.impl not in make:
            common.unavailable(f"unknown implementation {args.impl}")
        step, notes = make[args.impl](args, common.mlp_arrays(args))
    info = {"impl": args.impl, "version": f"torch {torch.__version__}",
            "blas": blas_info(), "notes": notes,
            "threads": torch.get_num_threads()}
    common.serve(step, info, args.check_steps)


# ---- The GPU check kit: ens's step, checked against its outputs --------- #

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


def report_unavailable(impl, reason):
    """The implementation cannot run here: says why, exit 0."""
    emit({"impl": impl, "unavailable": reason})
    sys.exit(0)


def parse_check_args(argv):
    return state_files.parse_check_args(
        "torch_peer.py check", "PyTorch",
        ["loop", "vmap", "vmap-graph", "bmm", "bmm-graph"], argv)


def forward(params, x, activation):
    """One member's MLP: z = h @ w + b per layer, the activation between
    layers, the last z returned."""
    h = x
    for layer in range(0, len(params), 2):
        z = h @ params[layer] + params[layer + 1]
        if layer + 2 < len(params):
            h = activation(z)
    return z


def ens_adam(param, grad, m, v, step, lr):
    """stdlib/adam.mlir: returns (param', m', v'). `lr` broadcasts against
    param (a scalar for one member, [M, 1, ...] for the stacks)."""
    new_m = BETA1 * m + (1 - BETA1) * grad
    new_v = BETA2 * v + (1 - BETA2) * grad.square()
    m_hat = new_m / (1 - torch.pow(BETA1, step))
    v_hat = new_v / (1 - torch.pow(BETA2, step))
    # The decoupled weight-decay term is computed, as adam.mlir does, at 0.
    update = m_hat / (v_hat.sqrt() + EPS) + WEIGHT_DECAY * param
    return param - lr * update, new_m, new_v


def loop_step(state, activation):
    """A Python loop over the members, autograd on each member's leaves.
    Returns the outputs: new params, first moments, second moments, then
    the losses [M]."""
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
                new = ens_adam(p, g, state.first_moments[k][i],
                               state.second_moments[k][i], state.step,
                               state.lr[i])
                for j, value in enumerate(new):
                    per_member[j * len(leaves) + k].append(value)
        losses.append(loss.detach())
    return [torch.stack(values) for values in per_member] + [
        torch.stack(losses)]


def make_vmap_step(activation):
    """The torch.func step: grad_and_value of one member's loss, vmapped over
    the stacked parameters with the batch shared, then Adam on the stacks."""

    def member_loss(params, x, targets):
        return F.mse_loss(forward(params, x, activation), targets)

    vmap = import_vmap()
    grads_and_losses = vmap(torch.func.grad_and_value(member_loss),
                            in_dims=(0, None, None))

    def step(state):
        grads, losses = grads_and_losses(tuple(state.params), state.x,
                                         state.targets)
        new = [ens_adam(p, g, m, v, state.step,
                        state.lr.view(-1, *[1] * (p.dim() - 1)))
               for p, g, m, v in zip(state.params, grads, state.first_moments,
                                     state.second_moments)]
        return [n[0] for n in new] + [n[1] for n in new] + [
            n[2] for n in new] + [losses]

    return step


def make_bmm_step(activation):
    """The step written by hand on the stacked parameters: every layer one
    torch.baddbmm over the member axis (the shared batch expanded, not
    copied), autograd through the sum of the members' losses (each
    member's gradient is its own loss's), then Adam on the stacks."""

    def step(state):
        members = state.lr.shape[0]
        with torch.enable_grad():
            leaves = [p.detach().requires_grad_() for p in state.params]
            h = state.x.expand(members, *state.x.shape)
            for layer in range(0, len(leaves), 2):
                z = torch.baddbmm(leaves[layer + 1].unsqueeze(1), h,
                                  leaves[layer])
                if layer + 2 < len(leaves):
                    h = activation(z)
            losses = (z - state.targets).square().mean(dim=(1, 2))
            grads = torch.autograd.grad(losses.sum(), leaves)
        with torch.no_grad():
            new = [ens_adam(p, g, m, v, state.step,
                            state.lr.view(-1, *[1] * (p.dim() - 1)))
                   for p, g, m, v in zip(state.params, grads,
                                         state.first_moments,
                                         state.second_moments)]
        return [n[0] for n in new] + [n[1] for n in new] + [
            n[2] for n in new] + [losses.detach()]

    return step


def capture_graph(step, state):
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


def make_call(impl, state, activation):
    """The step of `impl` as a call with no arguments returning the
    outputs; every call reads the same `state`."""
    if impl == "loop":
        return lambda: loop_step(state, activation)
    if impl.startswith("bmm"):
        step = make_bmm_step(activation)
    else:
        step = make_vmap_step(activation)
    if impl in ("vmap", "bmm"):
        return lambda: step(state)
    return capture_graph(step, state)


def time_calls(call, runs, warmup, cuda):
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


def choose_device(args):
    """The device to run on, or why the implementation cannot run."""
    device = args.device or ("cuda" if torch.cuda.is_available() else "cpu")
    if device == "cuda" and not torch.cuda.is_available():
        return None, f"this torch {torch.__version__} sees no CUDA device"
    if args.impl.endswith("-graph") and device != "cuda":
        return None, "CUDA graphs need a CUDA device"
    if args.impl in ("vmap", "vmap-graph"):
        try:
            importlib.import_module("torch.func")
        except ImportError:
            return None, f"torch {torch.__version__} has no torch.func"
    return device, None


def check_main(argv):
    args = parse_check_args(argv)
    if NUMPY_ERROR:
        report_unavailable(args.impl, f"cannot import numpy: {NUMPY_ERROR}")
    if TORCH_ERROR:
        report_unavailable(args.impl, f"cannot import torch: {TORCH_ERROR}")
    device, reason = choose_device(args)
    if reason:
        report_unavailable(args.impl, reason)

    arrays, layers = state_files.load_state(np, args.state)
    want = state_files.load_want(
        np, args.want, state_files.check_state_shapes(arrays, layers))
    tensors = [torch.from_numpy(a).to(device) for a in arrays]
    n = 2 * layers
    state = State(tensors[:n], tensors[n:2 * n], tensors[2 * n:3 * n],
                  *tensors[3 * n:])
    activation = torch.tanh if args.activation == "tanh" else torch.relu

    call = make_call(args.impl, state, activation)
    got = [t.detach().cpu().numpy() for t in call()]
    largest, mismatch = state_files.compare(np, got, want, args.atol,
                                            args.rtol)
    if mismatch:
        emit({"impl": args.impl, "mismatch": mismatch})
        sys.exit(1)

    cuda = device == "cuda"
    seconds = time_calls(call, args.runs, args.warmup, cuda)
    emit({"impl": args.impl,
          "device": torch.cuda.get_device_name() if cuda else "cpu",
          "runs": args.runs, "median_s": statistics.median(seconds),
          "min_s": min(seconds), "max_s": max(seconds), "checked": True,
          "max_abs_error": largest})


def main():
    if sys.argv[1:2] == ["check"]:
        check_main(sys.argv[2:])
    else:
        bench_main()


if __name__ == "__main__":
    main()
