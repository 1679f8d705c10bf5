# ===- jax_peer.py - ens-bench's JAX peer ---------------------------------=== #
#
# The training step of an ens-bench workload in JAX, written the way JAX
# users batch models (run by ens-bench; see common.py for the protocol):
#
#   --impl=jit-vmap  ONE jax.jit of the whole step: vmap(value_and_grad) of
#                    the one-member loss over the stacked parameters (nested
#                    vmaps for ensembles of ensembles; for the tensordot
#                    model, value_and_grad of the MSE of the one-example
#                    model vmapped over the examples), then Adam (as
#                    torch.optim.Adam: betas 0.9/0.999, eps 1e-8), with the
#                    state buffers donated. For the CNN (examples/cnn.mlir's
#                    member: lax.conv_general_dilated, relu, reduce_window
#                    max, a linear head, softmax cross-entropy) the update is
#                    SGD, as ens's.
#
# The GPU check kit (scripts/gpu-kit/run.sh) runs its `check` mode, as
# torch_peer.py's: the @train_step of a kit program in JAX (jit of
# vmap(value_and_grad) plus `adam`, matmuls at Precision.HIGHEST), its
# outputs checked against ens's, then timed; one JSON line, as there.
#
#   python3 jax_peer.py check --state=DIR --want=DIR --activation=tanh \
#       --impl=jit-vmap --runs=20
#
# ===----------------------------------------------------------------------=== #

import os
import sys
from functools import partial

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402

import state_files  # noqa: E402

JAX_ERROR = None
try:
    import jax
    import jax.numpy as jnp
    import jaxlib
except ImportError as error:
    JAX_ERROR = error

BETA1, BETA2, EPS = 0.9, 0.999, 1e-8


def adam(p, g, m, v, step, lr):
    m = BETA1 * m + (1 - BETA1) * g
    v = BETA2 * v + (1 - BETA2) * g * g
    m_hat = m / (1 - BETA1 ** step)
    v_hat = v / (1 - BETA2 ** step)
    return p - lr * m_hat / (jnp.sqrt(v_hat) + EPS), m, v


def make_step(loss_and_grads, lr):
    """The jitted step (params, m, v, step, x, t) -> (params', m', v',
    losses), with params, m and v donated."""
    @partial(jax.jit, donate_argnums=(0, 1, 2))
    def step(params, m, v, count, x, t):
        losses, grads = loss_and_grads(params, x, t)
        updated = jax.tree_util.tree_map(
            lambda p, g, mm, vv: adam(p, g, mm, vv, count, lr),
            params, grads, m, v)
        leaves = lambda i: jax.tree_util.tree_map(  # noqa: E731
            lambda _, u: u[i], params, updated)
        return leaves(0), leaves(1), leaves(2), losses
    return step


def mlp(args, a):
    names = common.mlp_param_names(args)

    def member_loss(p, x, t):
        h = x
        for i in range(0, len(names), 2):
            h = h @ p[names[i]] + p[names[i + 1]]
            if i + 2 < len(names):
                h = jnp.tanh(h)
        return jnp.mean((h - t) ** 2)

    member = jax.value_and_grad(member_loss)
    g, k = args.groups, args.members // args.groups
    x, t = a["x"], a["t"]
    if g == 1:
        run, x, t, shape = jax.vmap(member, (0, None, None)), x[0], t[0], ()
        how = "vmap"
    elif g == args.members:
        run, shape, how = jax.vmap(member, (0, 0, 0)), (), "vmap"
    else:
        run = jax.vmap(jax.vmap(member, (0, None, None)), (0, 0, 0))
        shape, how = (g, k), "vmap(vmap(...))"
    params = {n: jnp.asarray(a[n].reshape(shape + a[n].shape[1:]) if shape
                             else a[n]) for n in names}
    return (params, run, jnp.asarray(x), jnp.asarray(t),
            f"jit of {how}(value_and_grad) + Adam, one XLA program")


