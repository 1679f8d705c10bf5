//===- EnsDialect.td - ens dialect definition --------------*- tablegen -*-===//
//
// The ens dialect: a small tensor IR in which a user writes ONE model. Later
// passes lift it over a model axis, differentiate it and fuse it into kernels.
//
//===----------------------------------------------------------------------===//

#ifndef ENS_DIALECT_ENS_IR_ENSDIALECT_TD
#define ENS_DIALECT_ENS_IR_ENSDIALECT_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/CommonTypeConstraints.td"

def Ens_Dialect : Dialect {
  let name = "ens";
  let cppNamespace = "::mlir::ens";
  let summary = "A tensor IR for models that ens batches, differentiates and fuses";
  let description = [{
    The `ens` dialect describes one model as a function over ranked tensors.
    A size may be `?` (unknown until `ens-specialize` gives the function
    concrete argument types; docs/shapes.md); every target compiles static
    shapes only. There is no implicit broadcasting: elementwise
    operands have identical types and every shape change is an explicit op.
    Functions are upstream `func.func`, `func.call` and `func.return`.

    Compute element types are `f32` and `f64`; `i32` carries indices and
    `i1` masks. `f16` and `bf16` are accepted by the verifier.
  }];
  let useDefaultAttributePrinterParser = 1;
  let hasConstantMaterializer = 1;
}

/// Every operand's and result's size in bytes fits in 64 bits. Checked on
/// every ens op, so that neither an input nor a pass that builds a type (a
/// vmap that adds a member dimension, say) can hand an overflowing size to
/// the code that allocates it.
def Ens_SizedValues : NativeOpTrait<"SizedValues"> {
  let cppNamespace = "::mlir::ens::OpTrait";
}

class Ens_Op<string mnemonic, list<Trait> traits = []>
    : Op<Ens_Dialect, mnemonic, [Ens_SizedValues] # traits>;

//===----------------------------------------------------------------------===//
// Type constraints
//===----------------------------------------------------------------------===//

def Ens_FloatElement : AnyTypeOf<[F16, BF16, F32, F64]>;

/// A ranked tensor without encoding, of one of `allowed`. A size may be `?`
/// (docs/shapes.md); the shape rules treat it as unknown.
class Ens_TensorOf<list<Type> allowed>
    : Type<And<[RankedTensorOf<allowed>.predicate,
                CPred<"!::llvm::cast<::mlir::RankedTensorType>($_self)"
                      ".getEncoding()">]>,
           RankedTensorOf<allowed>.summary # " without encoding",
           "::mlir::RankedTensorType">;

/// Any tensor the dialect can hold.
def Ens_Tensor : Ens_TensorOf<[F16, BF16, F32, F64, I32, I1]>;
/// Tensors on which arithmetic is defined.
def Ens_NumericTensor : Ens_TensorOf<[F16, BF16, F32, F64, I32]>;
/// Tensors of floating-point numbers.
def Ens_FloatTensor : Ens_TensorOf<[F16, BF16, F32, F64]>;
/// Tensors of indices.
def Ens_IndexTensor : Ens_TensorOf<[I32]>;
/// Tensors of booleans.
def Ens_MaskTensor : Ens_TensorOf<[I1]>;

/// Operands and results of an elementwise op share one shape. Listed before
/// the upstream Elementwise trait so that a mismatch is reported with the
/// shapes involved.
def Ens_ShapesAgree : NativeOpTrait<"ShapesAgree"> {
  let cppNamespace = "::mlir::ens::OpTrait";
}

#endif // ENS_DIALECT_ENS_IR_ENSDIALECT_TD
