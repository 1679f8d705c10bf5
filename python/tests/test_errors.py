"""Bad input raises ens.Error with ens's message; the interpreter lives on."""

import numpy as np
import pytest

import ens
from conftest import MLP, randn


@pytest.fixture
def predict(module, rng):
    args = [randn(rng, 5, 4), randn(rng, 4, 3), randn(rng, 3)]
    return module.compile("predict", "cpu", args), args


def test_error_is_a_runtime_error():
    assert issubclass(ens.Error, RuntimeError)


@pytest.mark.parametrize(
    "text, message",
    [
        ("func.func @f(", "cannot parse the module"),
        ("func.func @f(%a: tensor<2xf32>) -> tensor<3xf32> {\n"
         "  return %a : tensor<2xf32>\n}", "cannot parse the module"),
        ("this is not IR", "cannot parse the module"),
        ("", None),
    ],
)
def test_malformed_programs_raise(text, message):
    if message is None:
        assert ens.Context().parse(text).function_names == []
        return
    with pytest.raises(ens.Error, match=message):
        ens.Context().parse(text)


def test_wrong_shape(predict, rng):
    exe, (x, w, b) = predict
    with pytest.raises(ens.Error, match=r"expected tensor<5x4xf32>, got tensor<6x4xf32>"):
        exe(randn(rng, 6, 4), w, b)


def test_wrong_count(predict):
    exe, (x, w, b) = predict
    with pytest.raises(ens.Error, match="expected 3 arguments, got 2"):
        exe(x, w)
    with pytest.raises(ens.Error, match="expected 1 out= arrays, got 2"):
        exe(x, w, b, out=[np.empty((5, 3), np.float32)] * 2)


def test_strided_and_unsupported_arrays(predict):
    exe, (x, w, b) = predict
    with pytest.raises(ens.Error, match="strided"):
        exe(np.ascontiguousarray(x.T).T, w, b)
    with pytest.raises(ens.Error, match="does not support"):
        exe(x.astype(np.int64), w, b)
    with pytest.raises(ens.Error, match=r"argument 0 \(of type list\) is not an array"):
        exe(x.tolist(), w, b)


def test_bad_out(predict):
    exe, (x, w, b) = predict
    readonly = np.empty((5, 3), np.float32)
    readonly.setflags(write=False)
    with pytest.raises(ens.Error, match="not a writable array"):
        exe(x, w, b, out=readonly)
    with pytest.raises(ens.Error, match="expected tensor<5x3xf32>, got tensor<5x4xf32>"):
        exe(x, w, b, out=x)


def test_out_overlapping_an_argument(rng):
    double = ens.compile("""
    func.func @double(%a: tensor<2x3xf32>) -> tensor<2x3xf32> {
      %b = ens.add %a, %a : tensor<2x3xf32>
      return %b : tensor<2x3xf32>
    }""")
    a = randn(rng, 2, 3)
    with pytest.raises(ens.Error, match="overlap"):
        double(a, out=a)


def test_compile_errors(module):
    with pytest.raises(ens.Error, match="unknown target 'tpu'"):
        module.compile("predict", "tpu")
    with pytest.raises(ens.Error, match="no function named 'nope'"):
        module.compile("nope")
    with pytest.raises(ens.Error, match=r"`\?` size"):
        module.compile("predict")
    with pytest.raises(ens.Error, match="neither an ens.TensorType nor a DLPack array"):
        module.compile("predict", "cpu", [1, 2, 3])
    with pytest.raises(ens.Error, match="unknown element type 'f99'"):
        ens.TensorType("f99", [1])
    with pytest.raises(ens.Error, match="cuda_strategy|strategy"):
        module.compile("predict", "cuda-emu", [ens.TensorType("f32", [2, 4]),
                                               ens.TensorType("f32", [4, 3]),
                                               ens.TensorType("f32", [3])],
                       cuda_strategy="sideways")


def test_transform_errors(module):
    with pytest.raises(ens.Error, match="one in_axes entry per argument"):
        module.vmap("predict", [0], [0], 4)
    with pytest.raises(ens.Error):
        module.value_and_grad("predict", [7])


def test_cuda_without_a_device_raises(module):
    types = [ens.TensorType("f32", [2, 4]), ens.TensorType("f32", [4, 3]),
             ens.TensorType("f32", [3])]
    try:
        exe = module.compile("predict", "cuda", types)
    except ens.Error as error:
        assert "CUDA" in str(error)
    else:
        assert exe.target == "cuda"


def test_compile_needs_an_entry_among_several():
    with pytest.raises(ens.Error, match="name one with entry="):
        ens.compile(MLP)


# Every prefix of a valid program, and the program with one character
# changed, either parses or raises ens.Error: run in a child so that a
# crash fails the test rather than the suite.
TRUNCATIONS = """
import ens, sys
sys.path.insert(0, {tests!r})
from conftest import MLP
context = ens.Context()
variants = [MLP[:n] for n in range(0, len(MLP), 3)]
variants += [MLP[:n] + c + MLP[n + 1:] for n in range(0, len(MLP), 11) for c in "%(<?x"]
outcomes = {{"parsed": 0, "refused": 0}}
for text in variants:
    try:
        module = context.parse(text)
        for name in module.function_names:
            try:
                module.compile(name, "interp")
            except ens.Error:
                pass
        outcomes["parsed"] += 1
    except ens.Error as error:
        assert str(error), text
        outcomes["refused"] += 1
print(outcomes["parsed"], outcomes["refused"])
"""


def test_mangled_programs_never_crash():
    import os
    import subprocess
    import sys

    tests = os.path.dirname(os.path.abspath(__file__))
    result = subprocess.run([sys.executable, "-c", TRUNCATIONS.format(tests=tests)],
                            capture_output=True, text=True, env=dict(os.environ))
    assert result.returncode == 0, result.stderr[-2000:]
    parsed, refused = map(int, result.stdout.split())
    assert parsed >= 1 and refused > 100


def test_a_parse_error_names_the_file_line():
    text = "func.func @f(%a: tensor<2xf32>) -> tensor<2xf32> {\n  return %b : tensor<2xf32>\n}\n"
    with pytest.raises(ens.Error, match=r"model\.mlir:2:\d+: error:"):
        ens.Context().parse(text, file_name="model.mlir")
