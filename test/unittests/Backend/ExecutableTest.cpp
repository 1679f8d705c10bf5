//===- ExecutableTest.cpp - Tests of the one executable interface ---------===//
//
// Every target compiles one small program through compileExecutable: its
// signature is the function's, it computes hand-computed values on host
// tensors and in place on caller memory, and every kind of wrong argument is
// an error that says what is wrong.
//
//===----------------------------------------------------------------------===//

#include "ens/Backend/Executable.h"
#include "ens/Backend/CpuBackend.h"
#include "ens/InitAllDialects.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include "ScaleProgram.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace mlir::ens;

namespace {

/// `error`'s message, which must exist.
std::string messageOf(llvm::Error error) {
  EXPECT_TRUE(bool(error)) << "expected an error";
  return llvm::toString(std::move(error));
}

/// Registers in `context` the dialects of every target.
void addDialects(MLIRContext &context) {
  DialectRegistry registry;
  registerAllDialects(registry);
  registerCpuBackendDialects(registry);
  context.appendDialectRegistry(registry);
}

class ExecutableTest : public ::testing::TestWithParam<Target> {
protected:
  void SetUp() override {
    addDialects(context);
    module = parseSourceString<ModuleOp>(test::kScaleProgram, &context);
    ASSERT_TRUE(module);
    llvm::Expected<std::unique_ptr<Executable>> compiled =
        compileExecutable(*module, "scale", GetParam());
    if (!compiled) {
      std::string message = llvm::toString(compiled.takeError());
      if (GetParam() == Target::Cuda &&
          message.find("no CUDA device") != std::string::npos)
        GTEST_SKIP() << message;
      FAIL() << message;
    }
    executable = std::move(*compiled);
  }

  std::vector<HostTensor> arguments() const {
    return {HostTensor(DType::F32, {2, 3}, test::kScaleX),
            HostTensor(DType::F32, {3}, test::kScaleW)};
  }

