//===- MemberKernelTest.cpp - Kernels with a block per member -------------===//
//
// The emulator keeps __syncthreads() a barrier and gives each block its
// dynamic shared memory; a loop over members whose temporaries exceed the
// shared-memory budget keeps them in global memory and still computes what
// the interpreter computes.
//
//===----------------------------------------------------------------------===//

#include "TestSupport.h"

#include "ens/Backend/CpuBackend.h"
#include "ens/Backend/Cuda/Codegen.h"
#include "ens/Backend/Cuda/Emulator.h"
#include "ens/Backend/Cuda/Nvrtc.h"
#include "ens/InitAllDialects.h"
#include "ens/Interpreter/Interpreter.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

#include <climits>
#include <cmath>

using namespace mlir;
using namespace mlir::ens;

namespace {

class MemberKernelTest : public ::testing::Test {
protected:
  MemberKernelTest() : context(makeRegistry()) {}

  static DialectRegistry makeRegistry() {
    DialectRegistry registry;
    registerAllDialects(registry);
    registerCpuBackendDialects(registry);
    return registry;
  }

  /// The results of @ensemble in `module` on `args`: on the interpreter
  /// and, from `program`, on the emulator.
  std::optional<std::pair<std::vector<HostTensor>, std::vector<HostTensor>>>
  runBoth(ModuleOp module, cuda::CudaProgram program,
          ArrayRef<HostTensor> args) {
    auto entry = module.lookupSymbol<func::FuncOp>("ensemble");
    llvm::Expected<std::vector<HostTensor>> expected =
        Interpreter(module).run(entry, args);
    if (!expected) {
      ADD_FAILURE() << llvm::toString(expected.takeError());
      return std::nullopt;
    }
    llvm::Expected<std::unique_ptr<cuda::EmulatedExecutable>> executable =
        cuda::EmulatedExecutable::compile(std::move(program));
    if (!executable) {
      ADD_FAILURE() << llvm::toString(executable.takeError());
      return std::nullopt;
    }
    llvm::Expected<std::vector<HostTensor>> actual = (*executable)->run(args);
    if (!actual) {
      ADD_FAILURE() << llvm::toString(actual.takeError());
      return std::nullopt;
    }
    return std::make_pair(std::move(*expected), std::move(*actual));
  }

  MLIRContext context;
};

/// Each thread writes its index to shared memory, waits at the barrier,
/// then reads its right neighbour's, and the last thread's is read by no
/// one before the barrier either. Without a barrier, threads run one after
/// another and thread t reads t + 1's slot before t + 1 has written it.
constexpr const char *kRotateSource = R"(
extern "C" __global__ void rotate(float *in, float *out) {
  ENS_DYNAMIC_SHARED(bytes);
  float *slots = (float *)bytes;
  unsigned t = threadIdx.x;
  slots[t] = in[blockIdx.x * blockDim.x + t];
  __syncthreads();
  out[blockIdx.x * blockDim.x + t] = slots[(t + 1) % blockDim.x];
}
)";

