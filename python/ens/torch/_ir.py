"""Writing ens IR as text: types, values and the errors of an import."""

import os
import re

import torch

import ens


class UnsupportedOpError(ens.Error, NotImplementedError):
    """An op of the traced module that ens.torch cannot import."""


# Frames of ens.torch and of torch itself, which an error names only when
# there are no others.
_INTERNAL = (os.path.dirname(os.path.abspath(__file__)) + os.sep,
             os.path.dirname(os.path.abspath(torch.__file__)) + os.sep)

_DTYPES = {torch.float32: "f32", torch.float64: "f64", torch.int32: "i32"}


def _type(shape, dtype="f32"):
    dims = "".join(f"{d}x" for d in shape)
    return f"tensor<{dims}{dtype}>"


def _source_line(node):
    """The module's source line that `node` came from, as torch recorded it."""
    trace = node.meta.get("stack_trace") or ""
    frames = re.findall(r'File "([^"]+)", line (\d+), in \w+\n\s*(.*)', trace)
    theirs = [frame for frame in frames if not frame[0].startswith(_INTERNAL)]
    if not frames:
        return "an unknown line"
    path, line, code = (theirs or frames)[-1]
    return f"{path}:{line}: {code.strip()}"


def _unsupported(node, why=None):
    what = f"ens.torch does not support {node.target}"
    if why:
        what += f" ({why})"
    return UnsupportedOpError(f"{what}, from {_source_line(node)}")


class _Function:
    """One ens function being written as text, value by value."""

    def __init__(self, name):
        self.name = name
        self.lines = []
        self.count = 0
        # Dropouts so far; with any, the function takes a %key argument.
        self.dropouts = 0
        # The new value of each buffer updated in place (batch norm's
        # running statistics), by the buffer's value name.
        self.mutations = {}

    def emit(self, text, shape, dtype="f32"):
        self.count += 1
        name = f"%v{self.count}"
        self.lines.append(f"  {name} = {text}")
        return name, tuple(shape), dtype

    def call_stdlib(self, function, args, shape, more=(), bound=0):
        """Calls the standard library's `function` on `args` (values) with
        ens.stdlib_call, at the type of `args[bound]` (the library's !T);
        returns its result, of `shape`, or with `more` result shapes a list
        of all results."""
        shapes = [tuple(shape)] + [tuple(s) for s in more]
        names = ", ".join(a[0] for a in args)
        generic = args[bound]
        call = f'ens.stdlib_call "{function}"({names}) : {_type(generic[1], generic[2])}'
        if not more:
            return self.emit(call, shape)
        self.count += 1
        name = f"%v{self.count}"
        self.lines.append(f"  {name}:{len(shapes)} = {call}")
        return [(f"{name}#{i}", s, "f32") for i, s in enumerate(shapes)]


def _result_shape(node):
    return tuple(node.meta["val"].shape)


def _constant(f, value, shape):
    """A splat f32 constant of `shape`."""
    return f.emit(f"ens.constant dense<{float(value):.9e}> : {_type(shape)}", shape)


def _broadcast(f, x, shape):
    """`x` broadcast to `shape` by NumPy's rules (a size 1 meets any)."""
    name, xs, dtype = x
    if xs == tuple(shape):
        return x
    offset = len(shape) - len(xs)
    kept = [i for i in range(len(xs)) if xs[i] == shape[offset + i]]
    if len(kept) != len(xs):
        squeezed = tuple(xs[i] for i in kept)
        name, xs, dtype = f.emit(
            f"ens.reshape {name} : {_type(xs, dtype)} -> {_type(squeezed, dtype)}", squeezed, dtype)
    dims = ", ".join(str(offset + i) for i in kept)
    return f.emit(f"ens.broadcast_in_dim {name} {{dims = array<i64: {dims}>}} : "
                  f"{_type(xs, dtype)} -> {_type(shape, dtype)}", shape, dtype)


def _ints(value, rank):
    """A PyTorch int-or-list argument as `rank` ints."""
    if isinstance(value, int):
        return [value] * rank
    value = list(value)
    return value * rank if len(value) == 1 else value


def _array(values):
    return "array<i64: " + ", ".join(str(v) for v in values) + ">"


def _broadcast_dims(f, x, shape, dims):
    return f.emit(f"ens.broadcast_in_dim {x[0]} {{dims = {_array(dims)}}} : "
                  f"{_type(x[1])} -> {_type(shape)}", shape)
