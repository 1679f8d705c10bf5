"""The IR examples against NumPy: examples/multi_head_q_network.mlir, the
seed's 128-head Q-network written with ens.stdlib_call (issue #27 item 5),
and ens.FunctionBuilder's library calls at a shape of their own."""

import pathlib

import numpy as np
import pytest

import ens

EXAMPLES = pathlib.Path(__file__).resolve().parents[2] / "examples"
HEADS, BATCH, STATES, HIDDEN, ACTIONS = 128, 32, 6, 16, 4


def np_q_network_step(params, moments, step, lr, x, r):
    """One Adam step (betas 0.9, 0.999, eps 1e-8) of every head on its own
    MSE, with the gradients written out by hand; returns the new
    parameters, first and second moments, and the heads' losses."""
    w1, b1, w2, b2 = [p.astype(np.float64) for p in params]
    h = np.tanh(np.einsum("bi,mih->mbh", x, w1) + b1[:, None, :])
    q = np.einsum("mbh,mha->mba", h, w2) + b2[:, None, :]
    losses = ((q - r) ** 2).mean(axis=(1, 2))
    dq = 2 * (q - r) / (BATCH * ACTIONS)
    dh = np.einsum("mba,mha->mbh", dq, w2) * (1 - h**2)
    grads = [np.einsum("bi,mbh->mih", x, dh), dh.sum(1),
             np.einsum("mbh,mba->mha", h, dq), dq.sum(1)]
    new_p, new_m, new_v = [], [], []
    for p, g, m, v in zip((w1, b1, w2, b2), grads, moments[:4], moments[4:]):
        m = 0.9 * m + 0.1 * g
        v = 0.999 * v + 0.001 * g * g
        m_hat, v_hat = m / (1 - 0.9**step), v / (1 - 0.999**step)
        new_p.append(p - lr * m_hat / (np.sqrt(v_hat) + 1e-8))
        new_m.append(m)
        new_v.append(v)
    return new_p + new_m + new_v + [losses]


@pytest.mark.parametrize("target", ["interp", "cpu", "cuda-emu"])
def test_the_multi_head_q_network_example_against_numpy(target):
    rng = np.random.default_rng(27)
    shapes = [(HEADS, STATES, HIDDEN), (HEADS, HIDDEN), (HEADS, HIDDEN, ACTIONS), (HEADS, ACTIONS)]
    params = [rng.uniform(-0.5, 0.5, s).astype(np.float32) for s in shapes]
    moments = [rng.normal(0, 0.01, s).astype(np.float32) for s in shapes]
    moments += [(rng.normal(0, 0.01, s) ** 2).astype(np.float32) for s in shapes]
    x = rng.normal(size=(BATCH, STATES)).astype(np.float32)
    r = rng.normal(size=(BATCH, ACTIONS)).astype(np.float32)
    text = (EXAMPLES / "multi_head_q_network.mlir").read_text()
    step = ens.compile(text, entry="train_step", target=target)
    state = params + moments
    want_state = [p.astype(np.float64) for p in state]
    for k in (1, 2, 3):
        got = [np.asarray(a) for a in step(*state, np.float32(k), np.float32(3e-3), x, r)]
        want = np_q_network_step(want_state[:4], want_state[4:], k, 3e-3, x, r)
        for i, (g, w) in enumerate(zip(got, want)):
            np.testing.assert_allclose(g, w, rtol=2e-4, atol=2e-5, err_msg=f"step {k}, result {i}")
        state, want_state = got[:12], want[:12]
    predict = ens.compile(text, entry="predict", target=target)
    w1, b1, w2, b2 = [p.astype(np.float64) for p in state[:4]]
    h = np.tanh(np.einsum("bi,mih->mbh", x, w1) + b1[:, None, :])
    q = (np.einsum("mbh,mha->mba", h, w2) + b2[:, None, :]).mean(0)
    np.testing.assert_allclose(np.asarray(predict(*state[:4], x)), q, rtol=1e-4, atol=1e-5)


def test_the_builder_calls_the_library_at_any_shape():
    """mse and adam at two shapes each, from the builder, as ens.stdlib_call
    with no declaration, against NumPy."""
    ctx = ens.Context()
    module = ctx.create_module()
    t3, t2x2, s = ens.TensorType("f32", [3]), ens.TensorType("f32", [2, 2]), ens.TensorType("f32", [])
    f = module.function("f", [t3, t3, t2x2, t2x2, s])
    a, b, c, d, step = (f.arg(i) for i in range(5))
    first, _, _ = f.adam(a, b, a, f.mul(b, b), step, 0.1)
    second, _, _ = f.adam(c, d, c, f.mul(d, d), step, 0.1)
    f.ret([f.mse(a, b), f.mse(c, d), first, second])
    text = str(module)
    assert text.count('ens.stdlib_call "adam"') == 2 and "ens.stdlib =" not in text
    assert module.function_names == ["f"]
    rng = np.random.default_rng(5)
    args = [rng.normal(size=t).astype(np.float32) for t in ((3,), (3,), (2, 2), (2, 2))]
    inputs = args + [np.array(2, np.float32)]
    got = module.compile("f", "interp", inputs).run(inputs)

    def adam(p, g):
        m, v = 0.9 * p + 0.1 * g, 0.999 * g * g + 0.001 * g * g
        return p - 0.1 * (m / (1 - 0.81)) / (np.sqrt(v / (1 - 0.999**2)) + 1e-8)

    want = [((args[0] - args[1]) ** 2).mean(), ((args[2] - args[3]) ** 2).mean(),
            adam(args[0], args[1]), adam(args[2], args[3])]
    for g, w in zip(got, want):
        np.testing.assert_allclose(np.asarray(g), w, rtol=1e-5, atol=1e-6)