TEST_F(MemberKernelTest, EmulatedBarriersOrderEveryThreadOfABlock) {
  constexpr unsigned kBlocks = 3, kThreads = 64;
  Builder builder(&context);
  auto type = RankedTensorType::get({kBlocks * kThreads}, builder.getF32Type());
  cuda::CudaProgram program;
  program.source = kRotateSource;
  program.type = builder.getFunctionType({type}, {type});
  for (cuda::BufferKind kind :
       {cuda::BufferKind::Input, cuda::BufferKind::Output}) {
    cuda::BufferInfo buffer;
    buffer.kind = kind;
    buffer.dtype = DType::F32;
    buffer.shape = {kBlocks * kThreads};
    buffer.bytes = kBlocks * kThreads * 4;
    program.plan.buffers.push_back(buffer);
  }
  cuda::KernelInfo kernel;
  kernel.name = "rotate";
  kernel.paramTypes = {"float *", "float *"};
  kernel.usesBarriers = true;
  program.plan.kernels.push_back(kernel);
  cuda::KernelLaunch launch;
  launch.kernel = 0;
  launch.grid = {kBlocks, 1, 1};
  launch.block = {kThreads, 1, 1};
  launch.sharedBytes = kThreads * 4;
  launch.args = {{true, 0}, {true, 1}};
  program.plan.launches.push_back(launch);
  program.source += getPlanKernelDefinition(program.plan);

  HostTensor input(DType::F32, {kBlocks * kThreads});
  for (unsigned i = 0; i < kBlocks * kThreads; ++i)
    input.values[i] = i;
  llvm::Expected<std::unique_ptr<cuda::EmulatedExecutable>> executable =
      cuda::EmulatedExecutable::compile(program);
  ASSERT_TRUE(bool(executable)) << llvm::toString(executable.takeError());
  llvm::Expected<std::vector<HostTensor>> results = (*executable)->run(input);
  ASSERT_TRUE(bool(results)) << llvm::toString(results.takeError());
  for (unsigned b = 0; b < kBlocks; ++b)
    for (unsigned t = 0; t < kThreads; ++t)
      EXPECT_EQ((*results)[0].values[b * kThreads + t],
                b * kThreads + (t + 1) % kThreads)
          << "block " << b << ", thread " << t;

  // The same text is CUDA that NVRTC accepts.
  if (cuda::isNvrtcAvailable()) {
    std::string source = "#define ENS_DYNAMIC_SHARED(name) extern __shared__ "
                         "unsigned char name[]\n" +
                         program.source;
    llvm::Expected<cuda::CompiledCuda> compiled =
        cuda::compileWithNvrtc(source, "rotate.cu", "sm_80");
    EXPECT_TRUE(bool(compiled)) << llvm::toString(compiled.takeError());
  }
}

TEST_F(MemberKernelTest, TemporariesBeyondSharedMemoryLiveInGlobalMemory) {
  // Each member's 192 x 256 product (192 KiB) exceeds what a block may keep
  // in shared memory.
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(R"(
    func.func @member(%a: tensor<192x16xf32>, %b: tensor<16x256xf32>) -> tensor<f32> {
      %p = ens.matmul %a, %b : tensor<192x16xf32>, tensor<16x256xf32> -> tensor<192x256xf32>
      %t = ens.tanh %p : tensor<192x256xf32>
      %s = ens.reduce_sum %t {dims = array<i64: 0, 1>} : tensor<192x256xf32> -> tensor<f32>
      %q = ens.reduce_max %p {dims = array<i64: 0, 1>} : tensor<192x256xf32> -> tensor<f32>
      %r = ens.add %s, %q : tensor<f32>
      return %r : tensor<f32>
    }
    func.func @ensemble(%a: tensor<2x192x16xf32>, %b: tensor<16x256xf32>) -> tensor<2xf32> {
      %r = ens.vmap @member(%a, %b) {in_axes = array<i64: 0, -1>, out_axes = array<i64: 0>, size = 2 : i64} : (tensor<2x192x16xf32>, tensor<16x256xf32>) -> tensor<2xf32>
      return %r : tensor<2xf32>
    })",
                                                             &context);
  ASSERT_TRUE(module);
  llvm::Expected<cuda::CudaProgram> program =
      cuda::generateCuda(*module, "ensemble");
  ASSERT_TRUE(bool(program)) << llvm::toString(program.takeError());
  bool memberScratch = false;
  for (const cuda::BufferInfo &buffer : program->plan.buffers)
    if (buffer.kind == cuda::BufferKind::Temporary &&
        buffer.shape == std::vector<int64_t>{2, 1, 192, 256})
      memberScratch = true;
  EXPECT_TRUE(memberScratch) << cuda::printPlan(program->plan);
  for (const cuda::KernelLaunch &launch : program->plan.launches)
    EXPECT_LE(launch.sharedBytes, 163u * 1024)
        << cuda::printPlan(program->plan);

  test::RandomSource random(7);
  std::vector<HostTensor> args;
  for (const test::Shape &shape :
       {test::Shape{2, 192, 16}, test::Shape{16, 256}}) {
    HostTensor arg(DType::F32, shape);
    for (double &value : arg.values)
      value = static_cast<float>(random.real(-0.5, 0.5));
    args.push_back(std::move(arg));
  }
  auto results = runBoth(*module, std::move(*program), args);
  ASSERT_TRUE(results);
  auto &[expected, actual] = *results;
  for (int i = 0; i < 2; ++i)
    EXPECT_NEAR(actual[0].values[i], expected[0].values[i],
                1e-5 * std::fabs(expected[0].values[i]) + 1e-5);
}

