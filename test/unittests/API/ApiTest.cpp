//===- ApiTest.cpp - The public C++ API -----------------------------------===//
//
// Uses only include/ens/ens.h and libens, as an embedding program would.
// Expected values are computed in the tests from their definitions.
//
//===----------------------------------------------------------------------===//

#include "ExpectError.h"

#include "ens/ens.h"
#include "ens/ens_runtime.h"

#include <gtest/gtest.h>

#ifdef __SANITIZE_ADDRESS__
#include <sanitizer/allocator_interface.h>
#else
#include <malloc.h>
#endif

#include <atomic>
#include <cmath>
#include <cstdio>
#include <thread>

namespace {

using ens::DType;
using ens::TensorType;

using ens_test::expectError;

constexpr const char *kScale = R"mlir(
func.func @scale(%x: tensor<2x3xf32>, %s: tensor<3xf32>) -> tensor<2x3xf32> {
  %b = ens.broadcast_in_dim %s {dims = array<i64: 1>} : tensor<3xf32> -> tensor<2x3xf32>
  %y = ens.mul %x, %b : tensor<2x3xf32>
  return %y : tensor<2x3xf32>
}
)mlir";

TEST(ApiTest, ParsesCompilesAndRunsOnEveryTarget) {
  ens::Context context;
  ens::Module module = context.parse(kScale);
  EXPECT_EQ(module.functionNames(), std::vector<std::string>{"scale"});
  ens::Signature signature = module.signature("scale");
  ASSERT_EQ(signature.inputs.size(), 2u);
  EXPECT_EQ(signature.inputs[0].str(), "tensor<2x3xf32>");
  EXPECT_EQ(signature.results[0].str(), "tensor<2x3xf32>");

  ens::Tensor x({DType::F32, {2, 3}}, {1, 2, 3, 4, 5, 6});
  ens::Tensor s({DType::F32, {3}}, {10, 0.5, -1});
  for (ens::Target target :
       {ens::Target::Interpreter, ens::Target::Cpu, ens::Target::CudaEmu}) {
    ens::Executable executable = module.compile("scale", target);
    EXPECT_EQ(executable.signature().results[0], signature.results[0]);
    std::vector<ens::Tensor> out = executable.run({x, s});
    ASSERT_EQ(out.size(), 1u);
    EXPECT_EQ(out[0].values(), (std::vector<double>{10, 1, -3, 40, 2.5, -6}));
  }
}

TEST(ApiTest, SpellsTypesWithoutAllocatingThem) {
  EXPECT_EQ((TensorType{DType::F32, {}}).str(), "tensor<f32>");
  EXPECT_EQ((TensorType{DType::I1, {0, 7}}).str(), "tensor<0x7xi1>");
  // About 2^70 elements, whose count overflows int64, and 10^15 elements,
  // which fit no memory: printing them must not try to allocate them.
  EXPECT_EQ((TensorType{DType::F64, {4294967295, 4294967296, 64}}).str(),
            "tensor<4294967295x4294967296x64xf64>");
  EXPECT_EQ((TensorType{DType::F32, {100000, 100000, 100000}}).str(),
            "tensor<100000x100000x100000xf32>");
  // -1 is a `?` size, as Module::signature gives it.
  EXPECT_EQ((TensorType{DType::BF16, {-1, 3}}).str(), "tensor<?x3xbf16>");
  EXPECT_EQ((TensorType{DType::BF16, {-2, 3}}).str(), "tensor<-2x3xbf16>");
}

