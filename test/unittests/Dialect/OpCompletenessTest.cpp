//===- OpCompletenessTest.cpp - Every ens op comes with every piece -------===//
//
// One test per op that the ens dialect registers, taken from the context
// rather than from a list kept by hand: each op must have a sample and
// every piece the checker looks for (OpCompleteness.h), and the samples of
// all of them, built into one program, must run on cuda-emu as on the
// interpreter. The checker's own tests give it an op of a test dialect that
// lacks every piece, and check that it reports exactly those.
//
//===----------------------------------------------------------------------===//

#include "OpCompleteness.h"

#include "ens/Backend/CpuBackend.h"
#include "ens/InitAllDialects.h"

#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Support/TypeID.h"

#include "gtest/gtest.h"

#include <set>

using namespace mlir;
using namespace mlir::ens;
using namespace mlir::ens::test;

namespace {

/// An op that nothing in ens knows: no rules are attached to it, and no
/// kernel, lowering or backend handles it.
class NoRulesOp
    : public Op<NoRulesOp, mlir::OpTrait::OneResult, mlir::OpTrait::OneOperand,
                mlir::OpTrait::ZeroSuccessors> {
public:
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(NoRulesOp)
  using Op::Op;
  static StringRef getOperationName() { return "ens_test.no_rules"; }
  static ArrayRef<StringRef> getAttributeNames() { return {}; }
};

/// A dialect for the checker's tests, which the ens tools never load.
class TestDialect : public Dialect {
public:
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestDialect)
  explicit TestDialect(MLIRContext *context)
      : Dialect(getDialectNamespace(), context, TypeID::get<TestDialect>()) {
    addOperations<NoRulesOp>();
  }
  static StringRef getDialectNamespace() { return "ens_test"; }
};

DialectRegistry makeRegistry() {
  DialectRegistry registry;
  registerAllDialects(registry);
  registerCpuBackendDialects(registry);
  registry.insert<TestDialect>();
  return registry;
}

class OpCompletenessTest : public ::testing::Test {
protected:
  OpCompletenessTest()
      : context(makeRegistry(), MLIRContext::Threading::DISABLED) {
    context.loadDialect<EnsDialect, TestDialect>();
  }

  MLIRContext context;
};

/// The names of the ops the ens dialect registers.
std::vector<std::string> getEnsOpNames() {
  MLIRContext context(makeRegistry(), MLIRContext::Threading::DISABLED);
  context.loadDialect<EnsDialect>();
  std::vector<std::string> names;
  for (RegisteredOperationName name : context.getRegisteredOperations())
    if (name.getDialectNamespace() == EnsDialect::getDialectNamespace())
      names.push_back(name.getStringRef().str());
  return names;
}

class EnsOpTest : public OpCompletenessTest,
                  public ::testing::WithParamInterface<std::string> {};

TEST_P(EnsOpTest, HasEveryPiece) {
  const std::string &opName = GetParam();
  const OpSample *sample = findOpSample(opName);
  ASSERT_TRUE(sample) << "'" << opName
                      << "' has no completeness sample: add one to "
                         "test/unittests/Dialect/OpSamples.cpp (see "
                         "docs/adding-an-op.md)";
  for (const MissingPiece &missing :
       findMissingPieces(context, OperationName(opName, &context), *sample))
    ADD_FAILURE() << missing.message;
}

INSTANTIATE_TEST_SUITE_P(RegisteredOps, EnsOpTest,
                         ::testing::ValuesIn(getEnsOpNames()),
                         [](const ::testing::TestParamInfo<std::string> &info) {
                           // "ens.reduce_sum" -> "reduce_sum".
                           return info.param.substr(info.param.find('.') + 1);
                         });

TEST_F(OpCompletenessTest, EveryOpRunsOnCudaEmuAsOnTheInterpreter) {
  std::vector<const OpSample *> samples;
  for (const std::string &opName : getEnsOpNames())
    if (const OpSample *sample = findOpSample(opName))
      samples.push_back(sample);
  llvm::Expected<std::vector<MissingPiece>> mismatches =
      findCudaEmuMismatches(context, samples);
  if (!mismatches)
    FAIL() << llvm::toString(mismatches.takeError());
  for (const MissingPiece &mismatch : *mismatches)
    ADD_FAILURE() << mismatch.message;
}

/// The parameterized test would pass vacuously if it found no ops.
TEST_F(OpCompletenessTest, FindsOpsOfEveryFamily) {
  std::vector<std::string> names = getEnsOpNames();
  for (const char *opName : {"ens.add", "ens.einsum", "ens.random_split",
                             "ens.vmap", "ens.value_and_grad"})
    EXPECT_TRUE(llvm::is_contained(names, opName)) << opName;
}

TEST_F(OpCompletenessTest, EverySampleNamesAnEnsOp) {
  std::set<std::string> seen;
  for (const OpSample &sample : getOpSamples()) {
    std::optional<RegisteredOperationName> name =
        RegisteredOperationName::lookup(sample.opName, &context);
    EXPECT_TRUE(name && name->getDialectNamespace() == "ens")
        << "the sample of '" << sample.opName << "' names no registered ens op";
    EXPECT_TRUE(seen.insert(sample.opName).second)
        << "two samples of '" << sample.opName << "'";
  }
}

//===----------------------------------------------------------------------===//
// The checker
//===----------------------------------------------------------------------===//

TEST_F(OpCompletenessTest, ReportsAnOpWithoutASample) {
  EXPECT_EQ(findOpsWithoutSamples(context, "ens_test"),
            std::vector<std::string>{"ens_test.no_rules"});
  EXPECT_TRUE(findOpsWithoutSamples(context, "ens").empty());
}

TEST_F(OpCompletenessTest, ReportsEveryPieceOfAnOpWithoutRules) {
  OpSample sample{"ens_test.no_rules", R"mlir(
func.func @f(%a: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %r = "ens_test.no_rules"(%a) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}
)mlir"};
  std::vector<MissingPiece> missing = findMissingPieces(
      context, OperationName(sample.opName, &context), sample);
  std::multiset<Piece> pieces;
  for (const MissingPiece &piece : missing) {
    pieces.insert(piece.piece);
    EXPECT_EQ(piece.message.rfind("'ens_test.no_rules': " +
                                      getPieceName(piece.piece).str() + ": ",
                                  0),
              0u)
        << piece.message;
  }
  std::multiset<Piece> expected = {
      Piece::BatchingRule,   Piece::VjpRule, Piece::InterpreterKernel,
      Piece::LinalgLowering, Piece::Cuda,    Piece::Cpu};
  EXPECT_EQ(pieces, expected);
}

TEST_F(OpCompletenessTest, ReportsASampleThatDoesNotUseTheOp) {
  OpSample sample{"ens.add", R"mlir(
func.func @f(%a: tensor<3xf32>) -> tensor<3xf32> {
  %r = ens.neg %a : tensor<3xf32>
  return %r : tensor<3xf32>
}
)mlir"};
  std::vector<MissingPiece> missing = findMissingPieces(
      context, OperationName(sample.opName, &context), sample);
  ASSERT_EQ(missing.size(), 1u);
  EXPECT_EQ(missing[0].piece, Piece::Sample);
  EXPECT_NE(missing[0].message.find("'ens.add'"), std::string::npos)
      << missing[0].message;
}

} // namespace