def cnn(args, a):
    dims = ("NCHW", "OIHW", "NCHW")

    def block(x, w, b):
        y = jax.lax.conv_general_dilated(x, w, (1, 1), ((1, 1), (1, 1)),
                                         dimension_numbers=dims)
        y = jax.nn.relu(y + b[None, :, None, None])
        return jax.lax.reduce_window(y, -jnp.inf, jax.lax.max, (1, 1, 2, 2),
                                     (1, 1, 2, 2), "VALID")

    def member_loss(p, x, t):
        h = block(block(x, p["w1"], p["b1"]), p["w2"], p["b2"])
        logits = h.reshape(h.shape[0], -1) @ p["w3"] + p["b3"]
        log_p = jax.nn.log_softmax(logits)
        return -jnp.mean(jnp.take_along_axis(log_p, t[:, None], axis=1))

    run = jax.vmap(jax.value_and_grad(member_loss), (0, None, None))
    params = {n: jnp.asarray(a[n])
              for n in ("w1", "b1", "w2", "b2", "w3", "b3")}
    return (params, run, jnp.asarray(a["x"]),
            jnp.asarray(a["t"].astype("int32")),
            "jit of vmap(value_and_grad) + SGD, one XLA program")


def make_sgd_step(loss_and_grads, lr):
    """The jitted step (params, x, t) -> (params', losses), params donated."""
    @partial(jax.jit, donate_argnums=(0,))
    def step(params, x, t):
        losses, grads = loss_and_grads(params, x, t)
        return jax.tree_util.tree_map(lambda p, g: p - lr * g, params,
                                      grads), losses
    return step


def tensordot(args, a):
    def predict(example, w, b):
        return jnp.tensordot(example, w, axes=([0, 1], [0, 1])) + b

    def loss(p, x, t):
        y = jax.vmap(predict, (0, None, None))(x, p["w"], p["b"])
        return jnp.mean((y - t) ** 2)

    params = {"w": jnp.asarray(a["w"]), "b": jnp.asarray(a["b"])}
    return (params, jax.value_and_grad(loss), jnp.asarray(a["x"]),
            jnp.asarray(a["t"]),
            "jit of value_and_grad(mse(vmap(predict))) + Adam, one XLA program")


def dot_kernels():
    """What computes the contractions. XLA:CPU runs its own kernels, built
    into jaxlib; it calls no BLAS library (numpy's, loaded for the data, is
    not used by the step)."""
    return f"XLA:CPU's own kernels in jaxlib {jaxlib.__version__} " \
           f"(no external BLAS)"


def check_step(activation, layers):
    """The GPU check kit's step (torch_peer.py's `check`, in JAX): jit of
    vmap(value_and_grad) of one member's L-layer MLP MSE loss over the
    stacked parameters (the batch shared), then `adam` on the stacks with
    the state's moments, step and per-member learning rates; every matmul
    at full FP32 (Precision.HIGHEST). Returns params', m', v', losses."""
    act = jnp.tanh if activation == "tanh" else jax.nn.relu
    highest = jax.lax.Precision.HIGHEST

    def member_loss(params, x, t):
        h = x
        for layer in range(0, 2 * layers, 2):
            z = jnp.matmul(h, params[layer], precision=highest) + \
                params[layer + 1]
            if layer + 2 < 2 * layers:
                h = act(z)
        return jnp.mean((z - t) ** 2)

    grads_and_losses = jax.vmap(jax.value_and_grad(member_loss),
                                (0, None, None))

    @jax.jit
    def step(params, m, v, count, lr, x, t):
        losses, grads = grads_and_losses(params, x, t)
        new = [adam(p, g, mm, vv, count,
                    lr.reshape((-1,) + (1,) * (p.ndim - 1)))
               for p, g, mm, vv in zip(params, grads, m, v)]
        return ([n[0] for n in new] + [n[1] for n in new] +
                [n[2] for n in new] + [losses])

    return step


