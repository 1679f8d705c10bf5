//===- CpuRunnerTest.cpp - CPU artifacts through the runtime --------------===//
//
// Compiles functions to shared objects with compileCpuObject, wraps each in
// a cpu artifact that goes through the artifact format and back, loads it
// with the runtime's Program on the cpu backend, runs it on random inputs
// and compares every result with the interpreter's and the JIT's.
//
//===----------------------------------------------------------------------===//

#include "TestSupport.h"

#include "ens/Backend/CpuBackend.h"
#include "ens/Backend/Executable.h"
#include "ens/InitAllDialects.h"
#include "ens/Runtime/Artifact.h"
#include "ens/Runtime/Program.h"
#include "ens/Runtime/Runner.h"
#include "ens/Support/HostCompiler.h"
#include "ens/Support/TensorTypes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace mlir;
using namespace mlir::ens;
namespace rt = ::ens::runtime;

namespace {

/// Three results of different ranks from two arguments.
constexpr const char *kSeveralResults = R"(
func.func @several(%x: tensor<4x5xf32>, %w: tensor<5xf32>)
    -> (tensor<4x5xf32>, tensor<4xf32>, tensor<f32>) {
  %b = ens.broadcast_in_dim %w {dims = array<i64: 1>}
      : tensor<5xf32> -> tensor<4x5xf32>
  %y = ens.mul %x, %b : tensor<4x5xf32>
  %t = ens.tanh %y : tensor<4x5xf32>
  %s = ens.reduce_sum %t {dims = array<i64: 1>}
      : tensor<4x5xf32> -> tensor<4xf32>
  %m = ens.reduce_mean %y {dims = array<i64: 0, 1>}
      : tensor<4x5xf32> -> tensor<f32>
  return %t, %s, %m : tensor<4x5xf32>, tensor<4xf32>, tensor<f32>
}
)";

/// Enough work (4M multiply-adds) for the CPU backend to use threads.
constexpr const char *kLarge = R"(
func.func @large(%x: tensor<256x64xf32>, %w: tensor<64x256xf32>)
    -> tensor<256x256xf32> {
  %y = ens.matmul %x, %w
      : tensor<256x64xf32>, tensor<64x256xf32> -> tensor<256x256xf32>
  %t = ens.tanh %y : tensor<256x256xf32>
  return %t : tensor<256x256xf32>
}
)";

/// Intermediate values that the code keeps in buffers it allocates (three
/// _mlir_memref_to_llvm_alloc calls after ens-cpu-pipeline): the object's
/// allocation functions must reach the buffer cache.
constexpr const char *kAllocating = R"(
func.func @gram(%x: tensor<40x50xf32>, %w: tensor<50x60xf32>)
    -> (tensor<60x60xf32>, tensor<40x60xf32>) {
  %y = ens.matmul %x, %w
      : tensor<40x50xf32>, tensor<50x60xf32> -> tensor<40x60xf32>
  %t = ens.tanh %y : tensor<40x60xf32>
  %tt = ens.transpose %t {permutation = array<i64: 1, 0>}
      : tensor<40x60xf32> -> tensor<60x40xf32>
  %z = ens.matmul %tt, %t
      : tensor<60x40xf32>, tensor<40x60xf32> -> tensor<60x60xf32>
  %e = ens.exp %y : tensor<40x60xf32>
  return %z, %e : tensor<60x60xf32>, tensor<40x60xf32>
}
)";

class CpuRunnerTest : public ::testing::Test {
protected:
  CpuRunnerTest() {
    DialectRegistry registry;
    registerAllDialects(registry);
    registerCpuBackendDialects(registry);
    context.appendDialectRegistry(registry);
  }

  OwningOpRef<ModuleOp> parseExample(StringRef name) {
    return parseSourceFile<ModuleOp>((ENS_SOURCE_DIR "/examples/" + name).str(),
                                     &context);
  }

  OwningOpRef<ModuleOp> parse(StringRef source) {
    return parseSourceString<ModuleOp>(source, &context);
  }

  MLIRContext context;
};

