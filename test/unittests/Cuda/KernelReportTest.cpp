//===- KernelReportTest.cpp - The CUDA kernel report ----------------------===//
//
// The report's kernel count and traffic for the 128-member training step
// against the targets, with the minimum traffic and the contraction FLOPs
// computed here from the function's signature and the model's shapes; and
// the byte accounting of a small function counted by hand.
//
//===----------------------------------------------------------------------===//

#include "ens/Backend/Cuda/KernelReport.h"
#include "ens/Backend/CpuBackend.h"
#include "ens/Backend/Cuda/Codegen.h"
#include "ens/Backend/Cuda/Nvrtc.h"
#include "ens/InitAllDialects.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

using namespace mlir;
using namespace mlir::ens;

namespace {

class KernelReportTest : public ::testing::Test {
protected:
  KernelReportTest() : context(makeRegistry()) {}

  static DialectRegistry makeRegistry() {
    DialectRegistry registry;
    registerAllDialects(registry);
    registerCpuBackendDialects(registry);
    return registry;
  }

  /// The JSON kernel report of `entry` in `module`.
  nlohmann::json report(ModuleOp module, StringRef entry) {
    llvm::Expected<cuda::CudaProgram> program =
        cuda::generateCuda(module, entry);
    if (!program) {
      ADD_FAILURE() << llvm::toString(program.takeError());
      return {};
    }
    std::optional<cuda::CompiledCuda> compiled;
    if (cuda::isNvrtcAvailable()) {
      llvm::Expected<cuda::CompiledCuda> sm90 =
          cuda::compileWithNvrtc(program->source, "report.cu", "sm_90");
      if (!sm90) {
        ADD_FAILURE() << llvm::toString(sm90.takeError());
        return {};
      }
      compiled = std::move(*sm90);
    }
    return nlohmann::json::parse(cuda::formatKernelReportJson(
        *program, compiled ? &*compiled : nullptr));
  }

