"""Arrays in and out of ens without copies, checked by data pointers."""

import numpy as np

import ens
from conftest import np_predict, randn

DOUBLE = """
func.func @double(%a: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %b = ens.add %a, %a : tensor<2x3xf32>
  return %b : tensor<2x3xf32>
}"""


def address(array):
    return array.__array_interface__["data"][0]


def test_arguments_are_read_in_place(rng):
    x = randn(rng, 6, 4)
    assert ens.data_pointer(x) == address(x)
    # A view that starts inside another array keeps its offset.
    rows = x[2:]
    assert ens.data_pointer(rows) == address(x) + 2 * 4 * 4
    readonly = randn(rng, 4, 3)
    readonly.setflags(write=False)
    assert ens.data_pointer(readonly) == address(readonly)


def test_views_and_readonly_arrays_run(module, rng):
    x, w, b = randn(rng, 6, 4), randn(rng, 4, 3), randn(rng, 3)
    w.setflags(write=False)
    rows = x[2:]
    y = module.compile("predict", "cpu", [rows, w, b])(rows, w, b)
    np.testing.assert_allclose(y, np_predict(x[2:], w, b), rtol=1e-5, atol=1e-6)


def test_out_is_written_in_place(module, rng):
    x, w, b = randn(rng, 5, 4), randn(rng, 4, 3), randn(rng, 3)
    exe = module.compile("predict", "cpu", [x, w, b])
    out = np.full((5, 3), np.nan, dtype=np.float32)
    before = address(out)
    result = exe(x, w, b, out=out)
    assert result is out and address(out) == before
    np.testing.assert_allclose(out, np_predict(x, w, b), rtol=1e-5, atol=1e-6)
    # run() takes a list of out arrays and returns the same objects.
    out2 = np.zeros((5, 3), dtype=np.float32)
    assert exe.run([x, w, b], out=[out2])[0] is out2
    np.testing.assert_array_equal(out2, out)


def test_results_are_dlpack_producers(rng):
    a = randn(rng, 2, 3)
    b = ens.compile(DOUBLE)(a)
    assert hasattr(b, "__dlpack__")
    view = np.from_dlpack(b)
    assert address(view) == address(b) == ens.data_pointer(b)
    np.testing.assert_array_equal(view, 2 * a)


def test_results_feed_the_next_call_without_copies(rng):
    double = ens.compile(DOUBLE)
    a = randn(rng, 2, 3)
    b = double(a)
    c = np.empty_like(a)
    double(b, out=c)
    np.testing.assert_array_equal(c, 4 * a)


def test_torch_tensors_in_and_out_in_place(rng):
    torch = __import__("pytest").importorskip("torch")
    double = ens.compile(DOUBLE)
    a = torch.from_numpy(randn(rng, 2, 3))
    assert ens.data_pointer(a) == a.data_ptr()
    out = torch.full((2, 3), float("nan"))
    before = out.data_ptr()
    assert double(a, out=out) is out and out.data_ptr() == before
    torch.testing.assert_close(out, 2 * a)
    # A result shares its memory with the tensor torch makes of it.
    b = double(a)
    assert torch.from_dlpack(b).data_ptr() == address(b)


def test_jax_arrays_in_place(rng):
    jax = __import__("pytest").importorskip("jax")
    double = ens.compile(DOUBLE)
    a = jax.numpy.asarray(randn(rng, 2, 3))
    assert ens.data_pointer(a) == a.unsafe_buffer_pointer()
    b = double(a)
    np.testing.assert_array_equal(b, 2 * np.asarray(a))
    # JAX reads a result through DLPack.
    np.testing.assert_array_equal(np.asarray(jax.numpy.from_dlpack(b)), b)