/// The signature of `type`, as the runtime describes it.
rt::Signature getSignature(FunctionType type) {
  rt::Signature signature;
  for (auto [types, specs] : {std::pair(type.getInputs(), &signature.args),
                              std::pair(type.getResults(), &signature.results)})
    for (Type t : types) {
      auto tensor = cast<RankedTensorType>(t);
      rt::TensorSpec spec;
      spec.dtype = *getDType(tensor.getElementType());
      spec.shape.assign(tensor.getShape().begin(), tensor.getShape().end());
      specs->push_back(std::move(spec));
    }
  return signature;
}

/// `entry` of `module` as a cpu artifact, after a round trip through the
/// artifact format; a failure when it cannot be made.
std::optional<rt::Artifact> exportCpu(ModuleOp module, StringRef entry,
                                      const CpuOptions &options = {}) {
  llvm::Expected<std::string> object =
      cpu::compileCpuObject(module, entry, options);
  if (!object) {
    ADD_FAILURE() << llvm::toString(object.takeError());
    return std::nullopt;
  }
  rt::Artifact artifact;
  artifact.target = rt::ArtifactTarget::Cpu;
  artifact.entry = entry.str();
  artifact.signature =
      getSignature(module.lookupSymbol<func::FuncOp>(entry).getFunctionType());
  artifact.producer = "CpuRunnerTest";
  artifact.sections[rt::section::kCpuObject] = std::move(*object);
  rt::Expected<rt::Artifact> parsed =
      rt::parseArtifact(rt::serializeArtifact(artifact), "test");
  if (!parsed) {
    ADD_FAILURE() << parsed.takeError().getMessage();
    return std::nullopt;
  }
  return std::move(*parsed);
}

/// Loads `artifact` on the cpu backend; null (and a failure) if it cannot.
std::unique_ptr<rt::Program> load(rt::Artifact artifact) {
  rt::Expected<std::unique_ptr<rt::Program>> program =
      rt::Program::load(std::move(artifact), rt::Backend::Cpu);
  if (!program) {
    ADD_FAILURE() << program.takeError().getMessage();
    return nullptr;
  }
  return std::move(*program);
}

/// Random arguments for `type`: f32 uniform in [-1, 1).
std::vector<HostTensor> makeArguments(FunctionType type, unsigned seed) {
  test::RandomSource random(seed);
  std::vector<HostTensor> args;
  for (Type input : type.getInputs()) {
    auto tensor = cast<RankedTensorType>(input);
    HostTensor arg(*getDType(tensor.getElementType()), tensor.getShape());
    for (double &value : arg.values)
      value = random.real(-1, 1);
    arg.roundToDType();
    args.push_back(std::move(arg));
  }
  return args;
}

/// Runs `program` on `args` and checks its results: within 1e-5 * (|want|
/// + 1) of the interpreter's, the tolerance of the interpreter's own check
/// of examples/mlp.mlir against double precision (test/unittests/
/// Interpreter/ExamplesTest.cpp; the CPU code's tanh is a polynomial, and
/// its sums run in another order), and bit for bit the JIT's: the object
/// is the code the JIT runs, compiled by the same target machine from the
/// same LLVM IR.
void expectCorrect(rt::Program &program, ModuleOp module, StringRef entry,
                   const std::vector<HostTensor> &args,
                   const CpuOptions &options = {}) {
  llvm::Expected<std::unique_ptr<Executable>> interpreter =
      compileExecutable(module, entry, Target::Interpreter);
  ASSERT_TRUE(bool(interpreter)) << llvm::toString(interpreter.takeError());
  llvm::Expected<std::vector<HostTensor>> expected = (*interpreter)->run(args);
  ASSERT_TRUE(bool(expected)) << llvm::toString(expected.takeError());
  llvm::Expected<std::unique_ptr<CpuExecutable>> jit =
      CpuExecutable::compile(module, entry, options);
  ASSERT_TRUE(bool(jit)) << llvm::toString(jit.takeError());
  llvm::Expected<std::vector<HostTensor>> jitResults = (*jit)->run(args);
  ASSERT_TRUE(bool(jitResults)) << llvm::toString(jitResults.takeError());

  std::vector<std::vector<float>> argData, resultData;
  std::vector<const void *> argPointers;
  std::vector<void *> resultPointers;
  for (const HostTensor &arg : args) {
    argData.emplace_back(arg.values.begin(), arg.values.end());
    argPointers.push_back(argData.back().data());
  }
  for (const HostTensor &want : *expected) {
    // NaN everywhere, so that an element the code does not write fails.
    resultData.emplace_back(want.values.size(), NAN);
    resultPointers.push_back(resultData.back().data());
  }
  rt::Error failure = program.runOnHost(argPointers, resultPointers);
  ASSERT_FALSE(failure) << failure.getMessage();
  for (size_t r = 0; r < expected->size(); ++r) {
    const std::vector<double> &want = (*expected)[r].values;
    const std::vector<double> &same = (*jitResults)[r].values;
    for (size_t i = 0; i < want.size(); ++i) {
      float got = resultData[r][i];
      ASSERT_LE(std::fabs(got - want[i]), 1e-5 * (std::fabs(want[i]) + 1))
          << "result " << r << " element " << i << ": got " << got
          << ", the interpreter " << want[i];
      ASSERT_EQ(got, float(same[i]))
          << "result " << r << " element " << i << " differs from the JIT's";
    }
  }
}

