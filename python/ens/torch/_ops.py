"""The lowering of each aten op that ens.torch imports, into ens IR."""

from ._ir import (
    _array,
    _broadcast,
    _broadcast_dims,
    _constant,
    _ints,
    _result_shape,
    _type,
    _unsupported,
)


def _unary(op):
    def lower(f, node, x):
        name, shape, dtype = x
        return f.emit(f"ens.{op} {name} : {_type(shape, dtype)}", shape, dtype)

    return lower


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


def _arith(f, op, lhs, rhs):
    """`lhs op rhs` for values of one shape or a value and a number."""
    shape = lhs[1] if isinstance(lhs, tuple) else rhs[1]
    lhs, rhs = (v if isinstance(v, tuple) else _constant(f, v, shape) for v in (lhs, rhs))
    return f.emit(f"ens.{op} {lhs[0]}, {rhs[0]} : {_type(shape)}", shape)


def _erf(f, x):
    """erf by Abramowitz and Stegun 7.1.26 (absolute error below 1.5e-7):
    ens has no erf op."""
    t = _type(x[1])
    z = f.emit(f"ens.abs {x[0]} : {t}", x[1])
    u = _arith(f, "div", 1.0, _arith(f, "add", 1.0, _arith(f, "mul", z, 0.3275911)))
    poly = _constant(f, 1.061405429, x[1])
    for a in (-1.453152027, 1.421413741, -0.284496736, 0.254829592):
        poly = _arith(f, "add", _arith(f, "mul", poly, u), a)
    poly = _arith(f, "mul", poly, u)
    minus_z2 = f.emit(f"ens.neg {_arith(f, 'mul', z, z)[0]} : {t}", x[1])
    gauss = f.emit(f"ens.exp {minus_z2[0]} : {t}", x[1])
    e = _arith(f, "sub", 1.0, _arith(f, "mul", poly, gauss))
    negative = f.emit(f"ens.neg {e[0]} : {t}", x[1])
    zero = _constant(f, 0.0, x[1])
    sign = f.emit(f"ens.cmp ge, {x[0]}, {zero[0]} : {t}", x[1], "i1")
    return f.emit(f"ens.select {sign[0]}, {e[0]}, {negative[0]} : {_type(x[1], 'i1')}, {t}", x[1])


def _gelu(f, node, x, approximate="none"):
    if approximate == "tanh":
        # 0.5 x (1 + tanh(sqrt(2 / pi) (x + 0.044715 x^3)))
        cube = _arith(f, "mul", x, _arith(f, "mul", x, x))
        inner = _arith(f, "mul", _arith(f, "add", x, _arith(f, "mul", cube, 0.044715)), 0.7978845608028654)
        squashed = f.emit(f"ens.tanh {inner[0]} : {_type(x[1])}", x[1])
    else:
        # 0.5 x (1 + erf(x / sqrt(2)))
        squashed = _erf(f, _arith(f, "mul", x, 0.7071067811865476))
    return _arith(f, "mul", _arith(f, "mul", x, 0.5), _arith(f, "add", squashed, 1.0))


def _cat(f, node, tensors, dim=0):
    shape = _result_shape(node)
    dim %= len(shape)
    names = ", ".join(v[0] for v in tensors)
    types = ", ".join(_type(v[1]) for v in tensors)
    return f.emit(f"ens.concat {names} {{dim = {dim} : i64}} : {types} -> {_type(shape)}", shape)


def _dropout(f, node, x, p, train):
    """The stdlib's inverted dropout on a key of its own, folded from the
    function's key; identity in eval mode. Members draw their own masks."""
    if not train or not p:
        return x
    index = f.emit(f"ens.constant dense<{f.dropouts}> : tensor<i32>", (), "i32")
    f.dropouts += 1
    key = f.emit(f"ens.random_fold_in %key, {index[0]} : tensor<2xi32>, tensor<i32> -> tensor<2xi32>",
                 (2,), "i32")
    rate = f.emit(f"ens.constant dense<{float(p):.9e}> : tensor<f32>", ())
    return f.call_stdlib("dropout", [key, x, rate], x[1], bound=1)


def _pow(f, node, x, exponent):
    if exponent == 2:
        return f.emit(f"ens.square {x[0]} : {_type(x[1])}", x[1])
    c = _constant(f, exponent, x[1])
    return f.emit(f"ens.pow {x[0]}, {c[0]} : {_type(x[1])}", x[1])


def _linear(f, node, x, w, b=None):
    # torch keeps the weight [out, in]; the weight is transposed to
    # [in, out] first, because ens's CPU backend runs the contraction with
    # the weight in that layout several times faster (22 ms against 2.9 ms
    # for a step of 128 members of 64-32-8 on one core).
    wt = _transpose_to(f, w, [1, 0])
    xn, xs, _ = x
    lead = "abcdefgh"[: len(xs) - 1]
    shape = xs[:-1] + (wt[1][1],)
    y = f.emit(
        f'ens.einsum {xn}, {wt[0]} {{spec = "{lead}i,io->{lead}o"}} : '
        f"{_type(xs)}, {_type(wt[1])} -> {_type(shape)}",
        shape,
    )
    if b is None:
        return y
    bias = _broadcast_dims(f, b, shape, [len(shape) - 1])
    return f.emit(f"ens.add {y[0]}, {bias[0]} : {_type(shape)}", shape)


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


