#!/usr/bin/env python3
"""Generates the NumPy agreement tests of ens-run: <family>.mlir, Inputs/*.npy.

Every ens op (except the random ops and the function transforms vmap and
value_and_grad) gets one or more test cases. A case is one function
`@<case>` in the lit test of its op family (FAMILIES), its arguments
Inputs/<case>.in<k>.npy and its expected results Inputs/<case>.out<k>.npy,
plus lit RUN lines that run the function with ens-run on every backend (the
reference interpreter, the CPU JIT, the CUDA kernels emulated on the host,
under each strategy) and check the results to rtol 1e-5, atol 1e-6. One test per family, so that
a failing op hides only the cases of its own family.

Expected results are computed by NumPy in float64 from the float32 (or
float64) inputs and then cast to the result dtype (float32 for f32 results);
integer results are computed exactly in int64 and wrapped to int32, and
masks are NumPy bools (.npy dtype |b1). The inputs come from a fixed seed,
so the output is deterministic. Regenerate everything, from the repository
root, with:

    python3 test/ens-run/numpy/make_fixtures.py

The script rewrites the <family>.mlir files and replaces every .npy file
under Inputs/.
"""

import os
import textwrap

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
INPUTS = os.path.join(HERE, "Inputs")
REGENERATE = "python3 test/ens-run/numpy/make_fixtures.py"
# cuda-emu runs with the performance model's pick of strategies, then with
# each strategy forced (docs/cuda.md, "Strategies").
BACKENDS = ("interp", "cpu", "cuda-emu",
            "cuda-emu --cuda-strategy=member-per-block",
            "cuda-emu --cuda-strategy=tiled")

rng = np.random.default_rng(20240611)

I32_MIN, I32_MAX = -(2**31), 2**31 - 1

# The op families of lib/Conversion/EnsToLinalg that have cases here (the
# random ops have none), each written to <family>.mlir, with what it covers.
FAMILIES = {
    "pointwise": "elementwise arithmetic, math, cmp, select and convert",
    "shape": "constant, broadcast_in_dim, reshape, transpose, slice, pad and "
             "concat",
    "gather": "take, scatter_add and one_hot",
    "reduction": "reduce_sum, reduce_max, reduce_mean, softmax, log_softmax "
                 "and logsumexp",
    "contraction": "einsum, tensordot and matmul",
    "convolution": "conv and reduce_window",
}

# ---------------------------------------------------------------------------
# Helpers
# ---------------------------------------------------------------------------

_ELEMENT = {
    np.dtype(np.float32): "f32",
    np.dtype(np.float64): "f64",
    np.dtype(np.int32): "i32",
    np.dtype(np.bool_): "i1",
}


def ty(a):
    """The MLIR tensor type of a NumPy array."""
    return "tensor<" + "".join(f"{d}x" for d in a.shape) + _ELEMENT[a.dtype] + ">"


def f32(*shape, low=-2.0, high=2.0):
    return rng.uniform(low, high, size=shape).astype(np.float32)


def f64(*shape, low=-2.0, high=2.0):
    return rng.uniform(low, high, size=shape).astype(np.float64)


def pos32(*shape):
    """Positive f32 values, for log, sqrt, rsqrt and pow."""
    return f32(*shape, low=0.1, high=4.0)


def d(a):
    """The float64 values of a float array (the oracle's precision)."""
    return np.asarray(a, dtype=np.float64)


def as_f32(a):
    return np.asarray(a, dtype=np.float64).astype(np.float32)


def wrap_i32(a):
    """Exact int64 values wrapped modulo 2^32 to int32."""
    a = np.asarray(a, dtype=np.int64)
    return ((a - I32_MIN) % 2**32 + I32_MIN).astype(np.int32)


CASES = []


def case(family, name, args, results, body):
    """Adds `@name(args) -> results` to the test of `family`. `body` holds
    the op lines; the arguments are %a0, %a1, ... and it defines the results
    %r0, %r1, ..."""
    assert family in FAMILIES, (name, family)
    assert all(c[1] != name for c in CASES), name
    for a in list(args) + list(results):
        assert a.dtype in _ELEMENT, (name, a.dtype)
    lines = [body] if isinstance(body, str) else list(body)
    CASES.append((family, name, [np.array(a, order="C") for a in args],
                  [np.array(r, order="C") for r in results], lines))


# ---------------------------------------------------------------------------
# Elementwise, f32
# ---------------------------------------------------------------------------

