"""ens.torch: PyTorch modules in, trained as one compiled ensemble.

Imports one member, an ``nn.Module`` traced with ``torch.export``, into the
ens IR, lifts it over M members with ``ens.vmap`` and compiles a training
step (forward, loss, backward and the optimizer for every member) as one
program. This is the first slice of issue #27's ``ens.torch``: Linear,
matmul/mm/bmm, Conv1d/Conv2d, max and average pooling without padding,
ReLU, Tanh, Sigmoid, SiLU, GELU (tanh), softmax and log-softmax,
elementwise arithmetic with NumPy broadcasting, sums, means and maxima,
view/reshape/flatten/permute/cat, einsum, layer norm and dropout in eval
mode; the MSE and cross-entropy losses or a traced callable; Adam (with L2
weight decay too), AdamW and SGD. Any other aten op
raises :class:`UnsupportedOpError` naming it and the line of the module it
came from.

Importing this module imports torch; ``import ens`` does not.
"""

import collections
import copy
import operator
import re

import numpy as np
import torch

import ens

__all__ = ["Adam", "AdamW", "Ensemble", "Imported", "SGD", "UnsupportedOpError", "import_module"]


class UnsupportedOpError(ens.Error, NotImplementedError):
    """An op of the traced module that ens.torch cannot import."""


class Adam:
    """torch.optim.Adam's update; ``lr`` a float or a tensor of M rates."""

    decoupled = False

    def __init__(self, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.0):
        self.lr, self.betas, self.eps, self.weight_decay = lr, betas, eps, weight_decay


class AdamW(Adam):
    """torch.optim.AdamW's update: weight decay decoupled."""

    decoupled = True

    def __init__(self, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2):
        super().__init__(lr, betas, eps, weight_decay)


class SGD:
    """torch.optim.SGD's update with momentum and L2 weight decay."""

    def __init__(self, lr=1e-3, momentum=0.0, weight_decay=0.0):
        self.lr, self.momentum, self.weight_decay = lr, momentum, weight_decay


#===----------------------------------------------------------------------===#
# torch.export -> ens IR
#===----------------------------------------------------------------------===#

_DTYPES = {torch.float32: "f32", torch.float64: "f64", torch.int32: "i32"}


def _type(shape, dtype="f32"):
    dims = "".join(f"{d}x" for d in shape)
    return f"tensor<{dims}{dtype}>"


def _source_line(node):
    """The module's source line that `node` came from, as torch recorded it."""
    trace = node.meta.get("stack_trace") or ""
    frames = re.findall(r'File "([^"]+)", line (\d+), in \w+\n\s*(.*)', trace)
    theirs = [frame for frame in frames if frame[0] != __file__]
    if not frames:
        return "an unknown line"
    path, line, code = (theirs or frames)[-1]
    return f"{path}:{line}: {code.strip()}"


class _Function:
    """One ens function being written as text, value by value."""

    def __init__(self, name):
        self.name = name
        self.lines = []
        self.declarations = []
        self.count = 0

    def emit(self, text, shape, dtype="f32"):
        self.count += 1
        name = f"%v{self.count}"
        self.lines.append(f"  {name} = {text}")
        return name, tuple(shape), dtype

    def call_stdlib(self, function, args, shape):
        """Calls the standard library's `function` on `args` (values),
        declaring it for their types; returns its one result, of `shape`."""
        callee = f"@{self.name}_{function}{len(self.declarations)}"
        types = ", ".join(_type(a[1], a[2]) for a in args)
        self.declarations.append(f"func.func private {callee}({types}) -> {_type(shape)} "
                                 f'attributes {{ens.stdlib = "{function}"}}')
        names = ", ".join(a[0] for a in args)
        return self.emit(f"call {callee}({names}) : ({types}) -> {_type(shape)}", shape)


def _unary(op):
    def lower(f, node, x):
        name, shape, dtype = x
        return f.emit(f"ens.{op} {name} : {_type(shape, dtype)}", shape, dtype)

    return lower


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