TEST(ApiTest, BuildsVmapsDifferentiatesAndRuns) {
  ens::Context context;
  ens::Module module = context.createModule();
  // loss(w, x, t) = mean((tanh(x @ w) - t)^2) for one member.
  {
    ens::FunctionBuilder f = module.function(
        "loss",
        {{DType::F64, {3, 2}}, {DType::F64, {4, 3}}, {DType::F64, {4, 2}}});
    ens::Value y = f.tanh(f.einsum(f.arg(1), f.arg(0), "bi,io->bo"));
    ens::Value e = f.sub(y, f.arg(2));
    f.ret({f.reduceMean(f.square(e), {0, 1})});
  }
  std::string grad = module.valueAndGrad("loss", {0});
  std::string ensemble = module.vmap(grad, {0, -1, -1}, {0, 0}, 5);
  ens::Signature signature = module.signature(ensemble);
  EXPECT_EQ(signature.inputs[0].str(), "tensor<5x3x2xf64>");
  EXPECT_EQ(signature.results[0].str(), "tensor<5xf64>");
  EXPECT_EQ(signature.results[1].str(), "tensor<5x3x2xf64>");

  std::vector<double> w(5 * 3 * 2), x(4 * 3), t(4 * 2);
  for (size_t i = 0; i < w.size(); ++i)
    w[i] = std::sin(0.7 * i);
  for (size_t i = 0; i < x.size(); ++i)
    x[i] = std::cos(1.3 * i);
  for (size_t i = 0; i < t.size(); ++i)
    t[i] = 0.1 * i - 0.3;
  ens::Tensor ws({DType::F64, {5, 3, 2}}, w), xs({DType::F64, {4, 3}}, x),
      ts({DType::F64, {4, 2}}, t);

  std::vector<ens::Tensor> out =
      module.compile(ensemble, ens::Target::Cpu).run({ws, xs, ts});
  // The loss and its gradient, member by member, from their definitions.
  for (int m = 0; m < 5; ++m) {
    double loss = 0, grad[3][2] = {};
    for (int b = 0; b < 4; ++b)
      for (int o = 0; o < 2; ++o) {
        double z = 0;
        for (int i = 0; i < 3; ++i)
          z += x[b * 3 + i] * w[m * 6 + i * 2 + o];
        double e = std::tanh(z) - t[b * 2 + o];
        loss += e * e / 8;
        for (int i = 0; i < 3; ++i)
          grad[i][o] +=
              2 * e / 8 * (1 - std::tanh(z) * std::tanh(z)) * x[b * 3 + i];
      }
    EXPECT_NEAR(out[0].at(m), loss, 1e-12);
    for (int i = 0; i < 3; ++i)
      for (int o = 0; o < 2; ++o)
        EXPECT_NEAR(out[1].at(m * 6 + i * 2 + o), grad[i][o], 1e-12);
  }
}

TEST(ApiTest, CompilesModulesWithStandardLibraryDeclarations) {
  ens::Context context;
  ens::Module module = context.parse(R"mlir(
func.func private @mse(tensor<3xf32>, tensor<3xf32>) -> tensor<f32>
    attributes {ens.stdlib = "mse"}
func.func @loss(%y: tensor<3xf32>, %t: tensor<3xf32>) -> tensor<f32> {
  %l = call @mse(%y, %t) : (tensor<3xf32>, tensor<3xf32>) -> tensor<f32>
  return %l : tensor<f32>
}
)mlir");
  ens::Tensor y({DType::F32, {3}}, {1, 2, 3}), t({DType::F32, {3}}, {1, 0, 6});
  for (ens::Target target : {ens::Target::Interpreter, ens::Target::Cpu})
    // mean((0, 2, -3)^2) = 13/3, as float.
    EXPECT_EQ(module.compile("loss", target).run({y, t})[0].values(),
              std::vector<double>{double(13.0f / 3.0f)});
}

/// The bytes the process has allocated and not freed: the sanitizer
/// allocator's count under ASan, otherwise glibc's.
size_t getAllocatedBytes() {
#ifdef __SANITIZE_ADDRESS__
  return __sanitizer_get_current_allocated_bytes();
#else
  return mallinfo2().uordblks;
#endif
}

TEST(ApiTest, FreesAContextThatCompiled) {
  // Compiled code in a Context's cache must not keep the Context (its
  // MLIR context, every module and all compiled code) alive once nothing
  // else refers to it: a program that makes contexts in a loop would grow
  // by about 1.6 MB each (docs/notes/reliability-runs.md).
  auto compileOnce = [] {
    ens::Context context;
    ens::Executable scale = context.parse(kScale).compile("scale");
    EXPECT_EQ(scale
                  .run({ens::Tensor({DType::F32, {2, 3}}, {1, 1, 1, 1, 1, 1}),
                        ens::Tensor({DType::F32, {3}}, {1, 2, 3})})[0]
                  .values(),
              (std::vector<double>{1, 2, 3, 1, 2, 3}));
  };
  // Lazily made globals (registries, the JIT's target) come first.
  for (int i = 0; i < 3; ++i)
    compileOnce();
  const int rounds = 10;
  size_t before = getAllocatedBytes();
  for (int i = 0; i < rounds; ++i)
    compileOnce();
  double grownPerRound =
      (double(getAllocatedBytes()) - double(before)) / rounds;
  EXPECT_LT(grownPerRound, 50e3) << "bytes kept per context";
}