TEST_F(MemberKernelTest, BlockReductionsCombineLikeTheInterpreter) {
  // Each member's 300-step reductions are shared among a block's threads
  // and combined with warp shuffles: sums, NaN-propagating maximum,
  // wrapping integer sums, in f32, f64 and i32.
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(R"(
    func.func @member(%a: tensor<300xf32>, %b: tensor<300xi32>, %c: tensor<300xf64>)
        -> (tensor<f32>, tensor<f32>, tensor<i32>, tensor<f64>) {
      %s = ens.reduce_sum %a {dims = array<i64: 0>} : tensor<300xf32> -> tensor<f32>
      %x = ens.reduce_max %a {dims = array<i64: 0>} : tensor<300xf32> -> tensor<f32>
      %i = ens.reduce_sum %b {dims = array<i64: 0>} : tensor<300xi32> -> tensor<i32>
      %d = ens.reduce_sum %c {dims = array<i64: 0>} : tensor<300xf64> -> tensor<f64>
      return %s, %x, %i, %d : tensor<f32>, tensor<f32>, tensor<i32>, tensor<f64>
    }
    func.func @ensemble(%a: tensor<3x300xf32>, %b: tensor<3x300xi32>, %c: tensor<3x300xf64>)
        -> (tensor<3xf32>, tensor<3xf32>, tensor<3xi32>, tensor<3xf64>) {
      %r:4 = ens.vmap @member(%a, %b, %c) {in_axes = array<i64: 0, 0, 0>, out_axes = array<i64: 0, 0, 0, 0>, size = 3 : i64}
          : (tensor<3x300xf32>, tensor<3x300xi32>, tensor<3x300xf64>)
          -> (tensor<3xf32>, tensor<3xf32>, tensor<3xi32>, tensor<3xf64>)
      return %r#0, %r#1, %r#2, %r#3 : tensor<3xf32>, tensor<3xf32>, tensor<3xi32>, tensor<3xf64>
    })",
                                                             &context);
  ASSERT_TRUE(module);
  llvm::Expected<cuda::CudaProgram> program =
      cuda::generateCuda(*module, "ensemble");
  ASSERT_TRUE(bool(program)) << llvm::toString(program.takeError());
  EXPECT_NE(program->source.find("= ens_block_reduce("), std::string::npos)
      << program->source;

  test::RandomSource random(3);
  HostTensor a(DType::F32, {3, 300}), b(DType::I32, {3, 300}),
      c(DType::F64, {3, 300});
  for (double &value : a.values)
    value = static_cast<float>(random.real(-10, 10));
  for (double &value : b.values)
    value = static_cast<double>(random.integer(INT32_MIN / 2, INT32_MAX / 2));
  for (double &value : c.values)
    value = random.real(-1, 1);
  a.values[300 + 17] = NAN; // member 1's maximum is NaN
  auto results = runBoth(*module, std::move(*program), {a, b, c});
  ASSERT_TRUE(results);
  auto &[expected, actual] = *results;
  for (int r = 0; r < 4; ++r)
    for (int m = 0; m < 3; ++m) {
      double want = expected[r].values[m], got = actual[r].values[m];
      if (std::isnan(want)) {
        EXPECT_TRUE(std::isnan(got)) << "result " << r << ", member " << m;
        continue;
      }
      // Sums in another order: f32 and f64 rounding; the rest exactly.
      double tolerance = r == 0   ? 1e-5 * std::fabs(want) + 1e-4
                         : r == 3 ? 1e-12
                                  : 0;
      EXPECT_NEAR(got, want, tolerance) << "result " << r << ", member " << m;
    }
}

} // namespace