TEST_F(CpuRunnerTest, RunsTheMlpForward) {
  OwningOpRef<ModuleOp> module = parseExample("mlp.mlir");
  ASSERT_TRUE(module);
  std::optional<rt::Artifact> artifact = exportCpu(*module, "forward");
  ASSERT_TRUE(artifact);
  std::unique_ptr<rt::Program> program = load(std::move(*artifact));
  ASSERT_TRUE(program);
  auto type = module->lookupSymbol<func::FuncOp>("forward").getFunctionType();
  // Twice, on other values: nothing of the first call stays behind.
  for (unsigned seed : {1, 2})
    expectCorrect(*program, *module, "forward", makeArguments(type, seed));
}

TEST_F(CpuRunnerTest, RunsTheMlpLossToAScalar) {
  OwningOpRef<ModuleOp> module = parseExample("mlp.mlir");
  ASSERT_TRUE(module);
  std::optional<rt::Artifact> artifact = exportCpu(*module, "loss");
  ASSERT_TRUE(artifact);
  std::unique_ptr<rt::Program> program = load(std::move(*artifact));
  ASSERT_TRUE(program);
  auto type = module->lookupSymbol<func::FuncOp>("loss").getFunctionType();
  expectCorrect(*program, *module, "loss", makeArguments(type, 3));
}

TEST_F(CpuRunnerTest, WritesSeveralResults) {
  OwningOpRef<ModuleOp> module = parse(kSeveralResults);
  ASSERT_TRUE(module);
  std::optional<rt::Artifact> artifact = exportCpu(*module, "several");
  ASSERT_TRUE(artifact);
  std::unique_ptr<rt::Program> program = load(std::move(*artifact));
  ASSERT_TRUE(program);
  auto type = module->lookupSymbol<func::FuncOp>("several").getFunctionType();
  expectCorrect(*program, *module, "several", makeArguments(type, 4));
}

TEST_F(CpuRunnerTest, AllocatesThroughTheBufferCache) {
  OwningOpRef<ModuleOp> module = parse(kAllocating);
  ASSERT_TRUE(module);
  std::optional<rt::Artifact> artifact = exportCpu(*module, "gram");
  ASSERT_TRUE(artifact);
  std::unique_ptr<rt::Program> program = load(std::move(*artifact));
  ASSERT_TRUE(program);
  auto type = module->lookupSymbol<func::FuncOp>("gram").getFunctionType();
  // The second call reuses the blocks the first freed into the cache.
  for (unsigned seed : {7, 8})
    expectCorrect(*program, *module, "gram", makeArguments(type, seed));
}

TEST_F(CpuRunnerTest, LoadsTwoObjectsWithTheSameSymbolsAtOnce) {
  // Each object exports ens_cpu_entry and ens_cpu_init; each program must
  // call its own.
  OwningOpRef<ModuleOp> module = parseExample("mlp.mlir");
  ASSERT_TRUE(module);
  std::optional<rt::Artifact> forward = exportCpu(*module, "forward");
  std::optional<rt::Artifact> loss = exportCpu(*module, "loss");
  ASSERT_TRUE(forward && loss);
  std::unique_ptr<rt::Program> forwardProgram = load(std::move(*forward));
  std::unique_ptr<rt::Program> lossProgram = load(std::move(*loss));
  ASSERT_TRUE(forwardProgram && lossProgram);
  auto lossType = module->lookupSymbol<func::FuncOp>("loss").getFunctionType();
  std::vector<HostTensor> args = makeArguments(lossType, 5);
  expectCorrect(*lossProgram, *module, "loss", args);
  args.pop_back();
  expectCorrect(*forwardProgram, *module, "forward", args);
}

