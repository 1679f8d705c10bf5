//===- TensorTypesTest.cpp - Tests of the element type mapping ------------===//

#include "ens/Support/TensorTypes.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/MLIRContext.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace mlir::ens;

namespace {

/// How MLIR spells the element type of `type`.
std::string spell(Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  type.print(os);
  return text;
}

TEST(TensorTypesTest, EveryDTypeRoundTrips) {
  MLIRContext context;
  for (auto [dtype, name] :
       {std::pair(DType::F16, "f16"), std::pair(DType::BF16, "bf16"),
        std::pair(DType::F32, "f32"), std::pair(DType::F64, "f64"),
        std::pair(DType::I32, "i32"), std::pair(DType::I1, "i1")}) {
    Type type = getElementType(&context, dtype);
    EXPECT_EQ(spell(type), name);
    EXPECT_EQ(getDType(type), dtype) << name;
  }
}

TEST(TensorTypesTest, RejectsTypesEnsDoesNotHave) {
  MLIRContext context;
  Builder b(&context);
  Type unsupported[] = {b.getI64Type(),
                        b.getIntegerType(32, /*isSigned=*/true),
                        b.getIntegerType(32, /*isSigned=*/false),
                        b.getIndexType(),
                        b.getFloat8E4M3FNType(),
                        b.getTF32Type(),
                        RankedTensorType::get({2}, b.getF32Type())};
  for (Type type : unsupported)
    EXPECT_EQ(getDType(type), std::nullopt) << spell(type);
}

TEST(TensorTypesTest, ChecksTensorTypes) {
  MLIRContext context;
  Builder b(&context);
  EXPECT_FALSE(checkTensorType(RankedTensorType::get({2, 0}, b.getF16Type())));
  EXPECT_EQ(llvm::toString(
                checkTensorType(RankedTensorType::get({2}, b.getI64Type()))),
            "tensor<2xi64> is not a statically shaped tensor of f16, bf16, "
            "f32, f64, i32 or i1");
  EXPECT_EQ(llvm::toString(checkTensorType(
                RankedTensorType::get({ShapedType::kDynamic}, b.getF32Type()))),
            "tensor<?xf32> is not a statically shaped tensor of f16, bf16, "
            "f32, f64, i32 or i1");
  EXPECT_EQ(llvm::toString(checkTensorType(
                RankedTensorType::get({1 << 20, 1 << 9}, b.getF32Type()))),
            "tensor<1048576x512xf32> is too large for the interpreter, which "
            "holds at most 268435456 elements per tensor");
}

TEST(TensorTypesTest, ChecksArguments) {
  MLIRContext context;
  Builder b(&context);
  FunctionType type =
      b.getFunctionType({RankedTensorType::get({2}, b.getF32Type()),
                         RankedTensorType::get({}, b.getI1Type())},
                        {});
  EXPECT_FALSE(checkArguments(
      type, {HostTensor(DType::F32, {2}), HostTensor(DType::I1, {})}));
  EXPECT_EQ(llvm::toString(checkArguments(type, {})),
            "expected 2 argument(s), got 0");
  EXPECT_EQ(llvm::toString(checkArguments(type, {HostTensor(DType::F32, {2}),
                                                 HostTensor(DType::I32, {})})),
            "argument 1: expected tensor<i1>, got tensor<i32>");
}

} // namespace