TEST(ApiTest, CachesCompiledCodeUntilTheModuleChanges) {
  ens::Context context;
  ens::Module module = context.parse(kScale);
  ens::Executable first = module.compile("scale");
  EXPECT_TRUE(module.compile("scale").sharesCodeWith(first));
  EXPECT_FALSE(
      module.compile("scale", ens::Target::Interpreter).sharesCodeWith(first));
  // Another module with the same text shares the code too.
  EXPECT_TRUE(context.parse(kScale).compile("scale").sharesCodeWith(first));
  module.vmap("scale", {0, -1}, {0}, 2);
  ens::Executable changed = module.compile("scale");
  EXPECT_FALSE(changed.sharesCodeWith(first));
  EXPECT_EQ(changed
                .run({ens::Tensor({DType::F32, {2, 3}}, {1, 1, 1, 1, 1, 1}),
                      ens::Tensor({DType::F32, {3}}, {1, 2, 3})})[0]
                .values(),
            (std::vector<double>{1, 2, 3, 1, 2, 3}));
}

TEST(ApiTest, CompilesOneUnknownBatchModelAtEachBatchSize) {
  ens::Context context;
  ens::Module module = context.parse(R"mlir(
func.func @mlp(%x: tensor<?x3xf32>, %w: tensor<3x2xf32>, %b: tensor<2xf32>)
    -> tensor<?x2xf32> {
  %y = ens.matmul %x, %w : tensor<?x3xf32>, tensor<3x2xf32> -> tensor<?x2xf32>
  %bb = ens.broadcast_in_dim %b {dims = array<i64: 1>}
      : tensor<2xf32> -> tensor<?x2xf32>
  %a = ens.add %y, %bb : tensor<?x2xf32>
  %t = ens.tanh %a : tensor<?x2xf32>
  return %t : tensor<?x2xf32>
}
)mlir");
  EXPECT_EQ(module.signature("mlp").inputs[0].shape,
            (std::vector<int64_t>{-1, 3}));
  ens::Tensor w({DType::F32, {3, 2}}, {0.5, -1, 0.25, 2, -0.75, 1});
  ens::Tensor b({DType::F32, {2}}, {0.1, -0.2});
  for (int64_t batch : {4, 2}) {
    std::vector<TensorType> types = {
        {DType::F32, {batch, 3}}, w.type(), b.type()};
    std::vector<double> values;
    for (int64_t i = 0; i < batch * 3; ++i)
      values.push_back(0.1 * i - 0.4);
    ens::Tensor x(types[0], values);
    ens::Executable cpu = module.compile("mlp", types, ens::Target::Cpu);
    EXPECT_EQ(cpu.signature().results[0].str(),
              "tensor<" + std::to_string(batch) + "x2xf32>");
    EXPECT_TRUE(
        module.compile("mlp", types, ens::Target::Cpu).sharesCodeWith(cpu));
    std::vector<double> want =
        module.compile("mlp", types, ens::Target::Interpreter)
            .run({x, w, b})[0]
            .values();
    std::vector<double> got = cpu.run({x, w, b})[0].values();
    ASSERT_EQ(got.size(), static_cast<size_t>(batch * 2));
    for (size_t i = 0; i < got.size(); ++i)
      EXPECT_NEAR(got[i], want[i], 1e-6) << "batch " << batch << ", " << i;
  }
  std::vector<TensorType> four = {{DType::F32, {4, 3}}, w.type(), b.type()};
  std::vector<TensorType> two = {{DType::F32, {2, 3}}, w.type(), b.type()};
  EXPECT_FALSE(
      module.compile("mlp", four, ens::Target::Cpu)
          .sharesCodeWith(module.compile("mlp", two, ens::Target::Cpu)));
  expectError([&] { module.compile("mlp"); },
              "@mlp argument 0 has type tensor<?x3xf32>, with a `?` size");
  std::vector<TensorType> wrong = {{DType::F32, {4, 5}}, w.type(), b.type()};
  expectError([&] { module.compile("mlp", wrong); },
              "cannot specialize argument 0 of @mlp");
}