def _binary(op):
    def lower(f, node, lhs, rhs, alpha=1):
        if alpha != 1:
            raise _unsupported(node, "alpha other than 1")
        shape = _result_shape(node)
        operands = [_broadcast(f, v, shape) if isinstance(v, tuple) else _constant(f, v, shape)
                    for v in (lhs, rhs)]
        return f.emit(f"ens.{op} {operands[0][0]}, {operands[1][0]} : {_type(shape)}", shape)

    return lower


def _reshape(f, node, x, *args):
    shape = _result_shape(node)
    return f.emit(f"ens.reshape {x[0]} : {_type(x[1])} -> {_type(shape)}", shape)


def _transpose_to(f, x, permutation):
    shape = tuple(x[1][p] for p in permutation)
    perm = ", ".join(str(p) for p in permutation)
    return f.emit(f"ens.transpose {x[0]} {{permutation = array<i64: {perm}>}} : "
                  f"{_type(x[1])} -> {_type(shape)}", shape)


def _permute(f, node, x, dims):
    return _transpose_to(f, x, [d % len(x[1]) for d in dims])


def _t(f, node, x):
    return _transpose_to(f, x, list(range(len(x[1])))[::-1])


def _swap(f, node, x, a, b):
    perm = list(range(len(x[1])))
    a, b = a % len(perm), b % len(perm)
    perm[a], perm[b] = perm[b], perm[a]
    return _transpose_to(f, x, perm)


def _matmul(f, node, lhs, rhs):
    (ln, ls, _), (rn, rs, _) = lhs, rhs
    if len(ls) == 2 and len(rs) == 2:
        spec = "ij,jk->ik"
    elif len(ls) == 3 and len(rs) == 3:
        spec = "bij,bjk->bik"
    elif len(ls) >= 2 and len(rs) == 2:
        lead = "abcdefgh"[: len(ls) - 1]
        spec = f"{lead}j,jk->{lead}k"
    else:
        raise _unsupported(node, f"shapes {ls} and {rs}")
    shape = _result_shape(node)
    return f.emit(f'ens.einsum {ln}, {rn} {{spec = "{spec}"}} : {_type(ls)}, {_type(rs)} -> {_type(shape)}',
                  shape)


def _softmax(op):
    def lower(f, node, x, dim, *rest):
        return f.emit(f"ens.{op} {x[0]} {{dim = {dim % len(x[1])} : i64}} : {_type(x[1])}", x[1])

    return lower


def _reduce(op):
    def lower(f, node, x, dims=None, keepdim=False, **kwargs):
        if kwargs.get("dtype") is not None:
            raise _unsupported(node, "a dtype")
        rank = len(x[1])
        dims = sorted({d % rank for d in dims}) if dims else list(range(rank))
        reduced = tuple(n for i, n in enumerate(x[1]) if i not in dims)
        listed = ", ".join(str(d) for d in dims)
        y = f.emit(f"ens.{op} {x[0]} {{dims = array<i64: {listed}>}} : {_type(x[1])} -> {_type(reduced)}",
                   reduced)
        shape = _result_shape(node)
        if shape == reduced:
            return y
        return f.emit(f"ens.reshape {y[0]} : {_type(reduced)} -> {_type(shape)}", shape)

    return lower


def _silu(f, node, x):
    s = f.emit(f"ens.sigmoid {x[0]} : {_type(x[1])}", x[1])
    return f.emit(f"ens.mul {x[0]}, {s[0]} : {_type(x[1])}", x[1])