x, y = f32(3, 4), f32(3, 4)
for op, fn in [("add", np.add), ("sub", np.subtract), ("mul", np.multiply),
               ("max", np.maximum), ("min", np.minimum)]:
    r = as_f32(fn(d(x), d(y)))
    case("pointwise", f"{op}_f32", [x, y], [r], f"%r0 = ens.{op} %a0, %a1 : {ty(r)}")

# Division away from zero denominators.
den = f32(3, 4, low=0.5, high=2.0) * rng.choice([-1, 1], size=(3, 4))
den = den.astype(np.float32)
r = as_f32(d(x) / d(den))
case("pointwise", "div_f32", [x, den], [r], f"%r0 = ens.div %a0, %a1 : {ty(r)}")

base, expo = pos32(3, 4), f32(3, 4)
r = as_f32(np.power(d(base), d(expo)))
case("pointwise", "pow_f32", [base, expo], [r], f"%r0 = ens.pow %a0, %a1 : {ty(r)}")

# max and min propagate NaN (like np.maximum, unlike np.fmax).
xn, yn = f32(2, 3), f32(2, 3)
xn[0, 1] = np.nan
yn[1, 2] = np.nan
r0, r1 = as_f32(np.maximum(d(xn), d(yn))), as_f32(np.minimum(d(xn), d(yn)))
case("pointwise", "max_min_nan_f32", [xn, yn], [r0, r1],
     [f"%r0 = ens.max %a0, %a1 : {ty(r0)}", f"%r1 = ens.min %a0, %a1 : {ty(r1)}"])

x = f32(3, 4)
p = pos32(3, 4)
for op, fn, arg in [
    ("neg", np.negative, x),
    ("exp", np.exp, x),
    ("log", np.log, p),
    ("tanh", np.tanh, x),
    ("sigmoid", lambda v: 1.0 / (1.0 + np.exp(-v)), x * 4),
    ("relu", lambda v: np.maximum(v, 0.0), x),
    ("sqrt", np.sqrt, p),
    ("rsqrt", lambda v: 1.0 / np.sqrt(v), p),
    ("abs", np.abs, x),
    ("square", np.square, x),
]:
    arg = np.asarray(arg, dtype=np.float32)
    r = as_f32(fn(d(arg)))
    case("pointwise", f"{op}_f32", [arg], [r], f"%r0 = ens.{op} %a0 : {ty(r)}")

# ---------------------------------------------------------------------------
# Elementwise, i32 (wrapping)
# ---------------------------------------------------------------------------

ia = np.array([[I32_MAX, I32_MIN, 2_000_000_000, -7],
               [123456789, -2_000_000_000, 65536, 0]], dtype=np.int32)
ib = np.array([[1, -1, 2_000_000_000, 5],
               [987654321, -1_500_000_000, 65536, I32_MIN]], dtype=np.int32)
A, B = ia.astype(np.int64), ib.astype(np.int64)
for op, exact in [("add", A + B), ("sub", A - B), ("mul", A * B),
                  ("max", np.maximum(A, B)), ("min", np.minimum(A, B))]:
    r = wrap_i32(exact)
    case("pointwise", f"{op}_i32", [ia, ib], [r], f"%r0 = ens.{op} %a0, %a1 : {ty(r)}")
for op, exact in [("neg", -A), ("abs", np.abs(A)), ("square", A * A)]:
    r = wrap_i32(exact)
    case("pointwise", f"{op}_i32", [ia], [r], f"%r0 = ens.{op} %a0 : {ty(r)}")

# ---------------------------------------------------------------------------
# Comparison, select and conversion
# ---------------------------------------------------------------------------

ca = np.round(f32(3, 4), 0).astype(np.float32)  # small integers: many ties
cb = np.round(f32(3, 4), 0).astype(np.float32)
ca[2, 3] = np.nan  # ordered predicates false, ne true
cb[0, 0] = np.nan
for pred, fn in [("lt", np.less), ("le", np.less_equal), ("gt", np.greater),
                 ("ge", np.greater_equal), ("eq", np.equal),
                 ("ne", np.not_equal)]:
    r = fn(d(ca), d(cb))
    case("pointwise", f"cmp_{pred}_f32", [ca, cb], [r],
         f"%r0 = ens.cmp {pred}, %a0, %a1 : {ty(ca)}")

ci = rng.integers(-3, 3, size=(2, 5)).astype(np.int32)
cj = rng.integers(-3, 3, size=(2, 5)).astype(np.int32)
r = ci < cj
case("pointwise", "cmp_lt_i32", [ci, cj], [r], f"%r0 = ens.cmp lt, %a0, %a1 : {ty(ci)}")