TEST(ApiTest, BuilderRejectsBadOpsAndKeepsTheFunction) {
  ens::Context context;
  ens::Module module = context.createModule();
  ens::FunctionBuilder f =
      module.function("f", {{DType::F32, {2, 3}}, {DType::F32, {3, 2}}});
  expectError([&] { f.add(f.arg(0), f.arg(1)); },
              "operand 1 has shape 3x2 but operand 0 has shape 2x3");
  expectError([&] { f.einsum(f.arg(0), f.arg(1), "ij,jk"); },
              "must have an explicit '->' and output");
  expectError([&] { f.einsum(f.arg(0), f.arg(1), "ij,ik->jk"); },
              "einsum label 'i' has size 2 in lhs dimension 0 but size 3 in "
              "rhs dimension 0");
  expectError(
      [&] {
        f.transpose(f.arg(0), {0, 0});
      },
      "permutation [0, 0] names dimension 0 twice");
  expectError([&] { f.reshape(f.arg(0), {4}); },
              "cannot reshape 2x3 (6 elements) to 4 (4 elements)");
  expectError(
      [&] {
        f.constant({DType::F32, {2}}, {1, 2, 3});
      },
      "needs 1 or 2 values, got 3");
  expectError([&] { f.exp(f.convert(f.arg(0), DType::I32)); },
              "must be ranked tensor of");
  expectError([&] { f.call("missing", {}); }, "no function named 'missing'");
  expectError([&] { f.arg(2); }, "has 2 arguments, not 3");

  ens::FunctionBuilder g = module.function("g", {{DType::F32, {2, 3}}});
  expectError([&] { g.neg(f.arg(0)); }, "an operand is not a value of @g");

  // After all that, f still builds and runs.
  f.ret({f.matmul(f.arg(0), f.arg(1))});
  expectError([&] { f.neg(f.arg(0)); }, "@f is finished");
  ens::Tensor a({DType::F32, {2, 3}}, {1, 0, 0, 0, 1, 0});
  ens::Tensor b({DType::F32, {3, 2}}, {1, 2, 3, 4, 5, 6});
  EXPECT_EQ(module.compile("f").run({a, b})[0].values(),
            (std::vector<double>{1, 2, 3, 4}));
}

TEST(ApiTest, ReportsBadModulesTransformsAndTargets) {
  ens::Context context;
  expectError([&] { context.parse("func.func @f("); },
              "cannot parse the module");
  // Named, as a tool names the file it read: located as MLIR locates it.
  expectError([&] { context.parse("func.func @f(", "f.mlir"); },
              "cannot parse the module: f.mlir:1:13: error: expected "
              "non-function type");
  ens::Module module = context.parse(kScale);
  expectError([&] { module.compile("nope"); }, "no function named 'nope'");
  expectError([&] { module.vmap("scale", {0}, {0}, 4); },
              "needs one in_axes entry per argument");
  expectError(
      [&] {
        module.vmap("scale", {0, 3}, {0}, 4);
      },
      "vmap axis 3 is out of range for tensor<3xf32>");
  expectError([&] { module.valueAndGrad("scale", {0}); }, "first result");
  // No GPU driver here; with one, running on the GPU is not done yet.
  expectError([&] { module.compile("scale", ens::Target::Cuda); },
              "no CUDA device");
  // A failed transform leaves the module as it was.
  EXPECT_EQ(module.functionNames(), std::vector<std::string>{"scale"});
}