def _gelu(f, node, x, approximate="none"):
    if approximate != "tanh":
        raise _unsupported(node, "only approximate='tanh': ens has no erf")
    # 0.5 x (1 + tanh(sqrt(2 / pi) (x + 0.044715 x^3)))
    t = _type(x[1])
    cube = f.emit(f"ens.mul {x[0]}, {f.emit(f'ens.square {x[0]} : {t}', x[1])[0]} : {t}", x[1])
    inner = f.emit(f"ens.mul {cube[0]}, {_constant(f, 0.044715, x[1])[0]} : {t}", x[1])
    inner = f.emit(f"ens.add {x[0]}, {inner[0]} : {t}", x[1])
    inner = f.emit(f"ens.mul {inner[0]}, {_constant(f, 0.7978845608028654, x[1])[0]} : {t}", x[1])
    one = f.emit(f"ens.add {f.emit(f'ens.tanh {inner[0]} : {t}', x[1])[0]}, "
                 f"{_constant(f, 1.0, x[1])[0]} : {t}", x[1])
    half = f.emit(f"ens.mul {x[0]}, {_constant(f, 0.5, x[1])[0]} : {t}", x[1])
    return f.emit(f"ens.mul {half[0]}, {one[0]} : {t}", x[1])


def _cat(f, node, tensors, dim=0):
    shape = _result_shape(node)
    dim %= len(shape)
    names = ", ".join(v[0] for v in tensors)
    types = ", ".join(_type(v[1]) for v in tensors)
    return f.emit(f"ens.concat {names} {{dim = {dim} : i64}} : {types} -> {_type(shape)}", shape)


def _dropout(f, node, x, p, train):
    if train and p:
        raise _unsupported(node, "dropout in training mode; call module.eval() first")
    return x


def _pow(f, node, x, exponent):
    if exponent == 2:
        return f.emit(f"ens.square {x[0]} : {_type(x[1])}", x[1])
    c = _constant(f, exponent, x[1])
    return f.emit(f"ens.pow {x[0]}, {c[0]} : {_type(x[1])}", x[1])


def _linear(f, node, x, w, b=None):
    (xn, xs, _), (wn, ws, _) = x, w
    lead = "abcdefgh"[: len(xs) - 1]
    shape = xs[:-1] + (ws[0],)
    y = f.emit(
        f'ens.einsum {xn}, {wn} {{spec = "{lead}i,oi->{lead}o"}} : '
        f"{_type(xs)}, {_type(ws)} -> {_type(shape)}",
        shape,
    )
    if b is None:
        return y
    bias = f.emit(
        f"ens.broadcast_in_dim {b[0]} {{dims = array<i64: {len(shape) - 1}>}} : "
        f"{_type(b[1])} -> {_type(shape)}",
        shape,
    )
    return f.emit(f"ens.add {y[0]}, {bias[0]} : {_type(shape)}", shape)


def _ints(value, rank):
    """A PyTorch int-or-list argument as `rank` ints."""
    if isinstance(value, int):
        return [value] * rank
    value = list(value)
    return value * rank if len(value) == 1 else value


def _array(values):
    return "array<i64: " + ", ".join(str(v) for v in values) + ">"


def _conv(f, node, x, w, b=None, stride=1, padding=0, dilation=1, groups=1):
    if isinstance(padding, str):
        raise _unsupported(node, f"padding={padding!r}; give the padding as numbers")
    rank = len(x[1])
    spatial = rank - 2
    pads = [p for p in _ints(padding, spatial) for _ in (0, 1)]
    dims = _array(range(rank))
    shape = _result_shape(node)
    y = f.emit(
        f"ens.conv {x[0]}, {w[0]} {{lhs_dims = {dims}, rhs_dims = {dims}, out_dims = {dims}, "
        f"window_strides = {_array(_ints(stride, spatial))}, padding = {_array(pads)}, "
        f"rhs_dilation = {_array(_ints(dilation, spatial))}, feature_group_count = {groups} : i64}} : "
        f"{_type(x[1])}, {_type(w[1])} -> {_type(shape)}",
        shape,
    )
    if b is None:
        return y
    bias = _broadcast_dims(f, b, shape, [1])
    return f.emit(f"ens.add {y[0]}, {bias[0]} : {_type(shape)}", shape)


def _broadcast_dims(f, x, shape, dims):
    return f.emit(f"ens.broadcast_in_dim {x[0]} {{dims = {_array(dims)}}} : "
                  f"{_type(x[1])} -> {_type(shape)}", shape)


