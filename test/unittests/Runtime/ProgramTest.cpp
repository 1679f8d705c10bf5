//===- ProgramTest.cpp - Artifacts and the runtime's program API ----------===//
//
// An artifact of a small CUDA program, exported with the emulator's build,
// goes through the runtime's reading checks and its C++ and C interfaces.
// The expected values are computed here, independently of ens.
//
//===----------------------------------------------------------------------===//

#include "ens/Runtime/Program.h"
#include "ens/Backend/CpuBackend.h"
#include "ens/Backend/Export.h"
#include "ens/InitAllDialects.h"
#include "ens/ens_runtime.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <thread>
#include <unistd.h>

using namespace mlir;
using namespace mlir::ens;
namespace rt = ::ens::runtime;

namespace {

/// out = a * b + c elementwise, over 2x3 f32 tensors.
constexpr const char *kProgram = R"(
func.func @fma(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>, %c: tensor<2x3xf32>)
    -> tensor<2x3xf32> {
  %p = ens.mul %a, %b : tensor<2x3xf32>
  %s = ens.add %p, %c : tensor<2x3xf32>
  return %s : tensor<2x3xf32>
}
)";

class ProgramTest : public ::testing::Test {
protected:
  static void SetUpTestSuite() {
    DialectRegistry registry;
    registerAllDialects(registry);
    registerCpuBackendDialects(registry);
    MLIRContext context(registry);
    OwningOpRef<ModuleOp> module =
        parseSourceString<ModuleOp>(kProgram, &context);
    ASSERT_TRUE(module);
    ExportOptions options;
    options.archs = {"sm_80"};
    options.emulator = true;
    llvm::Expected<rt::Artifact> artifact =
        exportFunction(*module, "fma", options);
    ASSERT_TRUE(bool(artifact)) << llvm::toString(artifact.takeError());
    bytes = new std::string(rt::serializeArtifact(*artifact));
  }
  static void TearDownTestSuite() { delete bytes; }

  static std::unique_ptr<rt::Program> load() {
    rt::Expected<rt::Artifact> artifact = rt::parseArtifact(*bytes, "fma");
    if (!artifact) {
      ADD_FAILURE() << artifact.takeError().getMessage();
      return nullptr;
    }
    rt::Expected<std::unique_ptr<rt::Program>> program =
        rt::Program::load(std::move(*artifact), rt::Backend::CudaEmu);
    if (!program) {
      ADD_FAILURE() << program.takeError().getMessage();
      return nullptr;
    }
    return std::move(*program);
  }

  static DLTensor view(float *data, int64_t *shape) {
    DLTensor tensor{};
    tensor.data = data;
    tensor.device = {kDLCPU, 0};
    tensor.ndim = 2;
    tensor.dtype = {kDLFloat, 32, 1};
    tensor.shape = shape;
    return tensor;
  }

  static std::string *bytes;
  int64_t shape[2] = {2, 3};
  float a[6] = {1, 2, 3, 4, 5, 6}, b[6] = {0.5f, -1, 2, 0, 3, 0.25f},
        c[6] = {1, 1, 1, 1, 1, -1}, out[6] = {};
};
std::string *ProgramTest::bytes;

TEST(LoadElementTest, DecodesSixteenBitFloatsExactly) {
  // IEEE half bits and their values, from the format's definition.
  const uint16_t half[] = {0x3C00, 0xC100, 0x0001, 0x03FF,
                           0x7BFF, 0x7C00, 0xFC00, 0x8000};
  const double want[] = {1.0,     -2.5,     0x1p-24,   0x3FFp-24,
                         65504.0, INFINITY, -INFINITY, -0.0};
  for (int i = 0; i < 8; ++i) {
    double got = rt::loadElement(half, rt::DType::F16, i);
    EXPECT_EQ(got, want[i]) << "element " << i;
    EXPECT_EQ(std::signbit(got), std::signbit(want[i])) << "element " << i;
  }
  const uint16_t nan = 0x7E01;
  EXPECT_TRUE(std::isnan(rt::loadElement(&nan, rt::DType::F16, 0)));
  // bf16 is the upper half of an f32: 0x3F80 is 1, 0xC2F7 is -123.5.
  const uint16_t bf16[] = {0x3F80, 0xC2F7};
  EXPECT_EQ(rt::loadElement(bf16, rt::DType::BF16, 0), 1.0);
  EXPECT_EQ(rt::loadElement(bf16, rt::DType::BF16, 1), -123.5);
  const uint8_t bools[] = {0, 1};
  EXPECT_EQ(rt::loadElement(bools, rt::DType::I1, 1), 1.0);
}