TEST(ApiTest, RejectsWrongBuffers) {
  ens::Context context;
  ens::Module module = context.parse(kScale);
  ens::Executable executable = module.compile("scale");
  ens::Tensor x({DType::F32, {2, 3}}), s({DType::F32, {3}});
  expectError([&] { executable.run({x}); }, "expected 2 arguments, got 1");
  expectError(
      [&] {
        executable.run({x, ens::Tensor({DType::F64, {3}})});
      },
      "arguments 1: expected tensor<3xf32>, got tensor<3xf64>");
  expectError(
      [&] {
        executable.run({s, x});
      },
      "arguments 0: expected tensor<2x3xf32>, got tensor<3xf32>");

  DLTensor dx = x.dlpack(), ds = s.dlpack();
  ens::Tensor out({DType::F32, {2, 3}});
  DLTensor dout = out.dlpack();
  DLTensor onGpu = dx;
  onGpu.device = {kDLCUDA, 0};
  expectError(
      [&] {
        executable.run({&onGpu, &ds}, {&dout});
      },
      "is on DLPack device 2; this target needs host");
  int64_t strides[] = {1, 2};
  DLTensor strided = dx;
  strided.strides = strides;
  expectError(
      [&] {
        executable.run({&strided, &ds}, {&dout});
      },
      "is strided; ens needs compact row-major tensors");
  DLTensor complex = dx;
  complex.dtype = {kDLComplex, 64, 1};
  expectError(
      [&] {
        executable.run({&complex, &ds}, {&dout});
      },
      "which ens does not support");
  expectError([&] { executable.run({&dx, nullptr}, {&dout}); }, "is null");
  expectError(
      [&] {
        executable.run({&dx, &ds}, std::vector<DLTensor *>{});
      },
      "expected 1 results, got 0");
  // A result may not share memory with an argument: compiled code writes
  // results while it reads its arguments.
  expectError(
      [&] {
        executable.run({&dx, &ds}, {&dx});
      },
      "result 0 overlaps argument 0: results must be memory of their "
      "own");
  std::vector<float> wide(12);
  int64_t shape[] = {2, 3};
  DLTensor tail{wide.data() + 4, {kDLCPU, 0}, 2, {kDLFloat, 32, 1},
                shape,           nullptr,     0};
  DLTensor head{wide.data(), {kDLCPU, 0}, 2, {kDLFloat, 32, 1},
                shape,       nullptr,     0};
  expectError(
      [&] {
        executable.run({&head, &ds}, {&tail});
      },
      "result 0 overlaps argument 0");
}

TEST(ApiTest, RunsInPlaceOnCallerMemoryThroughDLPack) {
  ens::Context context;
  ens::Module module = context.parse(kScale);
  ens::Executable executable = module.compile("scale", ens::Target::Cpu);
  std::vector<float> x{1, 2, 3, 4, 5, 6}, s{2, 3, 4}, y(6, -1);
  int64_t xShape[] = {2, 3}, sShape[] = {3};
  DLTensor dx{x.data(), {kDLCPU, 0}, 2, {kDLFloat, 32, 1}, xShape, nullptr, 0};
  DLTensor ds{s.data(), {kDLCPU, 0}, 1, {kDLFloat, 32, 1}, sShape, nullptr, 0};
  DLTensor dy{y.data(), {kDLCPU, 0}, 2, {kDLFloat, 32, 1}, xShape, nullptr, 0};
  executable.run({&dx, &ds}, {&dy});
  // The result was written into the caller's own vector.
  EXPECT_EQ(y, (std::vector<float>{2, 6, 12, 8, 15, 24}));
}

TEST(ApiTest, RunsOnTheThreadsAskedFor) {
  ens::Context context;
  ens::Module module = context.parse(R"mlir(
func.func @members(%x: tensor<64x32xf32>, %w: tensor<16x32x8xf32>) -> tensor<16x64x8xf32> {
  %y = ens.einsum %x, %w {spec = "bi,mio->mbo"} : tensor<64x32xf32>, tensor<16x32x8xf32> -> tensor<16x64x8xf32>
  %t = ens.tanh %y : tensor<16x64x8xf32>
  return %t : tensor<16x64x8xf32>
}
)mlir");
  std::vector<double> x(64 * 32), w(16 * 32 * 8);
  for (size_t i = 0; i < x.size(); ++i)
    x[i] = std::sin(0.1 * i);
  for (size_t i = 0; i < w.size(); ++i)
    w[i] = std::cos(0.3 * i) / 8;
  std::vector<ens::Tensor> args{ens::Tensor({DType::F32, {64, 32}}, x),
                                ens::Tensor({DType::F32, {16, 32, 8}}, w)};
  std::vector<double> reference =
      module.compile("members", ens::Target::Interpreter).run(args)[0].values();
  EXPECT_EQ(module.compile("members", ens::Target::Interpreter).threads(), 1u);
  for (int threads : {1, 2, 4}) {
    ens::Executable executable =
        module.compile("members", ens::Target::Cpu, {threads});
    // Threads need libomp; without it the code runs on one thread.
    EXPECT_TRUE(executable.threads() == unsigned(threads) ||
                executable.threads() == 1u);
    std::vector<double> y = executable.run(args)[0].values();
    ASSERT_EQ(y.size(), reference.size());
    for (size_t i = 0; i < y.size(); ++i)
      ASSERT_NEAR(y[i], reference[i], 1e-5 * std::fabs(reference[i]) + 1e-6)
          << "element " << i << " on " << threads << " threads";
  }
  EXPECT_FALSE(
      module.compile("members", ens::Target::Cpu, {2})
          .sharesCodeWith(module.compile("members", ens::Target::Cpu, {1})));
  expectError([&] { module.compile("members", ens::Target::Cpu, {-1}); },
              "threads must be 0 (one per core) or more, got -1");
}