TEST_F(CpuRunnerTest, OneThreadNeedsNoOpenMP) {
  OwningOpRef<ModuleOp> module = parse(kLarge);
  ASSERT_TRUE(module);
  CpuOptions options;
  options.threads = 1;
  llvm::Expected<std::string> object =
      cpu::compileCpuObject(*module, "large", options);
  ASSERT_TRUE(bool(object)) << llvm::toString(object.takeError());
  EXPECT_EQ(object->find("libomp"), std::string::npos);
}

TEST_F(CpuRunnerTest, RunsOnThreads) {
  OwningOpRef<ModuleOp> module = parse(kLarge);
  ASSERT_TRUE(module);
  CpuOptions options;
  options.threads = 2;
  std::optional<rt::Artifact> artifact = exportCpu(*module, "large", options);
  ASSERT_TRUE(artifact);
  // Where no OpenMP runtime is installed the code runs on one thread, as
  // the JIT's does; otherwise the object depends on libomp.so.5.
  llvm::Expected<std::unique_ptr<CpuExecutable>> jit =
      CpuExecutable::compile(*module, "large", options);
  ASSERT_TRUE(bool(jit)) << llvm::toString(jit.takeError());
  bool threaded = (*jit)->getNumThreads() > 1;
  EXPECT_EQ(
      artifact->findSection(rt::section::kCpuObject)->find("libomp.so.5") !=
          std::string::npos,
      threaded);
  std::unique_ptr<rt::Program> program = load(std::move(*artifact));
  ASSERT_TRUE(program);
  auto type = module->lookupSymbol<func::FuncOp>("large").getFunctionType();
  expectCorrect(*program, *module, "large", makeArguments(type, 6), options);
}

TEST_F(CpuRunnerTest, RejectsWhatIsNotItsCode) {
  rt::Signature signature;
  rt::Expected<std::unique_ptr<rt::Runner>> garbage =
      rt::createCpuRunner(signature, "not a shared object");
  ASSERT_FALSE(garbage);
  EXPECT_NE(garbage.takeError().getMessage().find("cannot load the CPU code"),
            std::string::npos);

  // A shared object, but not ens's CPU code.
  llvm::Expected<std::string> compiler = findHostCompiler("CpuRunnerTest");
  ASSERT_TRUE(bool(compiler)) << llvm::toString(compiler.takeError());
  HostBuild build;
  build.directoryPrefix = "ens-cpu-runner-test";
  build.files = {{"other.cpp", "extern \"C\" int other() { return 1; }\n"}};
  build.options = {"-shared", "-fPIC"};
  build.output = "other.so";
  build.inputs = {"other.cpp"};
  build.what = "another shared object";
  llvm::Expected<std::string> other = runHostBuild(*compiler, build);
  ASSERT_TRUE(bool(other)) << llvm::toString(other.takeError());
  rt::Expected<std::unique_ptr<rt::Runner>> foreign =
      rt::createCpuRunner(signature, *other);
  ASSERT_FALSE(foreign);
  EXPECT_EQ(foreign.takeError().getMessage(),
            "the CPU code defines no ens_cpu_init and ens_cpu_entry: it was "
            "not built by ens for this runtime");

  rt::Artifact artifact;
  artifact.target = rt::ArtifactTarget::Cpu;
  rt::Expected<std::unique_ptr<rt::Program>> noSection =
      rt::Program::load(artifact, rt::Backend::Cpu);
  ASSERT_FALSE(noSection);
  EXPECT_EQ(noSection.takeError().getMessage(), "the artifact has no CPU code");
}

TEST_F(CpuRunnerTest, ReportsAMissingEntry) {
  OwningOpRef<ModuleOp> module = parse(kSeveralResults);
  ASSERT_TRUE(module);
  llvm::Expected<std::string> object =
      cpu::compileCpuObject(*module, "missing");
  ASSERT_FALSE(bool(object));
  EXPECT_EQ(llvm::toString(object.takeError()), "no function named 'missing'");
}

} // namespace