TEST_F(ProgramTest, RoundTripsThroughItsBytes) {
  rt::Expected<rt::Artifact> artifact = rt::parseArtifact(*bytes, "fma");
  ASSERT_TRUE(bool(artifact)) << artifact.takeError().getMessage();
  EXPECT_EQ(artifact->entry, "fma");
  EXPECT_EQ(artifact->signature.args.size(), 3u);
  ASSERT_EQ(artifact->signature.results.size(), 1u);
  EXPECT_EQ(artifact->signature.results[0].getTypeString(), "tensor<2x3xf32>");
  EXPECT_TRUE(artifact->findSection("sm_80.cubin"));
  EXPECT_TRUE(artifact->findSection("compute_80.ptx"));
  EXPECT_TRUE(artifact->findSection(rt::section::kCudaSource));
  EXPECT_TRUE(artifact->findSection(rt::section::kEmulatorObject));
  EXPECT_EQ(artifact->sourceHash.size(), 64u);
  // Writing what was read gives the same bytes.
  EXPECT_EQ(rt::serializeArtifact(*artifact), *bytes);
}

TEST_F(ProgramTest, RejectsEveryTruncation) {
  for (size_t size = 0; size < bytes->size(); size += 1 + size / 64) {
    rt::Expected<rt::Artifact> artifact =
        rt::parseArtifact(std::string_view(*bytes).substr(0, size), "cut");
    ASSERT_FALSE(bool(artifact)) << "a prefix of " << size << " bytes";
    EXPECT_EQ(artifact.takeError().getMessage().rfind("cut: ", 0), 0u);
  }
}

TEST_F(ProgramTest, RejectsEveryChangedByteOfTheManifest) {
  // The header, the manifest and the start of the first section.
  for (size_t i = 0; i < std::min<size_t>(bytes->size(), 4096); ++i) {
    std::string copy = *bytes;
    copy[i] ^= 0x20;
    EXPECT_FALSE(bool(rt::parseArtifact(copy, "flipped")))
        << "a changed byte at " << i;
  }
}

TEST_F(ProgramTest, RejectsAnInvalidPlan) {
  rt::Expected<rt::Artifact> artifact = rt::parseArtifact(*bytes, "fma");
  ASSERT_TRUE(bool(artifact));
  rt::Artifact broken = *artifact;
  broken.plan.launches.front().args.front() = {true, 1000};
  rt::Expected<rt::Artifact> reread =
      rt::parseArtifact(rt::serializeArtifact(broken), "broken");
  ASSERT_FALSE(bool(reread));
  EXPECT_EQ(reread.takeError().getMessage(),
            "broken: invalid launch plan: launch 0 passes unknown buffer "
            "1000");
  broken = *artifact;
  broken.signature.args.pop_back();
  reread = rt::parseArtifact(rt::serializeArtifact(broken), "broken");
  ASSERT_FALSE(bool(reread));
  EXPECT_NE(reread.takeError().getMessage().find("which the signature lacks"),
            std::string::npos);
}

TEST_F(ProgramTest, RunsOnDLPackTensors) {
  std::unique_ptr<rt::Program> program = load();
  ASSERT_TRUE(program);
  DLTensor ta = view(a, shape), tb = view(b, shape), tc = view(c, shape),
           tout = view(out, shape);
  rt::Error failure = program->run({&ta, &tb, &tc}, {&tout});
  ASSERT_FALSE(failure) << failure.getMessage();
  for (int i = 0; i < 6; ++i)
    EXPECT_EQ(out[i], a[i] * b[i] + c[i]) << "element " << i;
}