  MLIRContext context;
  OwningOpRef<ModuleOp> module;
  std::unique_ptr<Executable> executable;
};

TEST_P(ExecutableTest, HasTheSignatureOfTheFunction) {
  EXPECT_EQ(executable->getTarget(), GetParam());
  auto entry = module->lookupSymbol<func::FuncOp>("scale");
  EXPECT_EQ(executable->getType(), entry.getFunctionType());
  EXPECT_GE(executable->getNumThreads(), 1u);
}

TEST_P(ExecutableTest, RunsOnHostTensors) {
  llvm::Expected<std::vector<HostTensor>> results =
      executable->run(arguments());
  ASSERT_TRUE(bool(results)) << llvm::toString(results.takeError());
  ASSERT_EQ(results->size(), 2u);
  EXPECT_EQ((*results)[0].getTypeString(), "tensor<2x3xf32>");
  EXPECT_EQ((*results)[0].values, test::kScaleY);
  EXPECT_EQ((*results)[1].getTypeString(), "tensor<2xf32>");
  EXPECT_EQ((*results)[1].values, test::kScaleS);
}

TEST_P(ExecutableTest, RunsOnCallerMemory) {
  std::vector<float> x(test::kScaleX.begin(), test::kScaleX.end()),
      w(test::kScaleW.begin(), test::kScaleW.end());
  std::vector<float> y(6, 7.f), s(2, 7.f);
  int64_t xShape[] = {2, 3}, wShape[] = {3}, yShape[] = {2, 3}, sShape[] = {2};
  BufferRef args[] = {{x.data(), DType::F32, xShape},
                      {w.data(), DType::F32, wShape}};
  BufferRef results[] = {{y.data(), DType::F32, yShape},
                         {s.data(), DType::F32, sShape}};
  ASSERT_FALSE(executable->run(args, results));
  EXPECT_EQ(std::vector<double>(y.begin(), y.end()), test::kScaleY);
  EXPECT_EQ(std::vector<double>(s.begin(), s.end()), test::kScaleS);
}

TEST_P(ExecutableTest, RejectsWrongHostArguments) {
  std::vector<HostTensor> args = arguments();
  llvm::Expected<std::vector<HostTensor>> tooFew =
      executable->run(ArrayRef(args).take_front());
  EXPECT_EQ(messageOf(tooFew.takeError()), "expected 2 argument(s), got 1");

  args[0] = HostTensor(DType::F32, {3, 2}, test::kScaleX);
  llvm::Expected<std::vector<HostTensor>> badShape = executable->run(args);
  EXPECT_EQ(messageOf(badShape.takeError()),
            "argument 0: expected tensor<2x3xf32>, got tensor<3x2xf32>");

  args = arguments();
  args[1] = HostTensor(DType::F64, {3}, test::kScaleW);
  llvm::Expected<std::vector<HostTensor>> badDType = executable->run(args);
  EXPECT_EQ(messageOf(badDType.takeError()),
            "argument 1: expected tensor<3xf32>, got tensor<3xf64>");
}

TEST_P(ExecutableTest, RejectsWrongBuffers) {
  std::vector<float> x(6), w(3), y(6), s(2);
  std::vector<double> w64(3);
  int64_t xShape[] = {2, 3}, wShape[] = {3}, yShape[] = {2, 3}, sShape[] = {2};
  int64_t flat[] = {6};
  BufferRef goodX{x.data(), DType::F32, xShape};
  BufferRef goodW{w.data(), DType::F32, wShape};
  BufferRef goodY{y.data(), DType::F32, yShape};
  BufferRef goodS{s.data(), DType::F32, sShape};

  EXPECT_EQ(messageOf(executable->run({goodX}, {goodY, goodS})),
            "expected 2 arguments, got 1");
  EXPECT_EQ(messageOf(executable->run({goodX, goodW}, {goodY})),
            "expected 2 results, got 1");
  EXPECT_EQ(messageOf(executable->run({{x.data(), DType::F32, flat}, goodW},
                                      {goodY, goodS})),
            "arguments 0: expected tensor<2x3xf32>, got tensor<6xf32>");
  EXPECT_EQ(messageOf(executable->run({goodX, {w64.data(), DType::F64, wShape}},
                                      {goodY, goodS})),
            "arguments 1: expected tensor<3xf32>, got tensor<3xf64>");
  EXPECT_EQ(messageOf(executable->run({goodX, {nullptr, DType::F32, wShape}},
                                      {goodY, goodS})),
            "arguments 1 has no data");
  EXPECT_EQ(messageOf(executable->run({goodX, goodW},
                                      {{x.data(), DType::F32, yShape}, goodS})),
            "result 0 overlaps argument 0: results must be memory of their "
            "own");
  EXPECT_EQ(messageOf(executable->run(
                {goodX, goodW}, {goodY, {y.data() + 4, DType::F32, sShape}})),
            "result 1 overlaps result 0: results must be memory of their own");
}

INSTANTIATE_TEST_SUITE_P(Targets, ExecutableTest,
                         ::testing::Values(Target::Interpreter, Target::Cpu,
                                           Target::CudaEmu, Target::Cuda),
                         [](const ::testing::TestParamInfo<Target> &info) {
                           switch (info.param) {
                           case Target::Interpreter:
                             return "Interpreter";
                           case Target::Cpu:
                             return "Cpu";
                           case Target::CudaEmu:
                             return "CudaEmu";
                           case Target::Cuda:
                             return "Cuda";
                           }
                           return "Unknown";
                         });

/// A module with one function, @f, that returns its argument.
OwningOpRef<ModuleOp> parseIdentity(MLIRContext &context) {
  addDialects(context);
  return parseSourceString<ModuleOp>(
      "func.func @f(%x: tensor<2xf32>) -> tensor<2xf32> {\n"
      "  return %x : tensor<2xf32>\n}\n",
      &context);
}

TEST(TargetTest, NamesRoundTrip) {
  for (auto [target, name] :
       {std::pair(Target::Interpreter, "interp"), std::pair(Target::Cpu, "cpu"),
        std::pair(Target::CudaEmu, "cuda-emu"),
        std::pair(Target::Cuda, "cuda")}) {
    EXPECT_EQ(getTargetName(target), name);
    llvm::Expected<Target> parsed = parseTarget(name);
    ASSERT_TRUE(bool(parsed)) << llvm::toString(parsed.takeError());
    EXPECT_EQ(*parsed, target);
  }
}

TEST(TargetTest, UnknownTargetIsAnError) {
  llvm::Expected<Target> parsed = parseTarget("tpu");
  EXPECT_EQ(messageOf(parsed.takeError()),
            "unknown target 'tpu' (expected interp, cpu, cuda-emu or cuda)");

  MLIRContext context;
  OwningOpRef<ModuleOp> module = parseIdentity(context);
  ASSERT_TRUE(module);
  llvm::Expected<std::unique_ptr<Executable>> compiled =
      compileExecutable(*module, "f", static_cast<Target>(42));
  EXPECT_EQ(messageOf(compiled.takeError()), "unknown target 42");
}

TEST(TargetTest, UnknownFunctionIsAnError) {
  MLIRContext context;
  OwningOpRef<ModuleOp> module = parseIdentity(context);
  ASSERT_TRUE(module);
  for (Target target : {Target::Interpreter, Target::Cpu, Target::CudaEmu}) {
    llvm::Expected<std::unique_ptr<Executable>> compiled =
        compileExecutable(*module, "g", target);
    EXPECT_EQ(messageOf(compiled.takeError()), "no function named 'g'")
        << getTargetName(target).str();
  }
}

TEST(TargetTest, CudaStrategyIsChosenByName) {
  MLIRContext context;
  OwningOpRef<ModuleOp> module = parseIdentity(context);
  ASSERT_TRUE(module);
  llvm::Expected<cuda::CodegenOptions> unknown =
      cuda::parseCodegenOptions("member-per-warp", "", "");
  EXPECT_EQ(messageOf(unknown.takeError()),
            "unknown CUDA strategy 'member-per-warp' (known: auto, "
            "member-per-block, tiled, members-per-block)");
  llvm::Expected<cuda::CodegenOptions> flagged =
      cuda::parseCodegenOptions("auto", "cutlass", "", /*nameFlags=*/true);
  EXPECT_EQ(messageOf(flagged.takeError()),
            "unknown CUDA GEMM choice 'cutlass' for --cuda-gemm (known: auto, "
            "generated, cublas)");
  ExecutableOptions options;
  llvm::Expected<cuda::CodegenOptions> named =
      cuda::parseCodegenOptions("member-per-block", "", "tf32");
  ASSERT_TRUE(static_cast<bool>(named)) << messageOf(named.takeError());
  EXPECT_EQ(named->strategy,
            cuda::StrategyChoice(cuda::Strategy::MemberPerBlock));
  EXPECT_EQ(named->precision, cuda::Precision::Tf32);
  options.cuda.codegen.strategy = cuda::Strategy::MemberPerBlock;
  llvm::Expected<std::unique_ptr<Executable>> known =
      compileExecutable(*module, "f", Target::CudaEmu, options);
  EXPECT_TRUE(static_cast<bool>(known)) << messageOf(known.takeError());
}

} // namespace