def check_main(argv):
    import json
    import statistics
    import time

    import numpy as np
    args = state_files.parse_check_args("jax_peer.py check", "JAX",
                                        ["jit-vmap"], argv)

    def emit(message):
        print(json.dumps(message), flush=True)

    if JAX_ERROR:
        emit({"impl": args.impl, "unavailable": f"cannot import jax: "
              f"{JAX_ERROR}"})
        return
    if args.device:
        try:
            device = jax.devices(args.device)[0]
        except RuntimeError as error:
            emit({"impl": args.impl, "unavailable": str(error)})
            return
    else:
        device = jax.devices()[0]
    arrays, layers = state_files.load_state(np, args.state)
    want = state_files.load_want(
        np, args.want, state_files.check_state_shapes(arrays, layers))
    a = [jax.device_put(x, device) for x in arrays]
    n = 2 * layers
    inputs = (a[:n], a[n:2 * n], a[2 * n:3 * n], *a[3 * n:])
    step = check_step(args.activation, layers)
    with jax.default_matmul_precision("highest"):
        def call():
            outputs = step(*inputs)
            jax.block_until_ready(outputs)
            return outputs

        got = [np.asarray(x) for x in call()]
        largest, mismatch = state_files.compare(np, got, want, args.atol,
                                                args.rtol)
        if mismatch:
            emit({"impl": args.impl, "mismatch": mismatch})
            sys.exit(1)
        for _ in range(args.warmup):
            call()
        seconds = []
        for _ in range(args.runs):
            start = time.perf_counter()
            call()
            seconds.append(time.perf_counter() - start)
    emit({"impl": args.impl, "device": str(device), "runs": args.runs,
          "median_s": statistics.median(seconds), "min_s": min(seconds),
          "max_s": max(seconds), "checked": True, "max_abs_error": largest,
          "version": f"jax {jax.__version__}"})


def main():
    if sys.argv[1:2] == ["check"]:
        check_main(sys.argv[2:])
        return
    if JAX_ERROR:
        common.unavailable(f"cannot import jax: {JAX_ERROR}")
    args = common.parse_args()
    if args.impl != "jit-vmap":
        common.unavailable(f"unknown implementation {args.impl}")
    if args.model == "cnn":
        params, run, x, t, notes = cnn(args, common.cnn_arrays(args))
        sgd_step = make_sgd_step(run, args.lr)
        state = {"p": params}

        def step(want):
            p, losses = sgd_step(state["p"], x, t)
            losses.block_until_ready()
            state["p"] = p
            return [float(l) for l in losses] if want else None

        serve(args, step, notes)
        return
    if args.model == "mlp":
        params, run, x, t, notes = mlp(args, common.mlp_arrays(args))
    else:
        params, run, x, t, notes = tensordot(args,
                                             common.tensordot_arrays(args))
    step_fn = make_step(run, args.lr)
    zeros = lambda: jax.tree_util.tree_map(jnp.zeros_like, params)  # noqa
    state = {"p": params, "m": zeros(), "v": zeros(), "count": 0}

    def step(want):
        state["count"] += 1
        p, m, v, losses = step_fn(state["p"], state["m"], state["v"],
                                  jnp.float32(state["count"]), x, t)
        losses.block_until_ready()
        state.update(p=p, m=m, v=v)
        return [float(l) for l in jnp.ravel(losses)] if want else None

    serve(args, step, notes)


def serve(args, step, notes):
    info = {"impl": args.impl,
            "version": f"jax {jax.__version__}, jaxlib {jaxlib.__version__} "
                       f"({jax.default_backend()})",
            "blas": dot_kernels(), "notes": notes,
            "threads": len(os.sched_getaffinity(0))}
    common.serve(step, info, args.check_steps)


if __name__ == "__main__":
    main()