def _pool(kind):
    """max_pool(x, kernel, stride, padding, dilation, ceil_mode) or
    avg_pool(x, kernel, stride, padding, ceil_mode, count_include_pad,
    divisor_override), without padding."""

    def lower(f, node, x, kernel, stride=None, padding=0, *rest):
        spatial = len(x[1]) - 2
        kernel = _ints(kernel, spatial)
        stride = _ints(stride, spatial) if stride else kernel
        if kind == "max":
            dilation, ceil_mode = (list(rest) + [1, False])[:2]
            plain = all(d == 1 for d in _ints(dilation, spatial)) and not ceil_mode
        else:
            ceil_mode, _, divisor = (list(rest) + [False, True, None])[:3]
            plain = not ceil_mode and divisor is None
        if any(_ints(padding, spatial)) or not plain:
            raise _unsupported(node, "only without padding, dilation, ceil_mode or a divisor")
        shape = _result_shape(node)
        y = f.emit(f"ens.reduce_window {kind}, {x[0]} {{window_dimensions = {_array([1, 1] + kernel)}, "
                   f"window_strides = {_array([1, 1] + stride)}}} : {_type(x[1])} -> {_type(shape)}", shape)
        if kind == "max":
            return y
        size = 1
        for k in kernel:
            size *= k
        scale = _constant(f, 1.0 / size, shape)
        return f.emit(f"ens.mul {y[0]}, {scale[0]} : {_type(shape)}", shape)

    return lower


def _layer_norm(f, node, x, normalized_shape, weight=None, bias=None, eps=1e-5, *rest):
    if len(normalized_shape) != 1 or weight is None or bias is None:
        raise _unsupported(node, "only over the last dim, with weight and bias")
    eps = f.emit(f"ens.constant dense<{float(eps):.9e}> : tensor<f32>", ())
    return f.call_stdlib("layer_norm", [x, weight, bias, eps], x[1])


def _einsum(f, node, equation, operands):
    if len(operands) != 2:
        raise _unsupported(node, "only of two operands")
    (ln, ls, _), (rn, rs, _) = operands
    shape = _result_shape(node)
    spec = equation.replace(" ", "")
    return f.emit(f'ens.einsum {ln}, {rn} {{spec = "{spec}"}} : {_type(ls)}, {_type(rs)} -> {_type(shape)}',
                  shape)


def _mse_loss(f, node, x, y, reduction=1):
    if reduction != 1:
        raise _unsupported(node, "only reduction='mean'")
    return f.call_stdlib("mse", [x, y], ())


def _broadcast_tensors(f, node, tensors):
    shape = tuple(node.meta["val"][0].shape)
    return [_broadcast(f, t, shape) for t in tensors]