TEST(ApiTest, RefusesProgramsOverTheBufferLimit) {
  ens::Context context;
  ens::Module module = context.parse(kScale);
  // @scale's arguments and result take 24 + 12 + 24 = 60 bytes.
  ens::CompileOptions tight;
  tight.maxBufferBytes = 59;
  expectError([&] { module.compile("scale", ens::Target::Cpu, tight); },
              "@scale's arguments and results needs 60 bytes, over the "
              "buffer limit of 59 bytes");
  expectError([&] { module.compile("scale", ens::Target::CudaEmu, tight); },
              "@scale (arguments, results, constants and temporaries "
              "together) needs ");
  ens::CompileOptions enough;
  enough.maxBufferBytes = 60;
  std::vector<ens::Tensor> args{
      ens::Tensor({DType::F32, {2, 3}}, {1, 2, 3, 4, 5, 6}),
      ens::Tensor({DType::F32, {3}}, {2, 3, 4})};
  EXPECT_EQ(
      module.compile("scale", ens::Target::Cpu, enough).run(args)[0].values(),
      (std::vector<double>{2, 6, 12, 8, 15, 24}));
  ens::CompileOptions negative;
  negative.maxBufferBytes = -1;
  expectError([&] { module.compile("scale", ens::Target::Cpu, negative); },
              "maxBufferBytes must be 0 (the default limit) or more, got -1");
}

TEST(ApiTest, CudaStrategyIsACompileOption) {
  ens::Context context;
  ens::Module module = context.parse(kScale);
  std::vector<ens::Tensor> args{
      ens::Tensor({DType::F32, {2, 3}}, {1, 2, 3, 4, 5, 6}),
      ens::Tensor({DType::F32, {3}}, {2, 3, 4})};
  ens::CompileOptions tiled, perBlock;
  tiled.cudaStrategy = "tiled";
  perBlock.cudaStrategy = "member-per-block";
  ens::Executable a = module.compile("scale", ens::Target::CudaEmu, tiled);
  ens::Executable b = module.compile("scale", ens::Target::CudaEmu, perBlock);
  EXPECT_FALSE(a.sharesCodeWith(b));
  EXPECT_TRUE(
      a.sharesCodeWith(module.compile("scale", ens::Target::CudaEmu, tiled)));
  for (const ens::Executable &executable : {a, b})
    EXPECT_EQ(executable.run(args)[0].values(),
              (std::vector<double>{2, 6, 12, 8, 15, 24}));
  ens::CompileOptions unknown;
  unknown.cudaStrategy = "member-per-warp";
  expectError([&] { module.compile("scale", ens::Target::CudaEmu, unknown); },
              "unknown CUDA strategy 'member-per-warp' (known: auto, "
              "member-per-block, tiled, members-per-block)");
}

TEST(ApiTest, CudaGemmIsACompileOption) {
  ens::Context context;
  ens::Module module = context.parse(kScale);
  ens::CompileOptions generated, cublas;
  generated.cudaGemm = "generated";
  cublas.cudaGemm = "cublas";
  // Options that differ compile again, even where the code comes out the
  // same (@scale has no matrix product).
  EXPECT_FALSE(module.compile("scale", ens::Target::CudaEmu, generated)
                   .sharesCodeWith(
                       module.compile("scale", ens::Target::CudaEmu, cublas)));
  ens::CompileOptions unknown;
  unknown.cudaGemm = "cutlass";
  expectError([&] { module.compile("scale", ens::Target::CudaEmu, unknown); },
              "unknown CUDA GEMM choice 'cutlass' (known: auto, generated, "
              "cublas)");
}