def _defaults(given, defaults):
    """Trailing arguments `given`, the rest filled from `defaults`."""
    return list(given) + defaults[len(given):]


def _pool(kind):
    """max_pool(x, kernel, stride, padding, dilation, ceil_mode) or
    avg_pool(x, kernel, stride, padding, ceil_mode, count_include_pad,
    divisor_override)."""

    def lower(f, node, x, kernel, stride=None, padding=0, *rest):
        spatial = len(x[1]) - 2
        kernel = _ints(kernel, spatial)
        stride = _ints(stride, spatial) if stride else kernel
        pads = [0, 0, 0, 0] + [p for p in _ints(padding, spatial) for _ in (0, 1)]
        if kind == "max":
            dilation, ceil_mode = _defaults(rest, [1, False])
            plain = all(d == 1 for d in _ints(dilation, spatial)) and not ceil_mode
            count_pad = True
        else:
            ceil_mode, count_pad, divisor = _defaults(rest, [False, True, None])
            plain = not ceil_mode and divisor is None
        if not plain:
            raise _unsupported(node, "only without dilation, ceil_mode or a divisor")
        shape = _result_shape(node)
        window = (f"{{window_dimensions = {_array([1, 1] + kernel)}, "
                  f"window_strides = {_array([1, 1] + stride)}, padding = {_array(pads)}}}")

        def reduce(value):
            return f.emit(f"ens.reduce_window {kind}, {value[0]} {window} : "
                          f"{_type(value[1])} -> {_type(shape)}", shape)

        y = reduce(x)
        if kind == "max":
            return y
        if count_pad or not any(pads):
            size = 1
            for k in kernel:
                size *= k
            scale = _constant(f, 1.0 / size, shape)
            return f.emit(f"ens.mul {y[0]}, {scale[0]} : {_type(shape)}", shape)
        # Divide by the operand elements each window holds.
        counts = reduce(_constant(f, 1.0, x[1]))
        return f.emit(f"ens.div {y[0]}, {counts[0]} : {_type(shape)}", shape)

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


def _tensordot(f, node, x, y, dims_x, dims_y):
    """ens.tensordot contracts the listed dims of each operand pairwise;
    the result holds x's other dims, then y's, as torch's does."""
    if not dims_x:
        raise _unsupported(node, "only with dims to contract")
    dims_x = [d % len(x[1]) for d in dims_x]
    dims_y = [d % len(y[1]) for d in dims_y]
    shape = _result_shape(node)
    return f.emit(f"ens.tensordot {x[0]}, {y[0]} {{lhs_dims = {_array(dims_x)}, "
                  f"rhs_dims = {_array(dims_y)}}} : {_type(x[1])}, {_type(y[1])} -> {_type(shape)}",
                  shape)


def _mse_loss(f, node, x, y, reduction=1):
    if reduction != 1:
        raise _unsupported(node, "only reduction='mean'")
    return f.call_stdlib("mse", [x, y], ())


def _broadcast_tensors(f, node, tensors):
    shape = tuple(node.meta["val"][0].shape)
    return [_broadcast(f, t, shape) for t in tensors]


def _batch_norm(f, node, x, weight, bias, mean, var, training, momentum, eps, *rest):
    """The stdlib's batch_norm (training: batch statistics, and the running
    ones updated) or batch_norm_inference, over the channel dim 1, which
    goes last for them."""
    if weight is None or bias is None or mean is None or momentum is None:
        raise _unsupported(node, "only affine, with running statistics and a momentum")
    rank = len(x[1])
    to_last = [0] + list(range(2, rank)) + [1]
    xc = _transpose_to(f, x, to_last) if rank > 2 else x
    eps = _constant(f, eps, ())
    if training:
        momentum = _constant(f, momentum, ())
        y, new_mean, new_var = f.call_stdlib("batch_norm", [xc, weight, bias, mean, var, momentum, eps],
                                             xc[1], more=[mean[1], var[1]])
        f.mutations[mean[0]] = new_mean
        f.mutations[var[0]] = new_var
    else:
        y = f.call_stdlib("batch_norm_inference", [xc, weight, bias, mean, var, eps], xc[1])
    if rank == 2:
        return y
    back = [to_last.index(i) for i in range(rank)]
    return _transpose_to(f, y, back)


def _counter_increment(f, node, counter, *args):
    """A buffer ens does not keep (num_batches_tracked) counted up."""
    if counter is not None:
        raise _unsupported(node, "in-place updates of tensors")
    return None


_LOWERINGS = {
    "aten.batch_norm.default": _batch_norm,
    "aten.add_.Tensor": _counter_increment,
    "aten.broadcast_tensors.default": _broadcast_tensors,
    "aten.layer_norm.default": _layer_norm,
    "aten.einsum.default": _einsum,
    "aten.tensordot.default": _tensordot,
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