cond = rng.random((3, 4)) < 0.5
t, f = f32(3, 4), f32(3, 4)
r = np.where(cond, t, f).astype(np.float32)
case("pointwise", "select_f32", [cond, t, f], [r],
     f"%r0 = ens.select %a0, %a1, %a2 : {ty(cond)}, {ty(r)}")

# f32 -> i32 truncates toward zero and saturates; NaN gives 0.
cv = np.array([[-2.75, -0.5, -0.0, 0.5, 1.0, 2.999],
               [-1.0e10, 3.0e9, np.nan, 16777216.0, -7.25, 123.9]],
              dtype=np.float32)
sat = np.where(np.isnan(d(cv)), 0.0,
               np.clip(np.trunc(np.nan_to_num(d(cv))), I32_MIN, I32_MAX))
r = sat.astype(np.int64).astype(np.int32)
case("pointwise", "convert_f32_i32", [cv], [r],
     f"%r0 = ens.convert %a0 : {ty(cv)} -> {ty(r)}")

x = f32(2, 3)
r = d(x)
case("pointwise", "convert_f32_f64", [x], [r], f"%r0 = ens.convert %a0 : {ty(x)} -> {ty(r)}")

iv = np.array([0, -5, 16777217, I32_MAX, I32_MIN, 12345], dtype=np.int32)
r = as_f32(iv.astype(np.float64))
case("pointwise", "convert_i32_f32", [iv], [r], f"%r0 = ens.convert %a0 : {ty(iv)} -> {ty(r)}")

bv = np.array([0.0, -0.0, 1.0e-30, -3.5, np.nan, 2.0], dtype=np.float32)
r = d(bv) != 0
case("pointwise", "convert_f32_i1", [bv], [r], f"%r0 = ens.convert %a0 : {ty(bv)} -> {ty(r)}")

mv = rng.random((2, 3)) < 0.5
r = mv.astype(np.float32)
case("pointwise", "convert_i1_f32", [mv], [r], f"%r0 = ens.convert %a0 : {ty(mv)} -> {ty(r)}")

# ---------------------------------------------------------------------------
# Constants and shape manipulation
# ---------------------------------------------------------------------------


def literal(v):
    """A dense<...> literal body for `v` that reads back exactly."""
    if isinstance(v, np.ndarray) and v.ndim > 0:
        return "[" + ", ".join(literal(e) for e in v) + "]"
    if isinstance(v, np.floating):
        # The shortest decimal that reads back to the same float32.
        return np.format_float_positional(v, unique=True, trim="0")
    return str(int(v))


k0 = f32(2, 3)
k1 = np.array([[1, -2, I32_MAX], [I32_MIN, 0, 42]], dtype=np.int32)
case("shape", "constant", [], [k0, k1],
     [f"%r0 = ens.constant dense<{literal(k0)}> : {ty(k0)}",
      f"%r1 = ens.constant dense<{literal(k1)}> : {ty(k1)}"])


def broadcast_in_dim(a, shape, dims):
    """Operand dim i goes to result dim dims[i]; size-1 dims expand."""
    order = np.argsort(dims)
    a = np.transpose(a, order)
    expanded = [1] * len(shape)
    for i, dim in enumerate(np.asarray(dims)[order]):
        expanded[dim] = a.shape[i]
    return np.broadcast_to(a.reshape(expanded), shape).copy()


x = f32(3, 1)
r = broadcast_in_dim(x, (4, 2, 3), [2, 0])  # non-monotonic; dim 1 (size 1) expands
case("shape", "broadcast_in_dim_f32", [x], [r],
     f"%r0 = ens.broadcast_in_dim %a0 {{dims = array<i64: 2, 0>}} : {ty(x)} -> {ty(r)}")

x = f32(2, 4)
r = broadcast_in_dim(x, (4, 3, 2), [2, 0])  # transposes and adds a new dim
case("shape", "broadcast_in_dim_transpose_f32", [x], [r],
     f"%r0 = ens.broadcast_in_dim %a0 {{dims = array<i64: 2, 0>}} : {ty(x)} -> {ty(r)}")

x = f32(2, 3, 4)
r = x.reshape(4, 6)
case("shape", "reshape_f32", [x], [r], f"%r0 = ens.reshape %a0 : {ty(x)} -> {ty(r)}")

x = f32(2, 3, 4)
r = np.transpose(x, (2, 0, 1)).copy()
case("shape", "transpose_f32", [x], [r],
     f"%r0 = ens.transpose %a0 {{permutation = array<i64: 2, 0, 1>}} : {ty(x)} -> {ty(r)}")