_LOWERINGS = {
    "aten.broadcast_tensors.default": _broadcast_tensors,
    "aten.layer_norm.default": _layer_norm,
    "aten.einsum.default": _einsum,
    "aten.mse_loss.default": _mse_loss,
    "aten.conv1d.default": _conv,
    "aten.conv2d.default": _conv,
    "aten.max_pool1d.default": _pool("max"),
    "aten.max_pool2d.default": _pool("max"),
    "aten.avg_pool1d.default": _pool("add"),
    "aten.avg_pool2d.default": _pool("add"),
    "aten.linear.default": _linear,
    "aten.relu.default": _unary("relu"),
    "aten.tanh.default": _unary("tanh"),
    "aten.sigmoid.default": _unary("sigmoid"),
    "aten.silu.default": _silu,
    "aten.gelu.default": _gelu,
    "aten.exp.default": _unary("exp"),
    "aten.log.default": _unary("log"),
    "aten.neg.default": _unary("neg"),
    "aten.sqrt.default": _unary("sqrt"),
    "aten.rsqrt.default": _unary("rsqrt"),
    "aten.abs.default": _unary("abs"),
    "aten.pow.Tensor_Scalar": _pow,
    "aten.add.Tensor": _binary("add"),
    "aten.sub.Tensor": _binary("sub"),
    "aten.mul.Tensor": _binary("mul"),
    "aten.div.Tensor": _binary("div"),
    "aten.maximum.default": _binary("max"),
    "aten.minimum.default": _binary("min"),
    "aten.matmul.default": _matmul,
    "aten.mm.default": _matmul,
    "aten.bmm.default": _matmul,
    "aten.view.default": _reshape,
    "aten.reshape.default": _reshape,
    "aten._unsafe_view.default": _reshape,
    "aten.flatten.using_ints": _reshape,
    "aten.unsqueeze.default": _reshape,
    "aten.squeeze.dim": _reshape,
    "aten.permute.default": _permute,
    "aten.t.default": _t,
    "aten.transpose.int": _swap,
    "aten.softmax.int": _softmax("softmax"),
    "aten._softmax.default": _softmax("softmax"),
    "aten.log_softmax.int": _softmax("log_softmax"),
    "aten._log_softmax.default": _softmax("log_softmax"),
    "aten.sum.dim_IntList": _reduce("reduce_sum"),
    "aten.sum.default": _reduce("reduce_sum"),
    "aten.mean.dim": _reduce("reduce_mean"),
    "aten.mean.default": _reduce("reduce_mean"),
    "aten.amax.default": _reduce("reduce_max"),
    "aten.cat.default": _cat,
    "aten.dropout.default": _dropout,
    "aten.clone.default": lambda f, node, x, **kwargs: x,
    "aten.contiguous.default": lambda f, node, x, **kwargs: x,
}


def _unsupported(node, why=None):
    what = f"ens.torch does not support {node.target}"
    if why:
        what += f" ({why})"
    return UnsupportedOpError(f"{what}, from {_source_line(node)}")


Imported = collections.namedtuple("Imported", "text parameter_names result_type")


def import_module(module, example_inputs, name="forward"):
    """One member's forward as an ens function.

    Returns an ``Imported(text, parameter_names, result_type)``: the
    function ``@name`` takes the parameters in ``named_parameters()`` order,
    then the inputs, at the shapes of ``example_inputs``.
    """
    exported = torch.export.export(module, tuple(example_inputs))
    signature = exported.graph_signature
    if signature.inputs_to_buffers:
        raise ens.Error("ens.torch: modules with buffers (batch norm's running "
                        "statistics) are not supported yet")
    to_parameter = signature.inputs_to_parameters
    names = [n for n, _ in module.named_parameters()]
    f = _Function(name)
    values, params, inputs = {}, {}, []

    def resolve(arg):
        if isinstance(arg, torch.fx.Node):
            return values[arg.name]
        if isinstance(arg, (list, tuple)):
            return type(arg)(resolve(a) for a in arg)
        return arg
    for node in exported.graph.nodes:
        if node.op == "placeholder":
            val = node.meta["val"]
            dtype = _DTYPES.get(val.dtype)
            if dtype is None:
                raise ens.Error(f"ens.torch: input {node.name} has dtype {val.dtype}, "
                                "which ens does not support")
            arg = (f"%{node.name}", tuple(val.shape), dtype)
            values[node.name] = arg
            if node.name in to_parameter:
                params[to_parameter[node.name]] = arg
            else:
                inputs.append(arg)
        elif node.op == "call_function" and node.target is operator.getitem:
            values[node.name] = resolve(node.args[0])[node.args[1]]
        elif node.op == "call_function":
            lower = _LOWERINGS.get(str(node.target))
            if lower is None:
                raise _unsupported(node)
            args = [resolve(a) for a in node.args]
            kwargs = {k: resolve(a) for k, a in node.kwargs.items()}
            values[node.name] = lower(f, node, *args, **kwargs)
        elif node.op == "output":
            outputs = node.args[0]
            if len(outputs) != 1:
                raise ens.Error("ens.torch: the module must return one tensor")
            result = values[outputs[0].name]
    ordered = [params[n] for n in names] + inputs
    header = ", ".join(f"{n}: {_type(s, d)}" for n, s, d in ordered)
    text = ("".join(d + "\n" for d in f.declarations)
            + f"func.func @{name}({header}) -> {_type(result[1], result[2])} {{\n"
            + "\n".join(f.lines)
            + f"\n  return {result[0]} : {_type(result[1], result[2])}\n}}\n")
    return Imported(text, names, _type(result[1], result[2]))


