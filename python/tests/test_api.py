"""The ens package against NumPy: parse, vmap, value_and_grad, compile, run."""

import numpy as np
import pytest

import ens
from conftest import MLP, np_loss_and_grads, np_predict, randn


def test_signature(module):
    sig = module.signature("predict")
    assert [t.shape for t in sig.inputs] == [(-1, 4), (4, 3), (3,)]
    assert [t.dtype for t in sig.inputs] == ["f32"] * 3
    assert sig.results[0] == ens.TensorType("f32", [-1, 3])
    assert "loss" in module.function_names
    assert "func.func @predict" in str(module)


@pytest.mark.parametrize("target", ["cpu", "interp"])
def test_run_against_numpy(module, rng, target):
    x, w, b = randn(rng, 5, 4), randn(rng, 4, 3), randn(rng, 3)
    exe = module.compile("predict", target, [x, w, b])
    assert exe.target == target
    assert exe.signature.inputs[0].shape == (5, 4)
    (y,) = exe.run([x, w, b])
    assert y.shape == (5, 3) and y.dtype == np.float32
    np.testing.assert_allclose(y, np_predict(x, w, b), rtol=1e-5, atol=1e-6)


def test_cuda_emu_against_numpy(module, rng):
    x, w, b = randn(rng, 2, 4), randn(rng, 4, 3), randn(rng, 3)
    exe = module.compile("predict", "cuda-emu", [x, w, b])
    np.testing.assert_allclose(exe(x, w, b), np_predict(x, w, b), rtol=1e-5, atol=1e-6)


def test_question_sizes_take_each_call_shape(rng):
    predict = ens.compile(MLP, entry="predict")
    w, b = randn(rng, 4, 3), randn(rng, 3)
    for batch in (1, 7, 7, 32):
        x = randn(rng, batch, 4)
        np.testing.assert_allclose(predict(x, w, b), np_predict(x, w, b), rtol=1e-5, atol=1e-6)
    # The same shape again reuses the compiled code; another compiles anew.
    assert predict.executable(x, w, b) is predict.executable(randn(rng, 32, 4), w, b)
    assert predict.executable(x[:5], w, b) is not predict.executable(x, w, b)
    assert predict.executable(x[:5], w, b).signature.inputs[0].shape == (5, 4)


def test_value_and_grad_against_numpy(module, rng):
    name = module.value_and_grad("loss", [1, 2])
    assert module.signature(name).results[1] == ens.TensorType("f32", [4, 3])
    x, w, b, t = randn(rng, 8, 4), randn(rng, 4, 3), randn(rng, 3), randn(rng, 8, 3)
    loss, gw, gb = ens.Function(module, name)(x, w, b, t)
    want_loss, want_gw, want_gb = np_loss_and_grads(x, w, b, t)
    assert loss.shape == ()
    np.testing.assert_allclose(loss, want_loss, rtol=1e-5)
    np.testing.assert_allclose(gw, want_gw, rtol=1e-4, atol=1e-6)
    np.testing.assert_allclose(gb, want_gb, rtol=1e-4, atol=1e-6)


def test_vmap_of_value_and_grad_against_numpy(module, rng):
    members = 5
    grad = module.value_and_grad("loss", [1, 2])
    name = module.vmap(grad, [-1, 0, 0, -1], [0, 0, 0], members, name="ensemble")
    assert name == "ensemble"
    x, t = randn(rng, 8, 4), randn(rng, 8, 3)
    w, b = randn(rng, members, 4, 3), randn(rng, members, 3)
    losses, gw, gb = ens.Function(module, name)(x, w, b, t)
    assert losses.shape == (members,)
    for m in range(members):
        want_loss, want_gw, want_gb = np_loss_and_grads(x, w[m], b[m], t)
        np.testing.assert_allclose(losses[m], want_loss, rtol=1e-5)
        np.testing.assert_allclose(gw[m], want_gw, rtol=1e-4, atol=1e-6)
        np.testing.assert_allclose(gb[m], want_gb, rtol=1e-4, atol=1e-6)


def test_compile_picks_the_only_function(rng):
    text = """
    func.func @double(%a: tensor<3xf64>) -> tensor<3xf64> {
      %b = ens.add %a, %a : tensor<3xf64>
      return %b : tensor<3xf64>
    }"""
    a = rng.standard_normal(3)
    np.testing.assert_array_equal(ens.compile(text)(a), 2 * a)


def test_integer_and_boolean_arrays(rng):
    text = """
    func.func @positive(%a: tensor<4xi32>) -> tensor<4xi1> {
      %z = ens.constant dense<0> : tensor<4xi32>
      %p = ens.cmp gt, %a, %z : tensor<4xi32>
      return %p : tensor<4xi1>
    }"""
    a = np.array([3, -1, 0, 7], dtype=np.int32)
    p = ens.compile(text)(a)
    assert p.dtype == np.bool_
    np.testing.assert_array_equal(p, a > 0)


def test_runs_from_threads_at_once(module, rng):
    import concurrent.futures

    w, b = randn(rng, 4, 3), randn(rng, 3)
    xs = [randn(rng, 64, 4) for _ in range(16)]
    exe = module.compile("predict", "cpu", [xs[0], w, b], threads=1)
    with concurrent.futures.ThreadPoolExecutor(4) as pool:
        results = list(pool.map(lambda x: exe(x, w, b), xs))
    for x, y in zip(xs, results):
        np.testing.assert_allclose(y, np_predict(x, w, b), rtol=1e-5, atol=1e-6)