x = f32(7, 9)
r = x[1:6:2, 2:8:3].copy()
case("shape", "slice_f32", [x], [r],
     f"%r0 = ens.slice %a0 {{start = array<i64: 1, 2>, limit = array<i64: 6, 8>, "
     f"stride = array<i64: 2, 3>}} : {ty(x)} -> {ty(r)}")

x = f32(4, 5, 6)
r = x[0:4:3, 1:5:1, 5:6:4].copy()
case("shape", "slice_rank3_f32", [x], [r],
     f"%r0 = ens.slice %a0 {{start = array<i64: 0, 1, 5>, limit = array<i64: 4, 5, 6>, "
     f"stride = array<i64: 3, 1, 4>}} : {ty(x)} -> {ty(r)}")


def pad(a, low, high, interior):
    shape = [lo + hi + n + max(n - 1, 0) * it
             for n, lo, hi, it in zip(a.shape, low, high, interior)]
    out = np.zeros(shape, dtype=a.dtype)
    out[tuple(slice(lo, lo + (n - 1) * (it + 1) + 1, it + 1)
              for n, lo, it in zip(a.shape, low, interior))] = a
    return out


x = f32(3, 4)
r = pad(x, [1, 0], [2, 1], [1, 2])
case("shape", "pad_f32", [x], [r],
     f"%r0 = ens.pad %a0 {{low = array<i64: 1, 0>, high = array<i64: 2, 1>, "
     f"interior = array<i64: 1, 2>}} : {ty(x)} -> {ty(r)}")

x = f32(2, 3, 2)
r = pad(x, [0, 2, 1], [1, 0, 0], [0, 1, 3])
case("shape", "pad_rank3_f32", [x], [r],
     f"%r0 = ens.pad %a0 {{low = array<i64: 0, 2, 1>, high = array<i64: 1, 0, 0>, "
     f"interior = array<i64: 0, 1, 3>}} : {ty(x)} -> {ty(r)}")

c0, c1, c2 = f32(2, 1), f32(2, 3), f32(2, 2)
r = np.concatenate([c0, c1, c2], axis=1)
case("shape", "concat3_f32", [c0, c1, c2], [r],
     f"%r0 = ens.concat %a0, %a1, %a2 {{dim = 1 : i64}} : "
     f"{ty(c0)}, {ty(c1)}, {ty(c2)} -> {ty(r)}")

c0, c1, c2 = f32(1, 3), f32(3, 3), f32(2, 3)
r = np.concatenate([c0, c1, c2], axis=0)
case("shape", "concat3_dim0_f32", [c0, c1, c2], [r],
     f"%r0 = ens.concat %a0, %a1, %a2 {{dim = 0 : i64}} : "
     f"{ty(c0)}, {ty(c1)}, {ty(c2)} -> {ty(r)}")

# ---------------------------------------------------------------------------
# Indexing
# ---------------------------------------------------------------------------

# take: indices clamp to [0, size - 1] (numpy.take with mode="clip").
table = f32(3, 5, 2)
ids = np.array([[4, 0, 7], [-1, 2, 2]], dtype=np.int32)  # 7 and -1 clamp
r = np.take(table, ids, axis=1, mode="clip")
case("gather", "take_axis1_f32", [table, ids], [r],
     f"%r0 = ens.take %a0, %a1 {{axis = 1 : i64}} : {ty(table)}, {ty(ids)} -> {ty(r)}")

table = f32(6, 3)
ids = np.array([5, 0, 9, -3], dtype=np.int32)
r = np.take(table, ids, axis=0, mode="clip")
case("gather", "take_axis0_f32", [table, ids], [r],
     f"%r0 = ens.take %a0, %a1 {{axis = 0 : i64}} : {ty(table)}, {ty(ids)} -> {ty(r)}")

itable = rng.integers(-100, 100, size=(4, 3)).astype(np.int32)
ids = np.array([[3, 1], [1, 8]], dtype=np.int32)
r = np.take(itable, ids, axis=0, mode="clip")
case("gather", "take_i32", [itable, ids], [r],
     f"%r0 = ens.take %a0, %a1 {{axis = 0 : i64}} : {ty(itable)}, {ty(ids)} -> {ty(r)}")


def scatter_add(updates, ids, axis, shape):
    """Adjoint of take with clamped indices: repeated indices accumulate."""
    out = np.zeros(shape, dtype=np.float64)
    clamped = np.clip(ids, 0, shape[axis] - 1)
    pre = (slice(None),) * axis
    for pos in np.ndindex(*ids.shape):
        out[pre + (clamped[pos],)] += d(updates)[pre + pos]
    return out