  MLIRContext context;
};

/// Bytes of a tensor type.
int64_t getBytes(Type type) {
  auto tensor = cast<RankedTensorType>(type);
  return tensor.getNumElements() *
         tensor.getElementType().getIntOrFloatBitWidth() / 8;
}

TEST_F(KernelReportTest, TrainingStepMeetsKernelAndTrafficTargets) {
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(
      ENS_SOURCE_DIR "/examples/ensemble_train_step.mlir", &context);
  ASSERT_TRUE(module);
  nlohmann::json json = report(*module, "train_step");
  ASSERT_FALSE(json.is_null());

  // Every parameter, optimizer-state element and input read once, every
  // result written once.
  auto step = module->lookupSymbol<func::FuncOp>("train_step");
  int64_t minimum = 0;
  for (Type type : step.getFunctionType().getInputs())
    minimum += getBytes(type);
  for (Type type : step.getFunctionType().getResults())
    minimum += getBytes(type);
  int64_t traffic =
      json["bytes_read"].get<int64_t>() + json["bytes_written"].get<int64_t>();
  EXPECT_LE(json["kernels"].get<int>(), 8);
  EXPECT_LE(traffic, minimum * 3 / 2);
  EXPECT_EQ(json["min_bytes"].get<int64_t>(), minimum);

  // Peak device memory against the parameters (the first four arguments),
  // their gradients, the optimizer state and other inputs (the remaining
  // arguments), and the activations the backward pass needs: the hidden
  // layer, 128 x 256 x 32 floats.
  int64_t inputs = 0, parameters = 0;
  for (auto [i, type] : llvm::enumerate(step.getFunctionType().getInputs())) {
    inputs += getBytes(type);
    if (i < 4)
      parameters += getBytes(type);
  }
  int64_t activations = 128LL * 256 * 32 * 4;
  EXPECT_LE(json["peak_device_bytes"].get<int64_t>(),
            (inputs + parameters + activations) * 5 / 4);

  // The contractions alone: x.W1 and h.W2 forward; dy.W2^T, h^T.dy and
  // x^T.dh backward, two FLOPs per multiply-add, for 128 members of batch
  // 256 (64 -> 32 -> 8). The rest is elementwise work on far fewer elements.
  int64_t contractions =
      128LL * 2 * 256 * (64 * 32 + 32 * 8 + 32 * 8 + 32 * 8 + 64 * 32);
  EXPECT_GE(json["flops"].get<int64_t>(), contractions);
  EXPECT_LE(json["flops"].get<int64_t>(), contractions * 6 / 5);

  // One block per member, and what a block keeps in shared memory fits the
  // 163 KiB that sm_80 lets a kernel use.
  bool memberKernel = false;
  for (const nlohmann::json &launch : json["launches"]) {
    EXPECT_LE(launch["shared_bytes"].get<int64_t>(), 163 * 1024);
    if (launch["grid"][0].get<int>() == 128 &&
        launch["shared_bytes"].get<int64_t>() > 0)
      memberKernel = true;
    if (cuda::isNvrtcAvailable()) {
      EXPECT_GT(launch["registers"].get<int>(), 0);
      EXPECT_EQ(launch["spill_bytes"].get<int>(), 0);
      EXPECT_GE(launch["blocks_per_sm"].get<int>(), 1);
    }
  }
  EXPECT_TRUE(memberKernel);
}

TEST_F(KernelReportTest, CountsEachBufferOnceAndEachFlop) {
  // One fused elementwise kernel: reads a and b once, writes the result
  // once; two FLOPs per element.
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(R"(
    func.func @f(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> {
      %p = ens.mul %a, %b : tensor<4x8xf32>
      %s = ens.add %p, %a : tensor<4x8xf32>
      return %s : tensor<4x8xf32>
    })",
                                                             &context);
  ASSERT_TRUE(module);
  nlohmann::json json = report(*module, "f");
  ASSERT_FALSE(json.is_null());
  EXPECT_EQ(json["kernels"].get<int>(), 1);
  EXPECT_EQ(json["bytes_read"].get<int64_t>(), 2 * 32 * 4);
  EXPECT_EQ(json["bytes_written"].get<int64_t>(), 32 * 4);
  EXPECT_EQ(json["flops"].get<int64_t>(), 2 * 32);
  EXPECT_DOUBLE_EQ(json["traffic_ratio"].get<double>(), 1.0);
}

TEST_F(KernelReportTest, TableNamesEveryKernelAndTheTotals) {
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(R"(
    func.func @f(%a: tensor<4x8xf32>) -> tensor<8xf32> {
      %t = ens.tanh %a : tensor<4x8xf32>
      %s = ens.reduce_sum %t {dims = array<i64: 0>} : tensor<4x8xf32> -> tensor<8xf32>
      return %s : tensor<8xf32>
    })",
                                                             &context);
  ASSERT_TRUE(module);
  llvm::Expected<cuda::CudaProgram> program = cuda::generateCuda(*module, "f");
  ASSERT_TRUE(bool(program)) << llvm::toString(program.takeError());
  std::string table = cuda::formatKernelReport(*program, nullptr);
  for (const cuda::KernelInfo &kernel : program->plan.kernels)
    EXPECT_NE(table.find(kernel.name), std::string::npos) << table;
  EXPECT_NE(
      table.find(std::to_string(program->plan.kernels.size()) + " kernels"),
      std::string::npos)
      << table;
  EXPECT_NE(table.find("ens.tanh"), std::string::npos) << table;
}

TEST_F(KernelReportTest, EstimatesEveryLaunchAndTheStep) {
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(
      ENS_SOURCE_DIR "/examples/ensemble_train_step.mlir", &context);
  ASSERT_TRUE(module);
  nlohmann::json json = report(*module, "train_step");
  ASSERT_FALSE(json.is_null());
  // Peaks from the datasheets (docs/cuda.md): FP32 and DRAM bandwidth.
  const std::pair<const char *, std::pair<double, double>> gpus[] = {
      {"h100", {66.9e12, 3350e9}}, {"a100", {19.5e12, 1555e9}}};
  for (const auto &[gpu, peaks] : gpus) {
    double us = 0, rooflineUs = 0;
    for (const nlohmann::json &launch : json["launches"]) {
      const nlohmann::json &estimate = launch["estimate"][gpu];
      double bytes = launch["bytes_read"].get<double>() +
                     launch["bytes_written"].get<double>();
      double roofline =
          1e6 * std::max(launch["flops"].get<double>() / peaks.first,
                         bytes / peaks.second);
      EXPECT_NEAR(estimate["roofline_us"].get<double>(), roofline,
                  0.01 * roofline)
          << gpu;
      EXPECT_GE(estimate["us"].get<double>(),
                estimate["roofline_us"].get<double>())
          << gpu;
      us += estimate["us"].get<double>();
      rooflineUs += estimate["roofline_us"].get<double>();
    }
    EXPECT_DOUBLE_EQ(json["estimate"][gpu]["us"].get<double>(), us) << gpu;
    EXPECT_DOUBLE_EQ(json["estimate"][gpu]["roofline_us"].get<double>(),
                     rooflineUs)
        << gpu;
  }
}

} // namespace