#===----------------------------------------------------------------------===#
# Ensembles
#===----------------------------------------------------------------------===#

_TARGETS = {"cpu": "cpu", "cuda": "cuda", "cuda-emu": "cuda-emu"}


def _contiguous(tensor):
    return tensor.detach().contiguous()


class Ensemble:
    """M members of one architecture, their parameters stacked [M, ...]."""

    def __init__(self, module, members, example_inputs, seed=0, device="cpu"):
        modules = []
        for i in range(members):
            member = copy.deepcopy(module)
            torch.manual_seed(seed + i)
            for sub in member.modules():
                if hasattr(sub, "reset_parameters"):
                    sub.reset_parameters()
            modules.append(member)
        self._setup(modules, example_inputs, device)

    @classmethod
    def from_modules(cls, modules, example_inputs, device="cpu"):
        """Stacks the parameters of M existing modules of one architecture."""
        ensemble = cls.__new__(cls)
        ensemble._setup(list(modules), example_inputs, device)
        return ensemble

    def _setup(self, modules, example_inputs, device):
        if device not in _TARGETS:
            raise ens.Error(f"ens.torch: unknown device '{device}'; expected cpu, cuda or cuda-emu")
        if not modules:
            raise ens.Error("ens.torch: an ensemble needs at least one member")
        self.members = len(modules)
        self.device = device
        self._template = copy.deepcopy(modules[0])
        self._names = [n for n, _ in self._template.named_parameters()]
        self.params = []
        for name in self._names:
            stacked = [dict(m.named_parameters())[name].detach() for m in modules]
            self.params.append(torch.stack(stacked).to(torch.float32).contiguous())
        self._example_inputs = tuple(example_inputs)
        self._context = ens.Context()
        self._forwards = {}

    def _import(self, inputs):
        member = copy.deepcopy(self._template)
        return import_module(member, inputs)

    def __call__(self, *inputs, member_inputs=False):
        """The members' outputs [M, ...] for inputs shared by all members, or
        with ``member_inputs=True`` for inputs of shape [M, ...], one per
        member."""
        inputs = [_contiguous(x) for x in inputs]
        key = (tuple(tuple(x.shape) for x in inputs), member_inputs)
        function = self._forwards.get(key)
        if function is None:
            one = [x[0] for x in inputs] if member_inputs else inputs
            text = self._import(one).text
            module = self._context.parse(text)
            axis = 0 if member_inputs else -1
            name = module.vmap("forward", [0] * len(self.params) + [axis] * len(inputs), [0], self.members)
            function = module.compile(name, _TARGETS[self.device])
            self._forwards[key] = function
        return torch.from_numpy(function(*self.params, *inputs))

    def train_step(self, loss="mse", optimizer=None):
        """A compiled training step: ``step(x, y)`` trains every member on
        the batch and returns the per-member losses [M]."""
        return _TrainStep(self, loss, optimizer if optimizer is not None else Adam())

    def to_modules(self):
        """M modules holding the current weights."""
        modules = []
        for i in range(self.members):
            member = copy.deepcopy(self._template)
            with torch.no_grad():
                for name, param in member.named_parameters():
                    param.copy_(self.params[self._names.index(name)][i])
            modules.append(member)
        return modules

    def state_dict(self):
        """The stacked parameters by name."""
        return {n: p.clone() for n, p in zip(self._names, self.params)}

    def load_state_dict(self, state):
        for i, name in enumerate(self._names):
            if tuple(state[name].shape) != tuple(self.params[i].shape):
                raise ens.Error(f"ens.torch: {name} has shape {tuple(state[name].shape)}, "
                                f"expected {tuple(self.params[i].shape)}")
            self.params[i].copy_(state[name])