ids = np.array([[1, 3, 1], [0, 9, 3]], dtype=np.int32)  # repeats; 9 clamps to 3
upd = f32(2, *ids.shape, 3)
r = as_f32(scatter_add(upd, ids, 1, (2, 4, 3)))
case("gather", "scatter_add_axis1_f32", [upd, ids], [r],
     f"%r0 = ens.scatter_add %a0, %a1 {{axis = 1 : i64}} : {ty(upd)}, {ty(ids)} -> {ty(r)}")

ids = np.array([2, 2, 0, -4, 2], dtype=np.int32)  # repeats; -4 clamps to 0
upd = f32(5, 4)
r = as_f32(scatter_add(upd, ids, 0, (5, 4)))
case("gather", "scatter_add_axis0_f32", [upd, ids], [r],
     f"%r0 = ens.scatter_add %a0, %a1 {{axis = 0 : i64}} : {ty(upd)}, {ty(ids)} -> {ty(r)}")

ids = np.array([[0, 3, 5], [-1, 1, 3]], dtype=np.int32)  # 5 and -1 out of range
r = (ids[..., None] == np.arange(4)).astype(np.float32)
case("gather", "one_hot_f32", [ids], [r], f"%r0 = ens.one_hot %a0 : {ty(ids)} -> {ty(r)}")
r = (ids[..., None] == np.arange(6)).astype(np.int32)
case("gather", "one_hot_i32", [ids], [r], f"%r0 = ens.one_hot %a0 : {ty(ids)} -> {ty(r)}")

# ---------------------------------------------------------------------------
# Reductions and normalisations
# ---------------------------------------------------------------------------

x = f32(3, 4, 5)
for op, fn in [("reduce_sum", np.sum), ("reduce_max", np.max),
               ("reduce_mean", np.mean)]:
    r = as_f32(fn(d(x), axis=(0, 2)))
    case("reduction", f"{op}_f32", [x], [r],
         f"%r0 = ens.{op} %a0 {{dims = array<i64: 0, 2>}} : {ty(x)} -> {ty(r)}")
r = as_f32(np.sum(d(x), axis=(0, 1, 2)))
case("reduction", "reduce_sum_all_f32", [x], [r],
     f"%r0 = ens.reduce_sum %a0 {{dims = array<i64: 0, 1, 2>}} : {ty(x)} -> {ty(r)}")

