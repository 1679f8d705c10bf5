"""Functions built op by op from Python (ens.FunctionBuilder), against NumPy."""

import numpy as np
import pytest

import ens
from conftest import np_predict, randn

F32 = "f32"


def test_a_built_layer_runs_as_numpy_computes(rng):
    module = ens.Context().create_module()
    f = module.function("layer", [ens.TensorType(F32, [8, 4]), ens.TensorType(F32, [4, 3]),
                                  ens.TensorType(F32, [3])])
    z = f.matmul(f.arg(0), f.arg(1))
    assert z.type == ens.TensorType(F32, [8, 3])
    f.ret([f.tanh(f.add(z, f.broadcast_in_dim(f.arg(2), [8, 3], [1])))])
    x, w, b = randn(rng, 8, 4), randn(rng, 4, 3), randn(rng, 3)
    np.testing.assert_allclose(module.compile("layer")(x, w, b), np_predict(x, w, b), rtol=1e-5, atol=1e-6)


def test_numbers_scalars_and_comparisons(rng):
    module = ens.Context().create_module()
    t = ens.TensorType(F32, [5])
    f = module.function("f", [t, ens.TensorType(F32, [])])
    x, s = f.arg(0), f.arg(1)
    positive = f.cmp("gt", x, 0.0)
    y = f.select(positive, f.mul(x, s), f.sub(1.0, f.square(x)))
    f.ret([f.add(y, 0.5), f.convert(positive, "f32")])
    a, k = randn(rng, 5), np.array(2.5, dtype=np.float32)
    y, p = module.compile("f")(a, k)
    np.testing.assert_allclose(y, np.where(a > 0, a * k, 1 - a * a) + 0.5, rtol=1e-6)
    np.testing.assert_array_equal(p, (a > 0).astype(np.float32))


def test_stdlib_adam_step_against_numpy(rng):
    module = ens.Context().create_module()
    t, scalar = ens.TensorType(F32, [4, 2]), ens.TensorType(F32, [])
    loss = module.function("loss", [t, ens.TensorType(F32, [3, 4]), ens.TensorType(F32, [3, 2])])
    loss.ret([loss.mse(loss.matmul(loss.arg(1), loss.arg(0)), loss.arg(2))])
    grad = module.value_and_grad("loss", [0])
    step = module.function("step", [t, t, t, ens.TensorType(F32, [3, 4]), ens.TensorType(F32, [3, 2]), scalar])
    l, g = step.call(grad, [step.arg(0), step.arg(3), step.arg(4)])
    w, m, v = step.adam(step.arg(0), g, step.arg(1), step.arg(2), step.arg(5), 0.1)
    step.ret([l, w, m, v])
    w0, x, y = randn(rng, 4, 2), randn(rng, 3, 4), randn(rng, 3, 2)
    zeros = np.zeros((4, 2), np.float32)
    got = module.compile("step")(w0, zeros, zeros, x, y, np.array(1.0, np.float32))
    e = x @ w0 - y
    g = 2 * x.T @ e / e.size
    m1, v1 = 0.1 * g, 0.001 * g * g
    want_w = w0 - 0.1 * (m1 / 0.1) / (np.sqrt(v1 / 0.001) + 1e-8)
    np.testing.assert_allclose(got[0], np.mean(e * e), rtol=1e-5)
    np.testing.assert_allclose(got[1], want_w, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(got[2], m1, rtol=1e-4, atol=1e-7)
    np.testing.assert_allclose(got[3], v1, rtol=1e-4, atol=1e-9)


def test_a_bad_op_raises_and_leaves_the_function_as_it_was():
    module = ens.Context().create_module()
    f = module.function("f", [ens.TensorType(F32, [2, 3]), ens.TensorType(F32, [3, 2])])
    with pytest.raises(ens.Error, match="never broadcasts implicitly"):
        f.add(f.arg(0), f.arg(1))
    with pytest.raises(ens.Error, match="unknown comparison 'gte'"):
        f.cmp("gte", f.arg(0), 0.0)
    with pytest.raises(ens.Error, match="adam"):
        f.adam(f.arg(0), f.arg(1), f.arg(0), f.arg(0), 1.0, 0.1)
    f.ret([f.arg(0)])
    assert module.signature("f").results == [ens.TensorType(F32, [2, 3])]