TEST(ApiTest, GpuPrecisionIsACompileOption) {
  ens::Context context;
  ens::Module module = context.parse(kScale);
  ens::CompileOptions f32, tf32;
  f32.gpuPrecision = "f32";
  tf32.gpuPrecision = "tf32";
  // The precision is part of the key of compiled code.
  EXPECT_FALSE(
      module.compile("scale", ens::Target::CudaEmu, f32)
          .sharesCodeWith(module.compile("scale", ens::Target::CudaEmu, tf32)));
  ens::CompileOptions unknown;
  unknown.gpuPrecision = "bogus";
  expectError([&] { module.compile("scale", ens::Target::CudaEmu, unknown); },
              "unknown GPU precision 'bogus' (known: f32, tf32, 3xtf32)");
}

TEST(ApiTest, SavesAnArtifactTheRuntimeRuns) {
  ens::Context context;
  ens::Module module = context.parse(kScale);
  std::string path = ::testing::TempDir() + "ens-api-scale.ens";
  for (auto [target, backend] : {std::pair(ens::Target::CudaEmu, "cuda-emu"),
                                 std::pair(ens::Target::Cpu, "cpu")}) {
    module.compile("scale", target, {}).save(path);
    // Another process would load it with libens-runtime alone.
    ens_program *program = nullptr;
    ASSERT_EQ(ens_program_load(path.c_str(), backend, &program), 0)
        << ens_runtime_last_error();
    ens::Tensor x({DType::F32, {2, 3}}, {1, 2, 3, 4, 5, 6});
    ens::Tensor s({DType::F32, {3}}, {2, 3, 4});
    ens::Tensor y({DType::F32, {2, 3}});
    DLTensor views[] = {x.dlpack(), s.dlpack(), y.dlpack()};
    const DLTensor *args[] = {&views[0], &views[1]};
    const DLTensor *results[] = {&views[2]};
    ASSERT_EQ(ens_program_run(program, args, 2, results, 1, nullptr), 0)
        << ens_runtime_last_error();
    ens_program_free(program);
    std::remove(path.c_str());
    EXPECT_EQ(y.values(), (std::vector<double>{2, 6, 12, 8, 15, 24}))
        << backend;
  }
  expectError(
      [&] { module.compile("scale", ens::Target::Interpreter, {}).save(path); },
      "the interpreter has no compiled code to save");
  ens::Executable executable =
      module.compile("scale", ens::Target::CudaEmu, {});
  expectError([&] { executable.save("/nonexistent/dir/scale.ens"); },
              "cannot create /nonexistent/dir/scale.ens.tmp-");
}

TEST(ApiTest, CompilesAndRunsFromManyThreads) {
  ens::Context context;
  ens::Module module = context.parse(kScale);
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t)
    threads.emplace_back([&, t] {
      try {
        // Half the threads also build and vmap functions meanwhile.
        if (t % 2) {
          std::string name = "double" + std::to_string(t);
          ens::FunctionBuilder f = module.function(name, {{DType::F32, {3}}});
          f.ret({f.add(f.arg(0), f.arg(0))});
          module.vmap(name, {0}, {0}, 2);
        }
        ens::Executable executable = module.compile(
            "scale", t % 3 ? ens::Target::Cpu : ens::Target::Interpreter);
        for (int i = 0; i < 20; ++i) {
          ens::Tensor x({DType::F32, {2, 3}}, {1, 2, 3, 4, 5, 6});
          ens::Tensor s({DType::F32, {3}}, {double(t), double(i), 1});
          std::vector<double> y = executable.run({x, s})[0].values();
          std::vector<double> want{1.0 * t, 2.0 * i, 3, 4.0 * t, 5.0 * i, 6};
          failures += y != want;
        }
      } catch (const ens::Error &error) {
        ADD_FAILURE() << error.what();
        ++failures;
      }
    });
  for (std::thread &thread : threads)
    thread.join();
  EXPECT_EQ(failures, 0);
}

} // namespace
