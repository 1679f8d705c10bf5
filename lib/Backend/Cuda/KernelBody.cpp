//===- KernelBody.cpp - Scalar C++ of CUDA kernels ------------------------===//
//
// The statements inside a kernel: one C++ expression per arith or math op,
// with the interpreter's scalar semantics (NaN-propagating maximum and
// minimum, wrapping integer arithmetic, saturating float-to-int), element
// accesses through static strides, and sequential scf.for loops.
//
//===----------------------------------------------------------------------===//

#include "KernelBody.h"

#include "ens/Support/TensorTypes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/Format.h"

#include <cmath>

using namespace mlir;
using namespace mlir::ens;
using namespace mlir::ens::cuda;

llvm::Error cuda::error(const Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

//===----------------------------------------------------------------------===//
// Types and constants
//===----------------------------------------------------------------------===//

FailureOr<std::string> cuda::getCType(Type type) {
  if (type.isF32())
    return std::string("float");
  if (type.isF64())
    return std::string("double");
  if (type.isIndex() || type.isInteger(64))
    return std::string("long long");
  if (type.isInteger(32))
    return std::string("int");
  if (type.isInteger(16))
    return std::string("short");
  if (type.isInteger(8))
    return std::string("signed char");
  if (type.isInteger(1))
    return std::string("bool");
  return failure();
}

/// The unsigned C++ type of the same width as integer `type`.
static std::string getUnsignedCType(Type type) {
  if (type.isIndex() || type.isInteger(64))
    return "unsigned long long";
  if (type.isInteger(16))
    return "unsigned short";
  if (type.isInteger(8) || type.isInteger(1))
    return "unsigned char";
  return "unsigned";
}

std::optional<DType> cuda::getBufferDType(Type type) {
  // The kernels have no 16-bit floats yet.
  std::optional<DType> dtype = getDType(type);
  if (dtype == DType::F16 || dtype == DType::BF16)
    return std::nullopt;
  return dtype;
}

std::string cuda::floatLiteral(double value, bool isDouble) {
  if (std::isnan(value))
    return isDouble ? "__longlong_as_double(0x7ff8000000000000LL)"
                    : "__int_as_float(0x7fc00000)";
  if (std::isinf(value)) {
    if (isDouble)
      return value > 0
                 ? "__longlong_as_double(0x7ff0000000000000LL)"
                 : "__longlong_as_double((long long)0xfff0000000000000ULL)";
    return value > 0 ? "__int_as_float(0x7f800000)"
                     : "__int_as_float((int)0xff800000u)";
  }
  std::string text;
  llvm::raw_string_ostream os(text);
  os << llvm::format(isDouble ? "%.17g" : "%.9g", value);
  if (text.find_first_of(".e") == std::string::npos)
    text += ".0";
  if (!isDouble)
    text += "f";
  return "(" + text + ")";
}

static std::string intLiteral(const APInt &value, Type type) {
  if (type.isInteger(1))
    return value.isZero() ? "false" : "true";
  int64_t v = value.getSExtValue();
  if (type.isIndex() || type.isInteger(64))
    return "(" + std::to_string(v) + "LL)";
  if (v == INT32_MIN)
    return "(-2147483647 - 1)";
  return "(" + std::to_string(v) + ")";
}

//===----------------------------------------------------------------------===//
// Scalar code
//===----------------------------------------------------------------------===//

static std::string cmpfExpr(arith::CmpFPredicate p, const std::string &a,
                            const std::string &b) {
  using P = arith::CmpFPredicate;
  switch (p) {
  case P::AlwaysFalse:
    return "false";
  case P::AlwaysTrue:
    return "true";
  case P::OEQ:
    return "(" + a + " == " + b + ")";
  case P::OGT:
    return "(" + a + " > " + b + ")";
  case P::OGE:
    return "(" + a + " >= " + b + ")";
  case P::OLT:
    return "(" + a + " < " + b + ")";
  case P::OLE:
    return "(" + a + " <= " + b + ")";
  case P::ONE:
    return "(" + a + " < " + b + " || " + a + " > " + b + ")";
  case P::ORD:
    return "(" + a + " == " + a + " && " + b + " == " + b + ")";
  case P::UEQ:
    return "!(" + a + " < " + b + " || " + a + " > " + b + ")";
  case P::UGT:
    return "!(" + a + " <= " + b + ")";
  case P::UGE:
    return "!(" + a + " < " + b + ")";
  case P::ULT:
    return "!(" + a + " >= " + b + ")";
  case P::ULE:
    return "!(" + a + " > " + b + ")";
  case P::UNE:
    return "(" + a + " != " + b + ")";
  case P::UNO:
    return "(" + a + " != " + a + " || " + b + " != " + b + ")";
  }
  return "false";
}

static std::string cmpiExpr(arith::CmpIPredicate p, std::string a,
                            std::string b, const std::string &u) {
  using P = arith::CmpIPredicate;
  std::string ua = "(" + u + ")" + a, ub = "(" + u + ")" + b;
  switch (p) {
  case P::eq:
    return "(" + a + " == " + b + ")";
  case P::ne:
    return "(" + a + " != " + b + ")";
  case P::slt:
    return "(" + a + " < " + b + ")";
  case P::sle:
    return "(" + a + " <= " + b + ")";
  case P::sgt:
    return "(" + a + " > " + b + ")";
  case P::sge:
    return "(" + a + " >= " + b + ")";
  case P::ult:
    return "(" + ua + " < " + ub + ")";
  case P::ule:
    return "(" + ua + " <= " + ub + ")";
  case P::ugt:
    return "(" + ua + " > " + ub + ")";
  case P::uge:
    return "(" + ua + " >= " + ub + ")";
  }
  return "false";
}

/// The libm name of `base` ("exp") for `type`: expf for f32.
static std::string mathName(StringRef base, Type type) {
  return type.isF32() ? (base + "f").str() : base.str();
}

std::string cuda::fmaExpr(Type type, const std::string &a, const std::string &b,
                          const std::string &c) {
  return mathName("fma", type) + "(" + a + ", " + b + ", " + c + ")";
}

arith::MulFOp cuda::getFusedMultiply(arith::AddFOp add) {
  for (Value operand : add->getOperands()) {
    auto mul = operand.getDefiningOp<arith::MulFOp>();
    // A multiply used elsewhere too would be computed twice.
    if (mul && mul->hasOneUse() && mul->getBlock() == add->getBlock())
      return mul;
  }
  return nullptr;
}

/// Whether `mul` is written as part of the fmaf of the add that uses it.
static bool isFusedIntoAdd(arith::MulFOp mul) {
  if (!mul->hasOneUse())
    return false;
  auto add = dyn_cast<arith::AddFOp>(*mul->user_begin());
  return add && cuda::getFusedMultiply(add) == mul;
}

FailureOr<std::string> cuda::BodyEmitter::expression(Operation *op) {
  auto operand = [&](unsigned i) { return get(op->getOperand(i)); };
  Type type = op->getNumResults() ? op->getResult(0).getType() : Type();
  FailureOr<std::string> cType =
      type ? getCType(type) : FailureOr<std::string>();
  if (failed(cType))
    return failure();
  std::string t = *cType;
  auto binary = [&](StringRef symbol) {
    return "(" + operand(0) + " " + symbol.str() + " " + operand(1) + ")";
  };
  // Integer arithmetic wraps: compute in the unsigned type.
  auto wrapping = [&](StringRef symbol) -> FailureOr<std::string> {
    if (type.isInteger(1))
      return failure();
    std::string u = getUnsignedCType(type);
    return "(" + t + ")((" + u + ")" + operand(0) + " " + symbol.str() + " (" +
           u + ")" + operand(1) + ")";
  };
  auto call = [&](StringRef base) {
    std::string args;
    for (unsigned i = 0, e = op->getNumOperands(); i < e; ++i)
      args += (i ? ", " : "") + operand(i);
    return mathName(base, type) + "(" + args + ")";
  };

  return llvm::TypeSwitch<Operation *, FailureOr<std::string>>(op)
      .Case([&](arith::ConstantOp constant) -> FailureOr<std::string> {
        if (auto f = dyn_cast<FloatAttr>(constant.getValue()))
          return floatLiteral(f.getValueAsDouble(), type.isF64());
        if (auto i = dyn_cast<IntegerAttr>(constant.getValue()))
          return intLiteral(i.getValue(), type);
        return failure();
      })
      .Case([&](arith::AddFOp add) {
        // One rounding, as FFMA and the host's fmaf both do.
        arith::MulFOp mul = getFusedMultiply(add);
        if (!mul)
          return binary("+");
        Value addend =
            add.getLhs() == mul.getResult() ? add.getRhs() : add.getLhs();
        return fmaExpr(type, get(mul.getLhs()), get(mul.getRhs()), get(addend));
      })
      .Case([&](arith::SubFOp) { return binary("-"); })
      .Case([&](arith::MulFOp) { return binary("*"); })
      .Case([&](arith::DivFOp) { return binary("/"); })
      .Case([&](arith::RemFOp) { return call("fmod"); })
      .Case([&](arith::NegFOp) { return "(-" + operand(0) + ")"; })
      .Case([&](arith::MaximumFOp) {
        return std::string(type.isF32() ? "ens_maximumf" : "ens_maximumd") +
               "(" + operand(0) + ", " + operand(1) + ")";
      })
      .Case([&](arith::MinimumFOp) {
        return std::string(type.isF32() ? "ens_minimumf" : "ens_minimumd") +
               "(" + operand(0) + ", " + operand(1) + ")";
      })
      .Case([&](arith::MaxNumFOp) { return call("fmax"); })
      .Case([&](arith::MinNumFOp) { return call("fmin"); })
      .Case([&](arith::AddIOp) { return wrapping("+"); })
      .Case([&](arith::SubIOp) { return wrapping("-"); })
      .Case([&](arith::MulIOp) { return wrapping("*"); })
      .Case([&](arith::DivSIOp) { return binary("/"); })
      .Case([&](arith::RemSIOp) { return binary("%"); })
      .Case([&](arith::AndIOp) { return "(" + t + ")" + binary("&"); })
      .Case([&](arith::OrIOp) { return "(" + t + ")" + binary("|"); })
      .Case([&](arith::XOrIOp) { return "(" + t + ")" + binary("^"); })
      .Case([&](arith::ShLIOp) { return wrapping("<<"); })
      .Case([&](arith::ShRUIOp) -> FailureOr<std::string> {
        std::string u = getUnsignedCType(type);
        return "(" + t + ")((" + u + ")" + operand(0) + " >> " + operand(1) +
               ")";
      })
      .Case([&](arith::ShRSIOp) { return "(" + t + ")" + binary(">>"); })
      .Case([&](arith::MaxSIOp) {
        return "(" + operand(0) + " > " + operand(1) + " ? " + operand(0) +
               " : " + operand(1) + ")";
      })
      .Case([&](arith::MinSIOp) {
        return "(" + operand(0) + " < " + operand(1) + " ? " + operand(0) +
               " : " + operand(1) + ")";
      })
      .Case([&](arith::CmpFOp cmp) {
        return cmpfExpr(cmp.getPredicate(), operand(0), operand(1));
      })
      .Case([&](arith::CmpIOp cmp) {
        return cmpiExpr(cmp.getPredicate(), operand(0), operand(1),
                        getUnsignedCType(cmp.getLhs().getType()));
      })
      .Case([&](arith::SelectOp) {
        return "(" + operand(0) + " ? " + operand(1) + " : " + operand(2) + ")";
      })
      .Case([&](arith::ExtUIOp ext) -> FailureOr<std::string> {
        Type from = ext.getIn().getType();
        if (from.isInteger(1))
          return "(" + t + ")" + operand(0);
        return "(" + t + ")(" + getUnsignedCType(from) + ")" + operand(0);
      })
      .Case([&](arith::ExtSIOp ext) -> FailureOr<std::string> {
        if (ext.getIn().getType().isInteger(1))
          return "(" + t + ")(" + operand(0) + " ? -1 : 0)";
        return "(" + t + ")" + operand(0);
      })
      .Case([&](arith::TruncIOp) -> FailureOr<std::string> {
        if (type.isInteger(1))
          return "(bool)(" + operand(0) + " & 1)";
        return "(" + t + ")(" + getUnsignedCType(type) + ")" + operand(0);
      })
      .Case([&](arith::IndexCastOp) { return "(" + t + ")" + operand(0); })
      .Case([&](arith::IndexCastUIOp cast) -> FailureOr<std::string> {
        return "(" + t + ")(" + getUnsignedCType(cast.getIn().getType()) + ")" +
               operand(0);
      })
      .Case([&](arith::SIToFPOp) { return "(" + t + ")" + operand(0); })
      .Case([&](arith::UIToFPOp cast) -> FailureOr<std::string> {
        if (cast.getIn().getType().isInteger(1))
          return "(" + t + ")" + operand(0);
        return "(" + t + ")(" + getUnsignedCType(cast.getIn().getType()) + ")" +
               operand(0);
      })
      .Case([&](arith::FPToSIOp) -> FailureOr<std::string> {
        if (type.isInteger(32))
          return "ens_fptosi32(" + operand(0) + ")";
        if (type.isInteger(64) || type.isIndex())
          return "ens_fptosi64(" + operand(0) + ")";
        return failure();
      })
      .Case([&](arith::ExtFOp) { return "(" + t + ")" + operand(0); })
      .Case([&](arith::TruncFOp) { return "(" + t + ")" + operand(0); })
      .Case([&](arith::BitcastOp cast) -> FailureOr<std::string> {
        Type from = cast.getIn().getType();
        if (from.isF32() && type.isInteger(32))
          return "__float_as_int(" + operand(0) + ")";
        if (from.isInteger(32) && type.isF32())
          return "__int_as_float(" + operand(0) + ")";
        if (from.isF64() && type.isInteger(64))
          return "__double_as_longlong(" + operand(0) + ")";
        if (from.isInteger(64) && type.isF64())
          return "__longlong_as_double(" + operand(0) + ")";
        return failure();
      })
      .Case([&](affine::AffineApplyOp apply) -> FailureOr<std::string> {
        AffineMap map = apply.getAffineMap();
        SmallVector<std::string> dims, symbols;
        for (unsigned i = 0, e = apply->getNumOperands(); i < e; ++i)
          (i < map.getNumDims() ? dims : symbols).push_back(operand(i));
        return affineExpr(map.getResult(0), dims, symbols);
      })
      .Case([&](math::ExpOp) { return call("exp"); })
      .Case([&](math::Exp2Op) { return call("exp2"); })
      .Case([&](math::ExpM1Op) { return call("expm1"); })
      .Case([&](math::LogOp) { return call("log"); })
      .Case([&](math::Log1pOp) { return call("log1p"); })
      .Case([&](math::Log2Op) { return call("log2"); })
      .Case([&](math::SqrtOp) { return call("sqrt"); })
      .Case([&](math::RsqrtOp) {
        return "(" + floatLiteral(1.0, type.isF64()) + " / " +
               mathName("sqrt", type) + "(" + operand(0) + "))";
      })
      .Case([&](math::TanhOp) { return call("tanh"); })
      .Case([&](math::SinOp) { return call("sin"); })
      .Case([&](math::CosOp) { return call("cos"); })
      .Case([&](math::TanOp) { return call("tan"); })
      .Case([&](math::AtanOp) { return call("atan"); })
      .Case([&](math::Atan2Op) { return call("atan2"); })
      .Case([&](math::ErfOp) { return call("erf"); })
      .Case([&](math::AbsFOp) { return call("fabs"); })
      .Case([&](math::PowFOp) { return call("pow"); })
      .Case([&](math::FloorOp) { return call("floor"); })
      .Case([&](math::CeilOp) { return call("ceil"); })
      .Case([&](math::TruncOp) { return call("trunc"); })
      .Case([&](math::RoundOp) { return call("round"); })
      .Case([&](math::RoundEvenOp) { return call("rint"); })
      .Case([&](math::CopySignOp) { return call("copysign"); })
      .Case([&](math::AbsIOp) {
        return "(" + operand(0) + " < 0 ? -" + operand(0) + " : " + operand(0) +
               ")";
      })
      .Default([](Operation *) { return failure(); });
}

llvm::Error cuda::BodyEmitter::declare(Operation *op, const std::string &expr,
                                       unsigned indent) {
  Value result = op->getResult(0);
  std::string name = "v" + std::to_string(counter++);
  os.indent(indent) << *getCType(result.getType()) << " " << name << " = "
                    << expr << ";\n";
  bind(result, name);
  return llvm::Error::success();
}

llvm::Error cuda::BodyEmitter::emit(Operation *op, unsigned indent) {
  auto unsupported = [&]() {
    return error("the CUDA backend cannot compile '" +
                 op->getName().getStringRef() + "' in a kernel yet");
  };
  if (auto load = dyn_cast<memref::LoadOp>(op)) {
    SmallVector<std::string> indices;
    for (Value index : load.getIndices())
      indices.push_back(get(index));
    if (!accesses.count(load.getMemRef()))
      return unsupported();
    return declare(op, element(load.getMemRef(), indices), indent);
  }
  if (auto store = dyn_cast<memref::StoreOp>(op)) {
    SmallVector<std::string> indices;
    for (Value index : store.getIndices())
      indices.push_back(get(index));
    if (!accesses.count(store.getMemRef()))
      return unsupported();
    os.indent(indent) << element(store.getMemRef(), indices) << " = "
                      << get(store.getValueToStore()) << ";\n";
    return llvm::Error::success();
  }
  if (auto loop = dyn_cast<scf::ForOp>(op)) {
    std::string iv = "i" + std::to_string(counter++);
    SmallVector<std::string> carried;
    for (auto [init, arg, result] : llvm::zip(
             loop.getInitArgs(), loop.getRegionIterArgs(), loop.getResults())) {
      FailureOr<std::string> type = getCType(arg.getType());
      if (failed(type))
        return unsupported();
      std::string name = "c" + std::to_string(counter++);
      os.indent(indent) << *type << " " << name << " = " << get(init) << ";\n";
      bind(arg, name);
      bind(result, name);
      carried.push_back(name);
    }
    os.indent(indent) << "for (long long " << iv << " = "
                      << get(loop.getLowerBound()) << "; " << iv << " < "
                      << get(loop.getUpperBound()) << "; " << iv
                      << " += " << get(loop.getStep()) << ") {\n";
    bind(loop.getInductionVar(), iv);
    if (llvm::Error failure = emitBlock(*loop.getBody(), indent + 2))
      return failure;
    auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
    // Through temporaries: a yielded value may be another carried one.
    for (auto [i, value] : llvm::enumerate(yield.getOperands()))
      os.indent(indent + 2)
          << "auto t" << carried[i] << " = " << get(value) << ";\n";
    for (const std::string &name : carried)
      os.indent(indent + 2) << name << " = t" << name << ";\n";
    os.indent(indent) << "}\n";
    return llvm::Error::success();
  }
  if (op->getNumRegions() || op->getNumResults() != 1)
    return unsupported();
  // Its add writes it.
  if (auto mul = dyn_cast<arith::MulFOp>(op); mul && isFusedIntoAdd(mul))
    return llvm::Error::success();
  FailureOr<std::string> expr = expression(op);
  if (failed(expr))
    return unsupported();
  return declare(op, *expr, indent);
}

FailureOr<std::string> cuda::affineExpr(AffineExpr expr,
                                        ArrayRef<std::string> dims,
                                        ArrayRef<std::string> symbols) {
  if (auto dim = dyn_cast<AffineDimExpr>(expr))
    return dims[dim.getPosition()];
  if (auto symbol = dyn_cast<AffineSymbolExpr>(expr))
    return symbols[symbol.getPosition()];
  if (auto constant = dyn_cast<AffineConstantExpr>(expr))
    return "(" + std::to_string(constant.getValue()) + "LL)";
  auto binary = dyn_cast<AffineBinaryOpExpr>(expr);
  if (!binary)
    return failure();
  FailureOr<std::string> lhs = affineExpr(binary.getLHS(), dims, symbols);
  FailureOr<std::string> rhs = affineExpr(binary.getRHS(), dims, symbols);
  if (failed(lhs) || failed(rhs))
    return failure();
  switch (expr.getKind()) {
  case AffineExprKind::Add:
    return "(" + *lhs + " + " + *rhs + ")";
  case AffineExprKind::Mul:
    return "(" + *lhs + " * " + *rhs + ")";
  case AffineExprKind::Mod:
    return "ens_mod(" + *lhs + ", " + *rhs + ")";
  case AffineExprKind::FloorDiv:
    return "ens_floordiv(" + *lhs + ", " + *rhs + ")";
  case AffineExprKind::CeilDiv:
    return "ens_ceildiv(" + *lhs + ", " + *rhs + ")";
  default:
    return failure();
  }
}

std::pair<std::string, std::string> cuda::getCombination(Operation *combiner) {
  Type type = combiner->getResult(0).getType();
  std::string t = *getCType(type);
  bool isDouble = type.isF64();
  std::string lambda = "[](" + t + " a, " + t + " b) { return ";
  if (isa<arith::AddFOp>(combiner))
    return {lambda + "a + b; }", floatLiteral(-0.0, isDouble)};
  if (isa<arith::MaximumFOp>(combiner))
    return {lambda + (isDouble ? "ens_maximumd" : "ens_maximumf") + "(a, b); }",
            floatLiteral(-INFINITY, isDouble)};
  // Integer addition wraps.
  std::string u = type.isInteger(64) ? "unsigned long long" : "unsigned";
  return {lambda + "(" + t + ")((" + u + ")a + (" + u + ")b); }",
          "(" + t + ")0"};
}
