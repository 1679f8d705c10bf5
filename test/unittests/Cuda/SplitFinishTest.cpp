//===- SplitFinishTest.cpp - Split contractions finished by a last chunk --===//
//
// A contraction split into chunks whose tiles the last chunk to arrive
// finishes (PhaseConfig::finishLast) counts the chunks in a buffer of
// zeros that it must leave zero: the emulator, like a device, sets
// constants once, so a second call of the same executable gives the
// interpreter's results only if every counter was reset.
//
//===----------------------------------------------------------------------===//

#include "TestSupport.h"

#include "ens/Backend/CpuBackend.h"
#include "ens/Backend/Cuda/Codegen.h"
#include "ens/Backend/Cuda/Emulator.h"
#include "ens/InitAllDialects.h"
#include "ens/Interpreter/Interpreter.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace mlir;
using namespace mlir::ens;

namespace {

/// relu(x @ w + b) for 2 members: 62 x 634 points in 16 x 159 tiles of 4x4,
/// the last row and column of tiles partly outside (clamped), too few for
/// the GPU, through 1024 steps (tiled-boundaries.mlir, @split_k, has the
/// planner's arithmetic for an even shape).
constexpr const char *kSplitSource = R"(
  func.func @member(%x: tensor<62x1024xf32>, %w: tensor<1024x634xf32>, %b: tensor<634xf32>) -> tensor<62x634xf32> {
    %a = ens.matmul %x, %w : tensor<62x1024xf32>, tensor<1024x634xf32> -> tensor<62x634xf32>
    %bb = ens.broadcast_in_dim %b {dims = array<i64: 1>} : tensor<634xf32> -> tensor<62x634xf32>
    %s = ens.add %a, %bb : tensor<62x634xf32>
    %y = ens.relu %s : tensor<62x634xf32>
    return %y : tensor<62x634xf32>
  }
  func.func @ensemble(%x: tensor<62x1024xf32>, %w: tensor<2x1024x634xf32>, %b: tensor<2x634xf32>) -> tensor<2x62x634xf32> {
    %y = ens.vmap @member(%x, %w, %b) {in_axes = array<i64: -1, 0, 0>, out_axes = array<i64: 0>, size = 2 : i64}
        : (tensor<62x1024xf32>, tensor<2x1024x634xf32>, tensor<2x634xf32>) -> tensor<2x62x634xf32>
    return %y : tensor<2x62x634xf32>
  })";

TEST(SplitFinishTest, SecondCallAgreesWithTheInterpreter) {
  DialectRegistry registry;
  registerAllDialects(registry);
  registerCpuBackendDialects(registry);
  MLIRContext context(registry);
  OwningOpRef<ModuleOp> module =
      parseSourceString<ModuleOp>(kSplitSource, &context);
  ASSERT_TRUE(module);
  cuda::CodegenOptions options;
  options.strategy = cuda::Strategy::Tiled;
  llvm::Expected<cuda::CudaProgram> program =
      cuda::generateCuda(*module, "ensemble", 0, options);
  ASSERT_TRUE(bool(program)) << llvm::toString(program.takeError());
  // One kernel, with a counter for each of the members' 2 x 2544 tiles.
  EXPECT_EQ(program->plan.launches.size(), 1u)
      << cuda::printPlan(program->plan);
  bool counters = false;
  for (const cuda::BufferInfo &buffer : program->plan.buffers)
    counters |= buffer.kind == cuda::BufferKind::Constant &&
                buffer.dtype == DType::I32 &&
                buffer.shape == std::vector<int64_t>{2 * 16 * 159};
  EXPECT_TRUE(counters) << cuda::printPlan(program->plan);

  test::RandomSource random(11);
  std::vector<HostTensor> args;
  for (const test::Shape &shape :
       {test::Shape{62, 1024}, test::Shape{2, 1024, 634},
        test::Shape{2, 634}}) {
    HostTensor arg(DType::F32, shape);
    for (double &value : arg.values)
      value = static_cast<float>(random.real(-1, 1));
    args.push_back(std::move(arg));
  }
  llvm::Expected<std::vector<HostTensor>> expected = Interpreter(*module).run(
      module->lookupSymbol<func::FuncOp>("ensemble"), args);
  ASSERT_TRUE(bool(expected)) << llvm::toString(expected.takeError());
  llvm::Expected<std::unique_ptr<cuda::EmulatedExecutable>> executable =
      cuda::EmulatedExecutable::compile(std::move(*program));
  ASSERT_TRUE(bool(executable)) << llvm::toString(executable.takeError());
  for (int call = 0; call < 2; ++call) {
    llvm::Expected<std::vector<HostTensor>> actual = (*executable)->run(args);
    ASSERT_TRUE(bool(actual)) << llvm::toString(actual.takeError());
    // f32 sums of 1024 products of U(-1, 1) (about 18 in size) against the
    // interpreter's double: a few 1e-6 apart, as @split_k's are.
    int64_t wrong = 0;
    for (size_t i = 0; i < (*expected)[0].values.size(); ++i)
      wrong += !(std::fabs((*actual)[0].values[i] - (*expected)[0].values[i]) <=
                 1e-4);
    EXPECT_EQ(wrong, 0) << "call " << call;
  }
}

} // namespace
