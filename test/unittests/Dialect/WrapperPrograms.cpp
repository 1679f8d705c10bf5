//===- WrapperPrograms.cpp - Functions the checker adds to a sample -------===//

#include "WrapperPrograms.h"

#include "TestSupport.h"
#include "ens/Dialect/Ens/Interfaces/BatchingOpInterface.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Sequence.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::ens;
using namespace mlir::ens::test;

namespace {

/// The members of every vmap the checker generates.
constexpr int64_t kMembers = 3;

std::string typeString(Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  type.print(os);
  return text;
}

std::string typeList(TypeRange types) {
  return llvm::join(llvm::map_range(types, typeString), ", ");
}

/// "%a0, %a1, ..." for `count` arguments.
std::string argList(size_t count) {
  std::string text;
  for (size_t i = 0; i < count; ++i)
    text += (i ? ", %a" : "%a") + std::to_string(i);
  return text;
}

/// "%a0: tensor<...>, %a1: ..." for arguments of `types`.
std::string paramList(TypeRange types) {
  std::string text;
  for (auto [i, type] : llvm::enumerate(types))
    text += (i ? ", %a" : "%a") + std::to_string(i) + ": " + typeString(type);
  return text;
}

/// "%r" for one result, "%r#k" of several.
std::string resultName(size_t index, size_t count) {
  return count == 1 ? "%r" : "%r#" + std::to_string(index);
}

/// "%r = " or "%r:3 = ".
std::string resultsDef(size_t count) {
  return count == 1 ? "%r = " : "%r:" + std::to_string(count) + " = ";
}

/// "%r" or "%r#0, %r#1, ...".
std::string resultUses(size_t count) {
  std::string text;
  for (size_t i = 0; i < count; ++i)
    text += (i ? ", " : "") + resultName(i, count);
  return text;
}

/// `type` with a member dimension of kMembers at `axis` (none for -1).
Type withMemberDim(Type type, int64_t axis) {
  if (axis == kUnbatched)
    return type;
  auto tensorType = cast<RankedTensorType>(type);
  SmallVector<int64_t> shape(tensorType.getShape());
  shape.insert(shape.begin() + axis, kMembers);
  return RankedTensorType::get(shape, tensorType.getElementType());
}

} // namespace

bool test::isFloatTensor(Type type) {
  return isa<FloatType>(cast<RankedTensorType>(type).getElementType());
}

std::string test::buildVmapMain(FunctionType type, ArrayRef<int64_t> inAxes) {
  SmallVector<Type> argTypes, resultTypes;
  for (auto [argType, axis] : llvm::zip_equal(type.getInputs(), inAxes))
    argTypes.push_back(withMemberDim(argType, axis));
  for (Type resultType : type.getResults())
    resultTypes.push_back(withMemberDim(resultType, 0));
  size_t numResults = resultTypes.size();
  return "func.func @main(" + paramList(argTypes) + ") -> (" +
         typeList(resultTypes) + ") {\n  " + resultsDef(numResults) +
         "ens.vmap @f(" + argList(argTypes.size()) +
         ") {in_axes = " + i64Array(inAxes) +
         ", out_axes = " + i64Array(SmallVector<int64_t>(numResults, 0)) +
         ", size = " + std::to_string(kMembers) + " : i64} : (" +
         typeList(argTypes) + ") -> (" + typeList(resultTypes) +
         ")\n  return " + resultUses(numResults) + " : " +
         typeList(resultTypes) + "\n}\n";
}

std::string test::buildLossAndGrad(FunctionType type, ArrayRef<int64_t> wrt) {
  size_t numArgs = type.getNumInputs(), numResults = type.getNumResults();
  // @loss's arguments: @f's, then the weights.
  SmallVector<Type> lossInputs(type.getInputs());
  SmallVector<size_t> weighted;
  for (auto [i, resultType] : llvm::enumerate(type.getResults()))
    if (isFloatTensor(resultType)) {
      lossInputs.push_back(resultType);
      weighted.push_back(i);
    }

  std::string text = "func.func @loss(" + paramList(lossInputs) +
                     ") -> tensor<f64> {\n  " + resultsDef(numResults) +
                     "func.call @f(" + argList(numArgs) + ") : (" +
                     typeList(type.getInputs()) + ") -> (" +
                     typeList(type.getResults()) + ")\n";
  std::string total;
  for (auto [k, index] : llvm::enumerate(weighted)) {
    auto resultType = cast<RankedTensorType>(type.getResult(index));
    std::string n = std::to_string(k), weight = std::to_string(numArgs + k);
    std::string tensor = typeString(resultType);
    std::string scalar =
        "tensor<" + typeString(resultType.getElementType()) + ">";
    text += "  %p" + n + " = ens.mul " + resultName(index, numResults) +
            ", %a" + weight + " : " + tensor + "\n";
    std::string value = "%p" + n;
    if (resultType.getRank() != 0) {
      auto dims = llvm::to_vector(llvm::seq<int64_t>(0, resultType.getRank()));
      text += "  %s" + n + " = ens.reduce_sum " + value +
              " {dims = " + i64Array(dims) + "} : " + tensor + " -> " + scalar +
              "\n";
      value = "%s" + n;
    }
    if (!resultType.getElementType().isF64()) {
      text += "  %c" + n + " = ens.convert " + value + " : " + scalar +
              " -> tensor<f64>\n";
      value = "%c" + n;
    }
    if (!total.empty()) {
      text += "  %t" + n + " = ens.add " + total + ", " + value +
              " : tensor<f64>\n";
      value = "%t" + n;
    }
    total = value;
  }
  text += "  return " + total + " : tensor<f64>\n}\n";

  SmallVector<Type> gradTypes;
  for (int64_t index : wrt)
    gradTypes.push_back(type.getInput(index));
  std::string results = "tensor<f64>, " + typeList(gradTypes);
  return text + "func.func @grad(" + paramList(lossInputs) + ") -> (" +
         results + ") {\n  " + resultsDef(wrt.size() + 1) +
         "ens.value_and_grad @loss(" + argList(lossInputs.size()) +
         ") {wrt = " + i64Array(wrt) + "} : (" + typeList(lossInputs) +
         ") -> (" + results + ")\n  return " + resultUses(wrt.size() + 1) +
         " : " + results + "\n}\n";
}