TEST_F(ProgramTest, RejectsTensorsThatDoNotFit) {
  std::unique_ptr<rt::Program> program = load();
  ASSERT_TRUE(program);
  int64_t wrongShape[2] = {3, 2};
  int64_t strides[2] = {1, 2};
  DLTensor ta = view(a, shape), tb = view(b, shape), tc = view(c, shape),
           tout = view(out, shape);
  auto message = [&](std::vector<const DLTensor *> args,
                     std::vector<const DLTensor *> results) {
    rt::Error failure = program->run(args, results);
    return failure ? failure.getMessage() : std::string("(none)");
  };
  EXPECT_EQ(message({&ta, &tb}, {&tout}),
            "the program takes 3 arguments and gives 1 results; the call "
            "passes 2 and 1");
  EXPECT_EQ(message({&ta, nullptr, &tc}, {&tout}), "argument 1 is null");
  DLTensor shaped = view(b, wrongShape);
  EXPECT_EQ(message({&ta, &shaped, &tc}, {&tout}),
            "argument 1 is not a tensor<2x3xf32>");
  DLTensor typed = tb;
  typed.dtype = {kDLFloat, 64, 1};
  EXPECT_EQ(message({&ta, &typed, &tc}, {&tout}),
            "argument 1 is not a tensor<2x3xf32>");
  DLTensor strided = tb;
  strided.strides = strides;
  EXPECT_EQ(message({&ta, &strided, &tc}, {&tout}),
            "argument 1 is strided; ens needs compact row-major tensors "
            "(make it contiguous first)");
  DLTensor device = tb;
  device.device = {kDLCUDA, 0};
  EXPECT_EQ(message({&ta, &device, &tc}, {&tout}),
            "argument 1 is on DLPack device 2; the cuda-emu backend takes "
            "kDLCPU tensors");
  DLTensor overlapping = view(a + 2, shape);
  EXPECT_EQ(message({&ta, &tb, &tc}, {&overlapping}),
            "result 0 overlaps argument 0");
}

TEST_F(ProgramTest, RunsFromManyThreads) {
  std::unique_ptr<rt::Program> program = load();
  ASSERT_TRUE(program);
  std::atomic<int> wrong{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t)
    threads.emplace_back([&, t] {
      float x[6], result[6];
      for (int i = 0; i < 6; ++i)
        x[i] = static_cast<float>(t * 10 + i);
      int64_t dims[2] = {2, 3};
      DLTensor tx = view(x, dims), tb = view(b, dims), tc = view(c, dims),
               tout = view(result, dims);
      for (int call = 0; call < 20; ++call) {
        std::fill(std::begin(result), std::end(result), -1.0f);
        if (program->run({&tx, &tb, &tc}, {&tout}))
          ++wrong;
        for (int i = 0; i < 6; ++i)
          wrong += result[i] != x[i] * b[i] + c[i];
      }
    });
  for (std::thread &thread : threads)
    thread.join();
  EXPECT_EQ(wrong, 0);
}

TEST_F(ProgramTest, RunsThroughTheCInterface) {
  char path[] = "/tmp/ens-program-test-XXXXXX";
  int fd = mkstemp(path);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(write(fd, bytes->data(), bytes->size()),
            static_cast<ssize_t>(bytes->size()));
  close(fd);

  ens_program *program = nullptr;
  EXPECT_NE(ens_program_load("/nonexistent.ens", "cuda-emu", &program), 0);
  EXPECT_EQ(program, nullptr);
  EXPECT_EQ(std::string(ens_runtime_last_error()),
            "cannot open /nonexistent.ens: No such file or directory");
  EXPECT_NE(ens_program_load(path, "tpu", &program), 0);
  EXPECT_EQ(std::string(ens_runtime_last_error()),
            "unknown backend 'tpu' (known: cpu, cuda, cuda-emu)");
  ASSERT_EQ(ens_program_load(path, "cuda-emu", &program), 0)
      << ens_runtime_last_error();
  unlink(path);
  EXPECT_EQ(ens_program_num_args(program), 3u);
  EXPECT_EQ(ens_program_num_results(program), 1u);
  DLTensor ta = view(a, shape), tb = view(b, shape), tc = view(c, shape),
           tout = view(out, shape);
  const DLTensor *args[] = {&ta, &tb, &tc};
  const DLTensor *results[] = {&tout};
  ASSERT_EQ(ens_program_run(program, args, 3, results, 1, nullptr), 0)
      << ens_runtime_last_error();
  EXPECT_EQ(std::string(ens_runtime_last_error()), "");
  for (int i = 0; i < 6; ++i)
    EXPECT_EQ(out[i], a[i] * b[i] + c[i]) << "element " << i;
  EXPECT_NE(ens_program_run(program, args, 2, results, 1, nullptr), 0);
  EXPECT_NE(std::string(ens_runtime_last_error()).find("takes 3 arguments"),
            std::string::npos);
  ens_program_free(program);
  ens_program_free(nullptr);
}

} // namespace