xi = rng.integers(I32_MAX // 4, I32_MAX, size=(3, 4)).astype(np.int32)
r = wrap_i32(xi.astype(np.int64).sum(axis=1))
case("reduction", "reduce_sum_i32", [xi], [r],
     f"%r0 = ens.reduce_sum %a0 {{dims = array<i64: 1>}} : {ty(xi)} -> {ty(r)}")
r = xi.max(axis=0)
case("reduction", "reduce_max_i32", [xi], [r],
     f"%r0 = ens.reduce_max %a0 {{dims = array<i64: 0>}} : {ty(xi)} -> {ty(r)}")

x = f32(3, 4, 5) * 10  # large logits: the stable forms matter
x = x.astype(np.float32)


def log_softmax(v, axis):
    m = np.max(v, axis=axis, keepdims=True)
    return v - m - np.log(np.sum(np.exp(v - m), axis=axis, keepdims=True))


r = as_f32(np.exp(log_softmax(d(x), 1)))
case("reduction", "softmax_f32", [x], [r], f"%r0 = ens.softmax %a0 {{dim = 1 : i64}} : {ty(x)}")
r = as_f32(log_softmax(d(x), 2))
case("reduction", "log_softmax_f32", [x], [r], f"%r0 = ens.log_softmax %a0 {{dim = 2 : i64}} : {ty(x)}")
m = np.max(d(x), axis=(0, 2))
r = as_f32(m + np.log(np.sum(np.exp(d(x) - m[None, :, None]), axis=(0, 2))))
case("reduction", "logsumexp_f32", [x], [r],
     f"%r0 = ens.logsumexp %a0 {{dims = array<i64: 0, 2>}} : {ty(x)} -> {ty(r)}")

# ---------------------------------------------------------------------------
# Contractions
# ---------------------------------------------------------------------------

EINSUMS = [
    ("ij,jk->ik", "ij_jk_ik", (3, 4), (4, 5)),
    ("kbi,ij->jbk", "kbi_ij_jbk", (2, 3, 4), (4, 5)),
    ("bij,bjk->bik", "bij_bjk_bik", (2, 3, 4), (2, 4, 5)),
    ("i,j->ij", "i_j_ij", (3,), (4,)),
    ("ij,k->k", "ij_k_k", (3, 4), (5,)),
    ("abc,bcd->ad", "abc_bcd_ad", (2, 3, 4), (3, 4, 5)),
]
for spec, tag, ls, rs in EINSUMS:
    lhs, rhs = f32(*ls), f32(*rs)
    r = as_f32(np.einsum(spec, d(lhs), d(rhs)))
    case("contraction", f"einsum_{tag}", [lhs, rhs], [r],
         f'%r0 = ens.einsum %a0, %a1 {{spec = "{spec}"}} : {ty(lhs)}, {ty(rhs)} -> {ty(r)}')

# The spec's tensordot example, then dims out of order.
lhs, rhs = f32(3, 2), f32(3, 2, 1)
r = as_f32(np.tensordot(d(lhs), d(rhs), axes=([0, 1], [0, 1])))
case("contraction", "tensordot_01_01", [lhs, rhs], [r],
     f"%r0 = ens.tensordot %a0, %a1 {{lhs_dims = array<i64: 0, 1>, rhs_dims = array<i64: 0, 1>}} : "
     f"{ty(lhs)}, {ty(rhs)} -> {ty(r)}")
lhs, rhs = f32(2, 3, 4), f32(4, 2, 5)
r = as_f32(np.tensordot(d(lhs), d(rhs), axes=([2, 0], [0, 1])))
case("contraction", "tensordot_20_01", [lhs, rhs], [r],
     f"%r0 = ens.tensordot %a0, %a1 {{lhs_dims = array<i64: 2, 0>, rhs_dims = array<i64: 0, 1>}} : "
     f"{ty(lhs)}, {ty(rhs)} -> {ty(r)}")

for tag, ls, rs in [("2d", (3, 4), (4, 5)),
                    ("vec_mat", (4,), (4, 5)),
                    ("mat_vec", (3, 4), (4,)),
                    ("vec_vec", (4,), (4,)),
                    ("batch_broadcast", (2, 1, 3, 4), (5, 4, 2))]:
    lhs, rhs = f32(*ls), f32(*rs)
    r = as_f32(np.matmul(d(lhs), d(rhs)))
    case("contraction", f"matmul_{tag}", [lhs, rhs], [r],
         f"%r0 = ens.matmul %a0, %a1 : {ty(lhs)}, {ty(rhs)} -> {ty(r)}")

# Integer contraction wraps.
li = rng.integers(-2**20, 2**20, size=(3, 4)).astype(np.int32)
ri = rng.integers(-2**20, 2**20, size=(4, 2)).astype(np.int32)
r = wrap_i32(li.astype(np.int64) @ ri.astype(np.int64))
case("contraction", "matmul_i32", [li, ri], [r],
     f"%r0 = ens.matmul %a0, %a1 : {ty(li)}, {ty(ri)} -> {ty(r)}")

# ---------------------------------------------------------------------------
# f64
# ---------------------------------------------------------------------------

x = f64(3, 4)
case("pointwise", "tanh_f64", [x], [np.tanh(x)], f"%r0 = ens.tanh %a0 : {ty(x)}")
y = f64(3, 4, low=0.5, high=2.0)
r = x / y
case("pointwise", "div_f64", [x, y], [r], f"%r0 = ens.div %a0, %a1 : {ty(r)}")
lhs, rhs = f64(2, 3, 4), f64(2, 4, 5)
r = np.einsum("bij,bjk->bik", lhs, rhs)
case("contraction", "einsum_bij_bjk_bik_f64", [lhs, rhs], [r],
     f'%r0 = ens.einsum %a0, %a1 {{spec = "bij,bjk->bik"}} : {ty(lhs)}, {ty(rhs)} -> {ty(r)}')
x = f64(2, 5) * 10
r = np.exp(log_softmax(x, 1))
case("reduction", "softmax_f64", [x], [r], f"%r0 = ens.softmax %a0 {{dim = 1 : i64}} : {ty(x)}")

# ---------------------------------------------------------------------------
# Convolutions and pooling (drawn last, so that the cases above keep their
# inputs)
# ---------------------------------------------------------------------------


def dilate_and_pad(x, dilation, padding, fill):
    """The spatial dims (2 on) of `x` with `dilation - 1` zeros between
    elements, then `padding` (lo, hi pairs) of `fill`; negative crops."""
    n = x.ndim - 2
    shape = list(x.shape[:2]) + [(s - 1) * k + 1 if s else 0
                                 for s, k in zip(x.shape[2:], dilation)]
    dilated = np.zeros(shape)
    dilated[(slice(None), slice(None)) +
            tuple(slice(None, None, k) for k in dilation)] = x
    lo, hi = padding[0::2], padding[1::2]
    padded = np.pad(dilated, [(0, 0), (0, 0)] +
                    [(max(a, 0), max(b, 0)) for a, b in zip(lo, hi)],
                    constant_values=fill)
    return padded[(slice(None), slice(None)) +
                  tuple(slice(max(-a, 0), padded.shape[2 + i] - max(-b, 0))
                        for i, (a, b) in enumerate(zip(lo, hi)))]


def from_canonical(a, dims):
    """`a`, in (batch, feature, spatial...) order, laid out with role k at
    position dims[k]."""
    perm = [0] * a.ndim
    for k, dim in enumerate(dims):
        perm[dim] = k
    return np.transpose(a, perm)


def conv(lhs, rhs, lhs_dims, rhs_dims, out_dims, strides, padding,
         lhs_dilation, rhs_dilation, groups):
    """StableHLO's convolution from its definition: the input in
    (batch, feature, spatial...) order, dilated and padded explicitly, each
    window contracted with the filters of its feature group."""
    x = dilate_and_pad(np.transpose(d(lhs), lhs_dims), lhs_dilation, padding,
                       0.0)
    w = np.transpose(d(rhs), rhs_dims)
    window = [(k - 1) * r + 1 for k, r in zip(w.shape[2:], rhs_dilation)]
    out_spatial = [(p - k) // s + 1
                   for p, k, s in zip(x.shape[2:], window, strides)]
    cg, og = w.shape[1], w.shape[0] // groups
    out = np.zeros([x.shape[0], w.shape[0]] + out_spatial)
    for pos in np.ndindex(*out_spatial):
        taps = x[(slice(None), slice(None)) +
                 tuple(slice(p * s, p * s + k, r) for p, s, k, r in
                       zip(pos, strides, window, rhs_dilation))]
        for g in range(groups):
            out[(slice(None), slice(g * og, (g + 1) * og)) + pos] = \
                np.tensordot(taps[:, g * cg:(g + 1) * cg],
                             w[g * og:(g + 1) * og],
                             axes=(list(range(1, taps.ndim)),
                                   list(range(1, taps.ndim))))
    return from_canonical(out, out_dims)


def reduce_window(kind, x, window, strides, padding):
    """max or add over windows of an explicitly padded array."""
    fill = -np.inf if kind == "max" else 0.0
    padded = np.pad(d(x), list(zip(padding[0::2], padding[1::2])),
                    constant_values=fill)
    out_shape = [(p - w) // s + 1
                 for p, w, s in zip(padded.shape, window, strides)]
    out = np.zeros(out_shape)
    for pos in np.ndindex(*out_shape):
        taps = padded[tuple(slice(p * s, p * s + w)
                            for p, s, w in zip(pos, strides, window))]
        out[pos] = taps.max() if kind == "max" else taps.sum()
    return out


def arr(values):
    return "array<i64: " + ", ".join(str(v) for v in values) + ">"


for tag, make, lhs_shape, rhs_shape, dims, window_attrs in [
    # NCHW/OIHW, padded, strided and dilated filters.
    ("2d_nchw_f32", f32, (2, 3, 7, 7), (4, 3, 3, 3),
     ((0, 1, 2, 3), (0, 1, 2, 3), (0, 1, 2, 3)),
     dict(strides=(2, 1), padding=(1, 1, 1, 1), lhs_dilation=(1, 1),
          rhs_dilation=(1, 2), groups=1)),
    # NWC input, WIO filters, NCW result; grouped, dilated input, cropping.
    ("1d_grouped_f32", f32, (2, 9, 4), (3, 2, 6),
     ((0, 2, 1), (2, 1, 0), (0, 1, 2)),
     dict(strides=(3,), padding=(-1, 2), lhs_dilation=(2,),
          rhs_dilation=(1,), groups=2)),
    # NHWC/HWIO in f64, depthwise.
    ("2d_nhwc_depthwise_f64", f64, (2, 5, 6, 3), (2, 3, 1, 3),
     ((0, 3, 1, 2), (3, 2, 0, 1), (0, 3, 1, 2)),
     dict(strides=(1, 2), padding=(0, 1, 1, 0), lhs_dilation=(1, 1),
          rhs_dilation=(1, 1), groups=3)),
]:
    lhs, rhs = make(*lhs_shape), make(*rhs_shape)
    r = conv(lhs, rhs, *dims, **window_attrs)
    r = as_f32(r) if lhs.dtype == np.float32 else r
    a = window_attrs
    attrs = (f"lhs_dims = {arr(dims[0])}, rhs_dims = {arr(dims[1])}, "
             f"out_dims = {arr(dims[2])}, window_strides = {arr(a['strides'])}, "
             f"padding = {arr(a['padding'])}, "
             f"lhs_dilation = {arr(a['lhs_dilation'])}, "
             f"rhs_dilation = {arr(a['rhs_dilation'])}, "
             f"feature_group_count = {a['groups']} : i64")
    case("convolution", f"conv_{tag}", [lhs, rhs], [r],
         f"%r0 = ens.conv %a0, %a1 {{{attrs}}} : {ty(lhs)}, {ty(rhs)} -> {ty(r)}")

for kind, make, shape, window, strides, padding in [
    ("max", f32, (2, 3, 7, 6), (1, 1, 3, 2), (1, 1, 2, 2),
     (0, 0, 0, 0, 1, 1, 0, 1)),
    ("add", f64, (3, 4, 5), (1, 2, 3), (1, 2, 1), (0, 0, 1, 0, 2, 2)),
]:
    x = make(*shape)
    r = reduce_window(kind, x, window, strides, padding)
    r = as_f32(r) if x.dtype == np.float32 else r
    case("convolution", f"reduce_window_{kind}_{_ELEMENT[x.dtype]}", [x], [r],
         f"%r0 = ens.reduce_window {kind}, %a0 {{window_dimensions = "
         f"{arr(window)}, window_strides = {arr(strides)}, padding = "
         f"{arr(padding)}}} : {ty(x)} -> {ty(r)}")

# ---------------------------------------------------------------------------
# Output
# ---------------------------------------------------------------------------

INTRO = (
    "NumPy agreement tests of the {family} ops ({ops}): every op run by "
    "ens-run on fixed inputs and checked against NumPy (rtol 1e-5, atol "
    "1e-6; integer and i1 results must match exactly). The other op families "
    "have their own files here. GENERATED by make_fixtures.py -- do not "
    "edit; regenerate these files and Inputs/*.npy, from the repository "
    "root, with:")

HEADER = f"""\
//
//   {REGENERATE}
//
// Each function @<case> reads Inputs/<case>.in<k>.npy and is checked against
// Inputs/<case>.out<k>.npy. Expected outputs are computed by NumPy in
// float64 from the float32 (or float64) inputs and then cast to the result
// dtype (float32 for f32 results); integer results are computed exactly and
// wrapped to i32. Random ops, ens.vmap and ens.value_and_grad are not
// covered here.
"""


def main():
    os.makedirs(INPUTS, exist_ok=True)
    for entry in os.listdir(INPUTS):
        if entry.endswith(".npy"):
            os.remove(os.path.join(INPUTS, entry))

    run_lines = {family: [] for family in FAMILIES}
    functions = {family: [] for family in FAMILIES}
    for family, name, args, results, body in CASES:
        flags = [f"--entry={name}"]
        for k, a in enumerate(args):
            np.save(os.path.join(INPUTS, f"{name}.in{k}.npy"), a)
            flags.append(f"--input=%S/Inputs/{name}.in{k}.npy")
        for k, r in enumerate(results):
            np.save(os.path.join(INPUTS, f"{name}.out{k}.npy"), r)
            flags.append(f"--expect=%S/Inputs/{name}.out{k}.npy")
        for backend in BACKENDS:
            run_lines[family].append(
                "// RUN: ens-run %s " + " ".join(flags) +
                f" --backend={backend} --rtol=1e-5 --atol=1e-6")

        params = ", ".join(f"%a{k}: {ty(a)}" for k, a in enumerate(args))
        result_types = ", ".join(ty(r) for r in results)
        returned = ", ".join(f"%r{k}" for k in range(len(results)))
        functions[family].append("\n".join(
            [f"func.func @{name}({params}) -> ({result_types}) {{"] +
            [f"  {line}" for line in body] +
            [f"  return {returned} : {result_types}", "}"]))

    for family, ops in FAMILIES.items():
        with open(os.path.join(HERE, f"{family}.mlir"), "w") as out:
            intro = INTRO.format(family=family, ops=ops)
            out.write(textwrap.fill(intro, width=78, initial_indent="// ",
                                    subsequent_indent="// ") + "\n")
            out.write(HEADER + "\n")
            out.write("\n".join(run_lines[family]) + "\n\n")
            out.write("\n\n".join(functions[family]) + "\n")
    print(f"wrote {len(CASES)} cases in {len(FAMILIES)} files to "
          f"{os.path.relpath(HERE)}")


if __name__ == "__main__":
    main()