# Each loss: the stdlib function and the targets' element type.
_LOSSES = {"mse": ("mse", "f32"), "cross_entropy": ("softmax_cross_entropy", "i32")}


class _Loss(torch.nn.Module):
    """A loss callable as a module, for torch.export."""

    def __init__(self, function):
        super().__init__()
        self.function = function

    def forward(self, prediction, target):
        return self.function(prediction, target)


def _scalar(value):
    return f"ens.constant dense<{float(value):.9e}> : tensor<f32>"


class _TrainStep:
    """forward, loss, backward and the optimizer for every member, as one
    program, compiled per batch shape."""

    def __init__(self, ensemble, loss, optimizer):
        if not callable(loss) and loss not in _LOSSES:
            raise ens.Error(f"ens.torch: loss {loss!r} is not supported; use 'mse', 'cross_entropy' "
                            "or a callable (prediction, target) -> loss")
        self.loss = loss
        if not isinstance(optimizer, (Adam, SGD)):
            raise ens.Error("ens.torch: the optimizer must be ens.torch.Adam, AdamW or SGD")
        self.ensemble = ensemble
        self.optimizer = optimizer
        self._adam = isinstance(optimizer, Adam)
        slots = 2 if self._adam else 1
        self.state = [torch.zeros_like(p) for p in ensemble.params for _ in range(slots)]
        self.steps = 0
        lr = torch.as_tensor(optimizer.lr, dtype=torch.float32)
        self._lr = _contiguous(lr.expand(ensemble.members))
        self._programs = {}

    def _loss_function(self, x, y, ot, yt):
        """@ens_loss(prediction, target) -> tensor<f32>: the stdlib's loss,
        or the callable traced with torch.export."""
        if not callable(self.loss):
            stdlib = _LOSSES[self.loss][0]
            return f'func.func private @ens_loss({ot}, {yt}) -> tensor<f32> attributes {{ens.stdlib = "{stdlib}"}}'
        with torch.no_grad():
            prediction = self.ensemble._template(x)
        imported = import_module(_Loss(self.loss), (prediction, y), name="ens_loss")
        if imported.result_type != "tensor<f32>":
            raise ens.Error(f"ens.torch: the loss returns {imported.result_type}, not one f32 number")
        return imported.text

    def _program(self, x, y):
        e = self.ensemble
        text, _, ot = e._import([x])
        shapes = [tuple(p.shape[1:]) for p in e.params]
        n = len(shapes)
        ptypes = [_type(s) for s in shapes]
        xt, yt = _type(x.shape), _type(y.shape, _DTYPES[y.dtype])
        lines = [text, self._loss_function(x, y, ot, yt)]
        args = ", ".join(f"%p{i}: {t}" for i, t in enumerate(ptypes))
        call_types = ", ".join(ptypes + [xt])
        lines.append(
            f"func.func @loss({args}, %x: {xt}, %y: {yt}) -> tensor<f32> {{\n"
            f"  %out = call @forward({', '.join(f'%p{i}' for i in range(n))}, %x) : ({call_types}) -> {ot}\n"
            f"  %l = call @ens_loss(%out, %y) : ({ot}, {yt}) -> tensor<f32>\n"
            f"  return %l : tensor<f32>\n}}")
        slots = 2 if self._adam else 1
        for i, t in enumerate(ptypes):
            if self._adam:
                lines.append(f"func.func private @opt{i}({', '.join([t] * 4 + ['tensor<f32>'] * 6)}) "
                             f"-> ({t}, {t}, {t}) attributes {{ens.stdlib = \"adam\"}}")
            else:
                lines.append(f"func.func private @opt{i}({', '.join([t] * 3 + ['tensor<f32>'] * 3)}) "
                             f"-> ({t}, {t}) attributes {{ens.stdlib = \"sgd_momentum\"}}")
        state_args = [f"%s{i}_{k}: {ptypes[i]}" for i in range(n) for k in range(slots)]
        body = [f"  %l, {', '.join(f'%g{i}' for i in range(n))} = ens.value_and_grad "
                f"@loss({', '.join(f'%p{i}' for i in range(n))}, %x, %y) "
                f"{{wrt = array<i64: {', '.join(str(i) for i in range(n))}>}} : "
                f"({', '.join(ptypes + [xt, yt])}) -> (tensor<f32>, {', '.join(ptypes)})"]
        o = self.optimizer
        grads = [f"%g{i}" for i in range(n)]
        if self._adam:
            # The stdlib's decay is decoupled (AdamW); Adam's L2 decay adds
            # weight_decay * param to the gradient first, as torch does.
            coupled = 0.0 if o.decoupled else o.weight_decay
            hyper = {"b1": o.betas[0], "b2": o.betas[1], "eps": o.eps,
                     "wd": o.weight_decay if o.decoupled else 0.0}
            for i, t in enumerate(ptypes):
                if coupled:
                    body.append(f"  %l2_{i} = ens.constant dense<{coupled:.9e}> : {t}")
                    body.append(f"  %decay{i} = ens.mul %l2_{i}, %p{i} : {t}")
                    body.append(f"  %gd{i} = ens.add %g{i}, %decay{i} : {t}")
                    grads[i] = f"%gd{i}"
        else:
            hyper = {"mom": o.momentum, "wd": o.weight_decay}
        body += [f"  %{k} = {_scalar(v)}" for k, v in hyper.items()]
        params_out, state_out = [], []
        for i, t in enumerate(ptypes):
            if self._adam:
                body.append(f"  %np{i}, %ns{i}_0, %ns{i}_1 = call @opt{i}(%p{i}, {grads[i]}, %s{i}_0, %s{i}_1, "
                            f"%step, %lr, %b1, %b2, %eps, %wd) : ({', '.join([t] * 4 + ['tensor<f32>'] * 6)}) "
                            f"-> ({t}, {t}, {t})")
            else:
                body.append(f"  %np{i}, %ns{i}_0 = call @opt{i}(%p{i}, %g{i}, %s{i}_0, %lr, %mom, %wd) "
                            f": ({', '.join([t] * 3 + ['tensor<f32>'] * 3)}) -> ({t}, {t})")
            params_out.append((f"%np{i}", t))
            state_out += [(f"%ns{i}_{k}", t) for k in range(slots)]
        results = [("%l", "tensor<f32>")] + params_out + state_out
        lines.append(
            f"func.func @step({args}, {', '.join(state_args)}, %x: {xt}, %y: {yt}, "
            f"%step: tensor<f32>, %lr: tensor<f32>) -> ({', '.join(t for _, t in results)}) {{\n"
            + "\n".join(body)
            + f"\n  return {', '.join(v for v, _ in results)} : {', '.join(t for _, t in results)}\n}}")
        module = e._context.parse("\n".join(lines))
        in_axes = [0] * (n + len(self.state)) + [-1, -1, -1, 0]
        name = module.vmap("step", in_axes, [0] * len(results), e.members)
        return module.compile(name, _TARGETS[e.device])

    def __call__(self, x, y):
        e = self.ensemble
        x = _contiguous(x).to(torch.float32)
        integral = self.loss == "cross_entropy" or not y.dtype.is_floating_point
        y = _contiguous(y).to(torch.int32 if integral else torch.float32)
        key = (tuple(x.shape), tuple(y.shape))
        program = self._programs.get(key)
        if program is None:
            program = self._programs[key] = self._program(x, y)
        step = torch.tensor(float(self.steps + 1), dtype=torch.float32)
        losses = torch.empty(e.members, dtype=torch.float32)
        new_params = [torch.empty_like(p) for p in e.params]
        new_state = [torch.empty_like(s) for s in self.state]
        program(*e.params, *self.state, x, y, step, self._lr, out=[losses] + new_params + new_state)
        self.steps += 1
        with torch.no_grad():
            for p, q in zip(e.params, new_params):
                p.copy_(q)
        self.state = new_state
        return losses
