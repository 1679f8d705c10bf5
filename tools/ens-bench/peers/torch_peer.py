# ===- torch_peer.py - ens-bench's PyTorch peers --------------------------=== #
#
# The training step of an ens-bench workload in PyTorch, as its users write
# it (run by ens-bench; see common.py for the protocol):
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
# ===----------------------------------------------------------------------=== #

import copy
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402

try:
    import torch
    import torch.nn as nn
    import torch.nn.functional as F
except ImportError as error:
    common.unavailable(f"cannot import torch: {error}")


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
    models = []
    for m in range(args.members):
        first = nn.Linear(args.inputs, args.hidden)
        second = nn.Linear(args.hidden, args.out)
        with torch.no_grad():
            first.weight.copy_(torch.from_numpy(a["w1"][m].T))
            first.bias.copy_(torch.from_numpy(a["b1"][m]))
            second.weight.copy_(torch.from_numpy(a["w2"][m].T))
            second.bias.copy_(torch.from_numpy(a["b2"][m]))
        models.append(nn.Sequential(first, nn.Tanh(), second))
    return models


def mlp_loop(args, a):
    models = make_models(args, a)
    optimizers = [adam(model.parameters(), args.lr)[0] for model in models]
    x, t = torch.from_numpy(a["x"]), torch.from_numpy(a["t"])
    per_group = args.members // args.groups

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
              for n in ("w1", "b1", "w2", "b2")]
    g, k, m = args.groups, args.members // args.groups, args.members

    def per_member(data):
        if g == 1:
            return data.expand(m, *data.shape[1:])
        if g == m:
            return data
        return data.unsqueeze(1).expand(g, k, *data.shape[1:]).reshape(
            m, *data.shape[1:])

    def losses(w1, b1, w2, b2, x, t):
        h = torch.tanh(torch.baddbmm(b1.unsqueeze(1), per_member(x), w1))
        y = torch.baddbmm(b2.unsqueeze(1), h, w2)
        return (y - per_member(t)).pow(2).mean(dim=(1, 2))

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


def main():
    args = common.parse_args()
    torch.set_num_threads(args.threads)
    if args.model == "tensordot":
        step, notes = tensordot_step(args, common.tensordot_arrays(args),
                                     args.impl)
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


if __name__ == "__main__":
    main()
