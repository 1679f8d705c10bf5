//===- EnsOps.td - ens dialect operations ------------------*- tablegen -*-===//
//
// Operations of the ens dialect. Op classes stay thin: shape inference and
// verification live in ShapeInference.cpp, shared by every op.
//
//===----------------------------------------------------------------------===//

#ifndef ENS_DIALECT_ENS_IR_ENSOPS_TD
#define ENS_DIALECT_ENS_IR_ENSOPS_TD

include "ens/Dialect/Ens/IR/EnsDialect.td"
include "mlir/IR/EnumAttr.td"
include "mlir/IR/BuiltinAttributeInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Dialect/SCF/IR/DeviceMappingInterface.td"

//===----------------------------------------------------------------------===//
// Elementwise operations
//===----------------------------------------------------------------------===//

class Ens_BinaryOp<string mnemonic, Type type, list<Trait> traits = []>
    : Ens_Op<mnemonic, [Ens_ShapesAgree] # traits #
                       [Pure, Elementwise, SameOperandsAndResultType]> {
  let arguments = (ins type:$lhs, type:$rhs);
  let results = (outs type:$result);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` type($result)";
}

def Ens_AddOp : Ens_BinaryOp<"add", Ens_NumericTensor, [Commutative]> {
  let summary = "Elementwise addition";
  let description = [{
    `lhs + rhs`. Integer addition wraps. Adding a zero constant folds away,
    which does not preserve the sign of a negative zero operand.
  }];
  let hasFolder = 1;
}
def Ens_SubOp : Ens_BinaryOp<"sub", Ens_NumericTensor> {
  let summary = "Elementwise subtraction";
  let description = "`lhs - rhs`. Integer subtraction wraps.";
}
def Ens_MulOp : Ens_BinaryOp<"mul", Ens_NumericTensor, [Commutative]> {
  let summary = "Elementwise multiplication";
  let description = "`lhs * rhs`. Multiplication by a constant one folds away.";
  let hasFolder = 1;
}
def Ens_DivOp : Ens_BinaryOp<"div", Ens_FloatTensor> {
  let summary = "Elementwise floating-point division";
  let description = "`lhs / rhs` with IEEE semantics.";
}
def Ens_MaxOp : Ens_BinaryOp<"max", Ens_NumericTensor, [Commutative]> {
  let summary = "Elementwise maximum";
  let description = "`max(lhs, rhs)`; a NaN operand gives NaN.";
}
def Ens_MinOp : Ens_BinaryOp<"min", Ens_NumericTensor, [Commutative]> {
  let summary = "Elementwise minimum";
  let description = "`min(lhs, rhs)`; a NaN operand gives NaN.";
}
def Ens_PowOp : Ens_BinaryOp<"pow", Ens_FloatTensor> {
  let summary = "Elementwise power";
  let description = "`lhs ** rhs`, as C's `pow`.";
}

class Ens_UnaryOp<string mnemonic, Type type, list<Trait> traits = []>
    : Ens_Op<mnemonic, [Ens_ShapesAgree] # traits #
                       [Pure, Elementwise, SameOperandsAndResultType]> {
  let arguments = (ins type:$operand);
  let results = (outs type:$result);
  let assemblyFormat = "$operand attr-dict `:` type($result)";
}

def Ens_NegOp : Ens_UnaryOp<"neg", Ens_NumericTensor> {
  let summary = "Elementwise negation";
}
def Ens_ExpOp : Ens_UnaryOp<"exp", Ens_FloatTensor> {
  let summary = "Elementwise exponential";
}
def Ens_LogOp : Ens_UnaryOp<"log", Ens_FloatTensor> {
  let summary = "Elementwise natural logarithm";
}
def Ens_TanhOp : Ens_UnaryOp<"tanh", Ens_FloatTensor> {
  let summary = "Elementwise hyperbolic tangent";
}
def Ens_SigmoidOp : Ens_UnaryOp<"sigmoid", Ens_FloatTensor> {
  let summary = "Elementwise logistic function `1 / (1 + exp(-x))`";
}
def Ens_ReluOp : Ens_UnaryOp<"relu", Ens_FloatTensor> {
  let summary = "Elementwise `max(x, 0)`";
}
def Ens_SqrtOp : Ens_UnaryOp<"sqrt", Ens_FloatTensor> {
  let summary = "Elementwise square root";
}
def Ens_RsqrtOp : Ens_UnaryOp<"rsqrt", Ens_FloatTensor> {
  let summary = "Elementwise reciprocal square root";
}
def Ens_AbsOp : Ens_UnaryOp<"abs", Ens_NumericTensor> {
  let summary = "Elementwise absolute value";
}
def Ens_SquareOp : Ens_UnaryOp<"square", Ens_NumericTensor> {
  let summary = "Elementwise `x * x`";
}

def Ens_CmpPredicate : I32EnumAttr<"CmpPredicate", "comparison predicate", [
    I32EnumAttrCase<"lt", 0>, I32EnumAttrCase<"le", 1>,
    I32EnumAttrCase<"gt", 2>, I32EnumAttrCase<"ge", 3>,
    I32EnumAttrCase<"eq", 4>, I32EnumAttrCase<"ne", 5>]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::ens";
}
def Ens_CmpPredicateAttr
    : EnumAttr<Ens_Dialect, Ens_CmpPredicate, "cmp_predicate">;

def Ens_CmpOp : Ens_Op<"cmp", [Ens_ShapesAgree, Pure, Elementwise,
                               SameTypeOperands,
                               SameOperandsAndResultShape,
                               InferTypeOpAdaptor]> {
  let summary = "Elementwise comparison giving a mask";
  let description = [{
    Compares `lhs` and `rhs` elementwise with `predicate` (`lt`, `le`, `gt`,
    `ge`, `eq`, `ne`) and returns an `i1` tensor of the same shape. Ordered
    comparisons with a NaN are false; `ne` with a NaN is true.

    ```mlir
    %m = ens.cmp lt, %a, %b : tensor<4xf32>
    ```
  }];
  let arguments = (ins Ens_CmpPredicateAttr:$predicate,
                       Ens_NumericTensor:$lhs, Ens_NumericTensor:$rhs);
  let results = (outs Ens_MaskTensor:$result);
  let assemblyFormat = "$predicate `,` $lhs `,` $rhs attr-dict `:` type($lhs)";
}

def Ens_SelectOp : Ens_Op<"select", [Ens_ShapesAgree, Pure, Elementwise,
    AllTypesMatch<["on_true", "on_false", "result"]>]> {
  let summary = "Elementwise choice by a mask";
  let description = "`cond ? on_true : on_false`, elementwise.";
  let arguments = (ins Ens_MaskTensor:$cond, Ens_Tensor:$on_true,
                       Ens_Tensor:$on_false);
  let results = (outs Ens_Tensor:$result);
  let assemblyFormat = [{
    $cond `,` $on_true `,` $on_false attr-dict `:` type($cond) `,` type($result)
  }];
}

def Ens_ConvertOp : Ens_Op<"convert", [Ens_ShapesAgree, Pure, Elementwise]> {
  let summary = "Elementwise element-type conversion";
  let description = [{
    Converts each element to the result's element type. Float to integer
    rounds toward zero and saturates to the integer range (NaN gives 0);
    anything to `i1` is `x != 0`; `i1` to a number is 0 or 1.
  }];
  let arguments = (ins Ens_Tensor:$operand);
  let results = (outs Ens_Tensor:$result);
  let assemblyFormat = "$operand attr-dict `:` type($operand) `->` type($result)";
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// Constants and shape manipulation
//===----------------------------------------------------------------------===//

def Ens_ConstantOp : Ens_Op<"constant", [ConstantLike, Pure,
    AllTypesMatch<["value", "result"]>]> {
  let summary = "A constant tensor";
  let description = [{
    ```mlir
    %c = ens.constant dense<[1.0, 2.0]> : tensor<2xf32>
    ```
  }];
  let arguments = (ins ElementsAttr:$value);
  let results = (outs Ens_Tensor:$result);
  let assemblyFormat = "attr-dict $value";
  let hasFolder = 1;
  let hasVerifier = 1;
}

def Ens_BroadcastInDimOp : Ens_Op<"broadcast_in_dim", [Pure,
    AllElementTypesMatch<["operand", "result"]>]> {
  let summary = "Broadcasts a tensor to a larger shape";
  let description = [{
    The result type gives the shape. Operand dimension `i` maps to result
    dimension `dims[i]`, whose size equals the operand's or the operand's is
    1. Result dimensions not named in `dims` are new.

    ```mlir
    %b = ens.broadcast_in_dim %x {dims = array<i64: 1>}
        : tensor<8xf32> -> tensor<4x8xf32>
    ```
  }];
  let arguments = (ins Ens_Tensor:$operand, DenseI64ArrayAttr:$dims);
  let results = (outs Ens_Tensor:$result);
  let assemblyFormat = "$operand attr-dict `:` type($operand) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Ens_ReshapeOp : Ens_Op<"reshape", [Pure,
    AllElementTypesMatch<["operand", "result"]>]> {
  let summary = "Reinterprets the row-major elements with a new shape";
  let arguments = (ins Ens_Tensor:$operand);
  let results = (outs Ens_Tensor:$result);
  let assemblyFormat = "$operand attr-dict `:` type($operand) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Ens_TransposeOp : Ens_Op<"transpose", [Pure,
    InferTypeOpAdaptor]> {
  let summary = "Permutes dimensions";
  let description = [{
    Result dimension `i` is operand dimension `permutation[i]`.
  }];
  let arguments = (ins Ens_Tensor:$operand, DenseI64ArrayAttr:$permutation);
  let results = (outs Ens_Tensor:$result);
  let assemblyFormat = "$operand attr-dict `:` type($operand) `->` type($result)";
  let hasFolder = 1;
}

def Ens_SliceOp : Ens_Op<"slice", [Pure, InferTypeOpAdaptor]> {
  let summary = "Takes a strided box of a tensor";
  let description = [{
    For each dimension `d`, keeps the indices `start[d], start[d] +
    stride[d], ...` below `limit[d]`. `0 <= start <= limit <= size` and
    `stride >= 1`.
  }];
  let arguments = (ins Ens_Tensor:$operand, DenseI64ArrayAttr:$start,
                       DenseI64ArrayAttr:$limit, DenseI64ArrayAttr:$stride);
  let results = (outs Ens_Tensor:$result);
  let assemblyFormat = "$operand attr-dict `:` type($operand) `->` type($result)";
}

def Ens_ConcatOp : Ens_Op<"concat", [Pure, SameOperandsElementType,
                                     InferTypeOpAdaptor]> {
  let summary = "Joins tensors along one dimension";
  let arguments = (ins Variadic<Ens_Tensor>:$inputs, I64Attr:$dim);
  let results = (outs Ens_Tensor:$result);
  let assemblyFormat = [{
    $inputs attr-dict `:` type($inputs) `->` type($result)
  }];
}

def Ens_TakeOp : Ens_Op<"take", [Pure, InferTypeOpAdaptor]> {
  let summary = "Gathers slices of a table by index (numpy.take)";
  let description = [{
    The result shape is `table.shape[:axis] + indices.shape +
    table.shape[axis+1:]`. Indices are clamped to `[0, size - 1]`, so an
    out-of-range index reads the nearest valid row on every backend.

    ```mlir
    %e = ens.take %table, %ids {axis = 0 : i64}
        : tensor<100x16xf32>, tensor<8xi32> -> tensor<8x16xf32>
    ```
  }];
  let arguments = (ins Ens_Tensor:$table, Ens_IndexTensor:$indices,
                       I64Attr:$axis);
  let results = (outs Ens_Tensor:$result);
  let assemblyFormat = [{
    $table `,` $indices attr-dict `:` type($table) `,` type($indices)
    `->` type($result)
  }];
}

def Ens_PadOp : Ens_Op<"pad", [Pure, InferTypeOpAdaptor]> {
  let summary = "Pads a tensor with zeros";
  let description = [{
    Puts `low[d]` zeros before, `high[d]` zeros after and `interior[d]`
    zeros between consecutive elements of each dimension `d`, as
    StableHLO's pad with a zero padding value. It is the adjoint of a
    strided `ens.slice`. All amounts are non-negative.
  }];
  let arguments = (ins Ens_Tensor:$operand, DenseI64ArrayAttr:$low,
                       DenseI64ArrayAttr:$high, DenseI64ArrayAttr:$interior);
  let results = (outs Ens_Tensor:$result);
  let assemblyFormat = "$operand attr-dict `:` type($operand) `->` type($result)";
}

def Ens_ScatterAddOp : Ens_Op<"scatter_add", [Pure,
    AllElementTypesMatch<["updates", "result"]>]> {
  let summary = "Adds slices into a zero tensor at indices (adjoint of take)";
  let description = [{
    The result type gives the table's shape. Starting from zeros, adds each
    slice of `updates` to the row of the result named by the matching index
    along `axis`, with indices clamped as in `ens.take`; repeated indices
    accumulate. `updates` has the shape `ens.take` would produce from the
    result and `indices`.

    ```mlir
    %g = ens.scatter_add %dy, %ids {axis = 0 : i64}
        : tensor<8x16xf32>, tensor<8xi32> -> tensor<100x16xf32>
    ```
  }];
  let arguments = (ins Ens_NumericTensor:$updates, Ens_IndexTensor:$indices,
                       I64Attr:$axis);
  let results = (outs Ens_NumericTensor:$result);
  let assemblyFormat = [{
    $updates `,` $indices attr-dict `:` type($updates) `,` type($indices)
    `->` type($result)
  }];
  let hasVerifier = 1;
}

def Ens_OneHotOp : Ens_Op<"one_hot", [Pure]> {
  let summary = "One-hot encodes indices";
  let description = [{
    The result shape is `indices.shape + [depth]`, `depth` being the last
    dimension of the result type. `result[..., j]` is 1 where the index
    equals `j`, else 0; an index outside `[0, depth)` gives a row of zeros.
  }];
  let arguments = (ins Ens_IndexTensor:$indices);
  let results = (outs Ens_NumericTensor:$result);
  let assemblyFormat = "$indices attr-dict `:` type($indices) `->` type($result)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

class Ens_ReduceOp<string mnemonic, Type type>
    : Ens_Op<mnemonic, [Pure, InferTypeOpAdaptor]> {
  let arguments = (ins type:$operand, DenseI64ArrayAttr:$dims);
  let results = (outs type:$result);
  let assemblyFormat = "$operand attr-dict `:` type($operand) `->` type($result)";
}

def Ens_ReduceSumOp : Ens_ReduceOp<"reduce_sum", Ens_NumericTensor> {
  let summary = "Sums over dimensions, which are removed";
}
def Ens_ReduceMaxOp : Ens_ReduceOp<"reduce_max", Ens_NumericTensor> {
  let summary = "Maximum over dimensions, which are removed";
  let description = "A NaN anywhere in a reduced group gives NaN.";
}
def Ens_ReduceMeanOp : Ens_ReduceOp<"reduce_mean", Ens_FloatTensor> {
  let summary = "Mean over dimensions, which are removed";
}

//===----------------------------------------------------------------------===//
// Contractions
//===----------------------------------------------------------------------===//

def Ens_EinsumOp : Ens_Op<"einsum", [Pure, SameOperandsElementType,
                                     InferTypeOpAdaptor]> {
  let summary = "Einstein summation of two tensors";
  let description = [{
    `spec` has the form `"<lhs>,<rhs>-><out>"` with one lower-case label per
    dimension. A label is used at most once per operand and in the output;
    labels absent from the output are summed over; a label shared by both
    operands names dimensions of equal size.

    ```mlir
    %y = ens.einsum %x, %w {spec = "bi,io->bo"}
        : tensor<4x3xf32>, tensor<3x2xf32> -> tensor<4x2xf32>
    ```
  }];
  let arguments = (ins Ens_NumericTensor:$lhs, Ens_NumericTensor:$rhs,
                       StrAttr:$spec);
  let results = (outs Ens_NumericTensor:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs attr-dict `:` type($lhs) `,` type($rhs) `->` type($result)
  }];
}

def Ens_TensordotOp : Ens_Op<"tensordot", [Pure, SameOperandsElementType,
                                           InferTypeOpAdaptor]> {
  let summary = "Contracts dimension lists of two tensors (numpy.tensordot)";
  let description = [{
    Sums over `lhs_dims[k]` of `lhs` paired with `rhs_dims[k]` of `rhs`. The
    result's dimensions are the free dimensions of `lhs`, then those of
    `rhs`, each in order.
  }];
  let arguments = (ins Ens_NumericTensor:$lhs, Ens_NumericTensor:$rhs,
                       DenseI64ArrayAttr:$lhs_dims,
                       DenseI64ArrayAttr:$rhs_dims);
  let results = (outs Ens_NumericTensor:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs attr-dict `:` type($lhs) `,` type($rhs) `->` type($result)
  }];
}

def Ens_MatmulOp : Ens_Op<"matmul", [Pure, SameOperandsElementType,
                                     InferTypeOpAdaptor]> {
  let summary = "Matrix product with numpy.matmul semantics";
  let description = [{
    A rank-1 `lhs` is a row vector and a rank-1 `rhs` a column vector; the
    added dimension is removed from the result. Leading (batch) dimensions
    broadcast against each other as in numpy.
  }];
  let arguments = (ins Ens_NumericTensor:$lhs, Ens_NumericTensor:$rhs);
  let results = (outs Ens_NumericTensor:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs attr-dict `:` type($lhs) `,` type($rhs) `->` type($result)
  }];
}

//===----------------------------------------------------------------------===//
// Convolutions
//===----------------------------------------------------------------------===//

def Ens_ConvOp : Ens_Op<"conv", [Pure, SameOperandsAndResultElementType]> {
  let summary = "N-d convolution with StableHLO's dimension numbers";
  let description = [{
    The cross-correlation of `lhs` (the input) with `rhs` (the filters), as
    StableHLO's `convolution` and `torch.nn.functional.conv2d` compute it.
    The dimension numbers say where each role sits, so NCHW/OIHW,
    NHWC/HWIO and any other layout are the same op:

    - `lhs_dims = array<i64: b, f, s0, s1, ...>`: the positions in `lhs` of
      the batch, the feature and the spatial dimensions;
    - `rhs_dims = array<i64: o, i, s0, s1, ...>`: the positions in `rhs` of
      the output-feature, the input-feature and the spatial dimensions;
    - `out_dims = array<i64: b, f, s0, s1, ...>`: the positions in the
      result of the batch, the feature and the spatial dimensions.

    The optional attributes default to no effect: `window_strides` (1s),
    `padding = array<i64: lo0, hi0, lo1, hi1, ...>` (0s; a negative amount
    crops), `lhs_dilation` (1s: `d - 1` zeros between input elements),
    `rhs_dilation` (1s: `d - 1` gaps between filter taps) and
    `feature_group_count = G` (1). With `C` input features, the filters'
    input-feature size is `C / G` and their output-feature size `O` is a
    multiple of `G`; output feature `o` reads the input features of group
    `o / (O / G)`.

    In each spatial dimension the input of size `n` is dilated to
    `(n - 1) * lhs_dilation + 1`, padded to `p`, and the filter of size
    `k` spans `w = (k - 1) * rhs_dilation + 1`; the result has
    `(p - w) / stride + 1` positions (0 when `p < w`):

    ```
    result[b, o, x...] = sum over c < C / G and k... of
        padded_dilated_lhs[b, g * C / G + c, x * stride + k * rhs_dilation]
        * rhs[o, c, k...]          where g = o / (O / G)
    ```

    A 3x3 convolution of an NCHW batch with OIHW filters, padded to keep
    the size:

    ```mlir
    %y = ens.conv %x, %w {lhs_dims = array<i64: 0, 1, 2, 3>,
                          rhs_dims = array<i64: 0, 1, 2, 3>,
                          out_dims = array<i64: 0, 1, 2, 3>,
                          padding = array<i64: 1, 1, 1, 1>}
        : tensor<8x3x28x28xf32>, tensor<16x3x3x3xf32> -> tensor<8x16x28x28xf32>
    ```

    1-D and 2-D convolutions are tested on every target, 3-D ones on the
    interpreter and the CPU. docs/convolution.md pictures the window.
  }];
  let arguments = (ins Ens_FloatTensor:$lhs, Ens_FloatTensor:$rhs,
                       DenseI64ArrayAttr:$lhs_dims,
                       DenseI64ArrayAttr:$rhs_dims,
                       DenseI64ArrayAttr:$out_dims,
                       OptionalAttr<DenseI64ArrayAttr>:$window_strides,
                       OptionalAttr<DenseI64ArrayAttr>:$padding,
                       OptionalAttr<DenseI64ArrayAttr>:$lhs_dilation,
                       OptionalAttr<DenseI64ArrayAttr>:$rhs_dilation,
                       DefaultValuedAttr<I64Attr, "1">:$feature_group_count);
  let results = (outs Ens_FloatTensor:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs attr-dict `:` type($lhs) `,` type($rhs) `->` type($result)
  }];
  let builders = [
    // Infers the result type; the operands must satisfy the shape rule.
    OpBuilder<(ins "Value":$lhs, "Value":$rhs, "const ConvDims &":$dims)>
  ];
  let extraClassDeclaration = [{
    /// The dimension numbers with every default filled in.
    ConvDims getConvDims();
  }];
  let hasVerifier = 1;
}

def Ens_WindowKind : I32EnumAttr<"WindowKind", "window reduction", [
    I32EnumAttrCase<"max", 0>, I32EnumAttrCase<"add", 1>]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::ens";
}
def Ens_WindowKindAttr
    : EnumAttr<Ens_Dialect, Ens_WindowKind, "window_kind">;

def Ens_ReduceWindowOp : Ens_Op<"reduce_window", [Pure,
    SameOperandsAndResultElementType]> {
  let summary = "Max or sum over sliding windows (pooling)";
  let description = [{
    StableHLO's `reduce_window` with the `max` (initial value `-inf`) or
    `add` (initial value 0) reduction. Every dimension has a window:
    `window_dimensions` gives its size, `window_strides` (1s) how far it
    moves and `padding = array<i64: lo0, hi0, lo1, hi1, ...>` (0s) how many
    padding elements (`-inf` for max, 0 for add) lie before and after the
    operand. A dimension not pooled over has a window of 1. In each
    dimension, the result has `(n + lo + hi - w) / stride + 1` elements;
    the padding is below the window size, so that every window holds an
    element of the operand.

    Max pooling and average pooling (the sum, divided by the window size or
    by the count of operand elements in the window) are
    `reduce_window`s: one op with StableHLO's semantics, in any layout,
    since the window names no roles (docs/convolution.md).

    ```mlir
    %p = ens.reduce_window max, %x {window_dimensions = array<i64: 1, 1, 2, 2>,
                                    window_strides = array<i64: 1, 1, 2, 2>}
        : tensor<8x16x28x28xf32> -> tensor<8x16x14x14xf32>
    ```

    A NaN in a max window gives NaN. The gradient of `max` goes to the
    first maximum of each window in row-major window order
    (docs/semantics.md).
  }];
  let arguments = (ins Ens_WindowKindAttr:$kind, Ens_FloatTensor:$operand,
                       DenseI64ArrayAttr:$window_dimensions,
                       OptionalAttr<DenseI64ArrayAttr>:$window_strides,
                       OptionalAttr<DenseI64ArrayAttr>:$padding);
  let results = (outs Ens_FloatTensor:$result);
  let assemblyFormat = [{
    $kind `,` $operand attr-dict `:` type($operand) `->` type($result)
  }];
  let builders = [
    // Infers the result type; the operand must satisfy the shape rule.
    OpBuilder<(ins "WindowKind":$kind, "Value":$operand,
                   "const Window &":$window)>
  ];
  let extraClassDeclaration = [{
    /// The window with every default filled in.
    Window getWindow();
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Normalisations
//===----------------------------------------------------------------------===//

class Ens_SoftmaxLikeOp<string mnemonic>
    : Ens_Op<mnemonic, [Pure, SameOperandsAndResultType]> {
  let arguments = (ins Ens_FloatTensor:$operand, I64Attr:$dim);
  let results = (outs Ens_FloatTensor:$result);
  let assemblyFormat = "$operand attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def Ens_SoftmaxOp : Ens_SoftmaxLikeOp<"softmax"> {
  let summary = "Softmax along one dimension, computed stably";
}
def Ens_LogSoftmaxOp : Ens_SoftmaxLikeOp<"log_softmax"> {
  let summary = "Log-softmax along one dimension, computed stably";
}

def Ens_LogsumexpOp : Ens_ReduceOp<"logsumexp", Ens_FloatTensor> {
  let summary = "`log(sum(exp(x)))` over dimensions, computed stably";
}

//===----------------------------------------------------------------------===//
// Random numbers
//===----------------------------------------------------------------------===//

/// A key of the counter-based generator: two 32-bit words.
def Ens_KeyTensor : Ens_TensorOf<[I32]>;

class Ens_RandomOp<string mnemonic, list<Trait> traits = []>
    : Ens_Op<mnemonic, traits # [Pure]>;

def Ens_RandomUniformOp : Ens_RandomOp<"random_uniform"> {
  let summary = "Uniform random numbers in [0, 1) from a key";
  let description = [{
    `key` is a `tensor<...x2xi32>`: its leading dimensions (if any) are a
    batch of keys, each drawing its own block. The result shape is the
    key's batch shape followed by the drawn shape. Element `i` (row-major)
    of a block is made from Threefry-2x32 (20 rounds) of the key and the
    counter `(0, i)`, so results are bit-identical on every backend: f32
    takes the high 23 bits of the first word as the mantissa of a number
    in [1, 2) and subtracts 1; f64 takes 52 bits of both words.
  }];
  let arguments = (ins Ens_KeyTensor:$key);
  let results = (outs Ens_FloatTensor:$result);
  let assemblyFormat = "$key attr-dict `:` type($key) `->` type($result)";
  let hasVerifier = 1;
}

def Ens_RandomNormalOp : Ens_RandomOp<"random_normal"> {
  let summary = "Standard normal random numbers from a key";
  let description = [{
    Shapes as `ens.random_uniform`. Element `i` applies the Box-Muller
    transform to the two words `w1, w2` of Threefry-2x32 of the key and the
    counter `(0, i)`: with `u_k = (w_k + 0.5) / 2^32` in (0, 1), it is
    `sqrt(-2 log(u1)) * cos(2 pi u2)`.
  }];
  let arguments = (ins Ens_KeyTensor:$key);
  let results = (outs Ens_FloatTensor:$result);
  let assemblyFormat = "$key attr-dict `:` type($key) `->` type($result)";
  let hasVerifier = 1;
}

def Ens_RandomSplitOp : Ens_RandomOp<"random_split"> {
  let summary = "Derives independent keys from a key";
  let description = [{
    `tensor<...x2xi32> -> tensor<...xNx2xi32>`: key `j` of the result is
    Threefry-2x32 of the key and the counter `(1, j)`.
  }];
  let arguments = (ins Ens_KeyTensor:$key);
  let results = (outs Ens_KeyTensor:$result);
  let assemblyFormat = "$key attr-dict `:` type($key) `->` type($result)";
  let hasVerifier = 1;
}

def Ens_RandomFoldInOp : Ens_RandomOp<"random_fold_in"> {
  let summary = "Derives a key from a key and an integer";
  let description = [{
    `(tensor<...x2xi32>, tensor<...xi32>) -> tensor<...x2xi32>`: the new
    key is Threefry-2x32 of the key and the counter `(2, data)`. Under
    `ens.vmap` with randomness "different", each member's draws use keys
    with the member index folded in this way.
  }];
  let arguments = (ins Ens_KeyTensor:$key, Ens_IndexTensor:$data);
  let results = (outs Ens_KeyTensor:$result);
  let assemblyFormat = [{
    $key `,` $data attr-dict `:` type($key) `,` type($data) `->` type($result)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Function transforms
//===----------------------------------------------------------------------===//

def Ens_VmapOp : Ens_Op<"vmap", [
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "Maps a function over a batch axis of its arguments";
  let description = [{
    Computes `callee` for each of `size` members. Argument `i` carries the
    members along axis `in_axes[i]`, or is shared by every member when
    `in_axes[i]` is -1. Result `j` holds the members along axis
    `out_axes[j]`. Member `m` of the result is exactly `callee` applied to
    member `m` of each batched argument and to the shared ones.

    `randomness` ("different", the default, or "same") says whether members
    draw independent random streams or share one.

    ```mlir
    %y = ens.vmap @member(%x, %w) {in_axes = array<i64: -1, 0>,
                                   out_axes = array<i64: 0>, size = 8 : i64}
        : (tensor<4x3xf32>, tensor<8x3x2xf32>) -> tensor<8x4x2xf32>
    ```

    The `ens-batch` pass replaces it by a call to a batched function.
  }];
  let arguments = (ins FlatSymbolRefAttr:$callee, Variadic<Ens_Tensor>:$args,
                       DenseI64ArrayAttr:$in_axes,
                       DenseI64ArrayAttr:$out_axes, I64Attr:$size,
                       DefaultValuedStrAttr<StrAttr, "different">:$randomness);
  let results = (outs Variadic<Ens_Tensor>:$results);
  let assemblyFormat = [{
    $callee `(` $args `)` attr-dict `:` functional-type($args, $results)
  }];
  let hasVerifier = 1;
}

def Ens_ValueAndGradOp : Ens_Op<"value_and_grad", [
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "A function's scalar loss and its gradients";
  let description = [{
    Calls `callee`, whose first result is a rank-0 f32 or f64 tensor (the
    loss), and returns the loss followed by the gradient of the loss with
    respect to each argument listed in `wrt`, each with its argument's type.
    Further results of the callee are neither differentiated nor returned.

    ```mlir
    %loss, %gw = ens.value_and_grad @loss(%x, %w) {wrt = array<i64: 1>}
        : (tensor<4x3xf32>, tensor<3x2xf32>) -> (tensor<f32>, tensor<3x2xf32>)
    ```

    The `ens-autodiff` pass replaces it by a call to a generated function
    that runs the forward pass and then the adjoint sweep.
  }];
  let arguments = (ins FlatSymbolRefAttr:$callee, Variadic<Ens_Tensor>:$args,
                       DenseI64ArrayAttr:$wrt);
  let results = (outs Variadic<Ens_Tensor>:$results);
  let assemblyFormat = [{
    $callee `(` $args `)` attr-dict `:` functional-type($args, $results)
  }];
  let hasVerifier = 1;
}

def Ens_StdlibCallOp : Ens_Op<"stdlib_call", [Pure]> {
  let summary = "Calls a standard-library function at its operands' types";
  let description = [{
    Calls the standard library's `function` (docs/stdlib.md), which is
    written once over type aliases: `!T`, the float tensor type it is
    generic in, and types derived from it (`!S` its rank-0 type, `!V` a
    vector of its last dimension, ...). The library's source names which
    operand or result has type `!T`; every other operand and result type
    follows from it, so the custom form writes `!T` alone:

    ```mlir
    %p1, %m1, %v1 = ens.stdlib_call "adam"(%p, %g, %m, %v, %step, %lr,
        %beta1, %beta2, %eps, %decay) : tensor<64x32xf32>
    %loss = ens.stdlib_call "mse"(%y, %targets) : tensor<256x8xf32>
    %w = ens.stdlib_call "xavier_uniform"(%key, %fan_in, %fan_out)
        : tensor<64x32xf32>
    ```

    The verifier instantiates the library function's signature at `!T` and
    requires the operand and result types to be exactly that signature's:
    an unknown name, a wrong number of operands or results, or a type
    (element type or shape) that differs from the signature is an error
    naming the operand. No declaration per shape is needed, and one
    function can be called at any number of shapes.

    The `ens-stdlib` pass (the first of every target's front) replaces each
    call by a `func.call` of a private function holding the library's body
    at those types, one per function and `!T`; batching and
    differentiation then see ordinary ens ops. A `?` size in `!T` must be
    resolved first (`ens-specialize`, which infers the results of a call
    whose `!T` is an operand's type).
  }];
  let arguments = (ins StrAttr:$function, Variadic<Ens_Tensor>:$args);
  let results = (outs Variadic<Ens_Tensor>:$results);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The library function's signature at this call's !T (the type of the
    /// operand or result its source binds), or an error through
    /// `emitError` (which may be null) when the name is unknown, the call
    /// has too few values to hold !T, or !T does not fit the function.
    FailureOr<FunctionType>
    getSignature(llvm::function_ref<InFlightDiagnostic()> emitError = {});
    /// The type of the operand or result the source binds to !T, as the
    /// custom form writes it; null when the call has no such value.
    Type getBoundType();
  }];
}

//===----------------------------------------------------------------------===//
// Attributes of the lowered program
//===----------------------------------------------------------------------===//

def Ens_MembersMappingAttr
    : AttrDef<Ens_Dialect, "MembersMapping",
              [DeclareAttrInterfaceMethods<DeviceMappingAttrInterface>]> {
  let mnemonic = "members";
  let summary = "Marks an scf.forall whose iterations are ensemble members";
  let description = [{
    `ens-fuse-members` maps a loop over the members of an ensemble of ONE
    member to `#ens.members` (`scf.forall (%m) in (1) ... {mapping =
    [#ens.members]}`). Canonicalization folds an unmapped loop of one
    iteration into its body, and the CUDA backend then no longer sees a
    member loop that it could run as one kernel; a mapped loop stays.
  }];
}

#endif // ENS_DIALECT_ENS_IR_ENSOPS_TD
