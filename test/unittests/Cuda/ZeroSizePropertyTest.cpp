//===- ZeroSizePropertyTest.cpp - Random ensembles with empty dimensions --===//
//
// Random one-layer ensembles, tanh(x·W + b) summed over the batch, whose
// batch, input and output sizes are often 0: a contraction over K = 0
// gives zeros, a sum over no rows gives 0, and an empty result stays
// empty. The CPU backend and the emulator must agree with the interpreter
// on every draw, or refuse it with an error; neither may crash.
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

#include "llvm/Support/FormatVariadic.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

using namespace mlir;
using namespace mlir::ens;
using mlir::ens::test::RandomSource;
using mlir::ens::test::Shape;
using mlir::ens::test::tensorType;

namespace {

/// The ensemble's source for `members` members, a shared batch of `rows`
/// rows of `inputs` features, and `outputs` outputs per member.
std::string makeEnsemble(int64_t members, int64_t rows, int64_t inputs,
                         int64_t outputs) {
  std::string x = tensorType({rows, inputs}, DType::F32);
  std::string w = tensorType({inputs, outputs}, DType::F32);
  std::string b = tensorType({outputs}, DType::F32);
  std::string h = tensorType({rows, outputs}, DType::F32);
  std::string ws = tensorType({members, inputs, outputs}, DType::F32);
  std::string bs = tensorType({members, outputs}, DType::F32);
  std::string out = tensorType({members, outputs}, DType::F32);
  std::string text = R"(
func.func private @member(%x: X, %w: W, %b: B) -> B {
  %y = ens.matmul %x, %w : X, W -> H
  %bb = ens.broadcast_in_dim %b {dims = array<i64: 1>} : B -> H
  %z = ens.add %y, %bb : H
  %t = ens.tanh %z : H
  %s = ens.reduce_sum %t {dims = array<i64: 0>} : H -> B
  return %s : B
}
func.func @ensemble(%x: X, %w: WS, %b: BS) -> OUT {
  %r = ens.vmap @member(%x, %w, %b) {in_axes = array<i64: -1, 0, 0>,
      out_axes = array<i64: 0>, size = MEMBERS : i64} : (X, WS, BS) -> OUT
  return %r : OUT
}
)";
  // Longest names first, so that no name is replaced inside another.
  std::pair<const char *, std::string> names[] = {
      {"MEMBERS", std::to_string(members)},
      {"OUT", out},
      {"WS", ws},
      {"BS", bs},
      {"X", x},
      {"W", w},
      {"B", b},
      {"H", h}};
  for (const auto &[name, value] : names)
    for (size_t at = text.find(name); at != std::string::npos;
         at = text.find(name, at + value.size()))
      text.replace(at, std::strlen(name), value);
  return text;
}

/// A size that is 0 a third of the time.
int64_t drawSize(RandomSource &random) {
  return random.coin(1.0 / 3) ? 0 : random.integer(1, 3);
}

HostTensor randomTensor(RandomSource &random, Shape shape) {
  HostTensor tensor(DType::F32, shape);
  for (double &value : tensor.values)
    value = random.real(-1, 1);
  tensor.roundToDType();
  return tensor;
}

void expectClose(const std::vector<HostTensor> &expected,
                 const std::vector<HostTensor> &actual, const char *backend) {
  ASSERT_EQ(expected.size(), actual.size()) << backend;
  for (auto [want, got] : llvm::zip(expected, actual)) {
    ASSERT_EQ(want.shape, got.shape) << backend;
    for (size_t i = 0; i < want.values.size(); ++i)
      EXPECT_NEAR(got.values[i], want.values[i],
                  1e-5 + 1e-5 * std::abs(want.values[i]))
          << backend << " element " << i;
  }
}

TEST(ZeroSizePropertyTest, BackendsAgreeWithTheInterpreter) {
  DialectRegistry registry;
  registerAllDialects(registry);
  registerCpuBackendDialects(registry);
  MLIRContext context(registry);
  RandomSource random(20261123);
  int empty = 0;
  for (int draw = 0; draw < 10; ++draw) {
    int64_t members = random.integer(1, 3);
    int64_t rows = drawSize(random), inputs = drawSize(random),
            outputs = drawSize(random);
    SCOPED_TRACE(llvm::formatv("members {0}, rows {1}, inputs {2}, outputs "
                               "{3}",
                               members, rows, inputs, outputs)
                     .str());
    empty += rows == 0 || inputs == 0 || outputs == 0;
    OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(
        makeEnsemble(members, rows, inputs, outputs), &context);
    ASSERT_TRUE(module);
    std::vector<HostTensor> args = {
        randomTensor(random, {rows, inputs}),
        randomTensor(random, {members, inputs, outputs}),
        randomTensor(random, {members, outputs})};
    auto entry = module->lookupSymbol<func::FuncOp>("ensemble");
    llvm::Expected<std::vector<HostTensor>> expected =
        Interpreter(*module).run(entry, args);
    ASSERT_TRUE(static_cast<bool>(expected))
        << llvm::toString(expected.takeError());

    llvm::Expected<std::unique_ptr<CpuExecutable>> cpu =
        CpuExecutable::compile(*module, "ensemble");
    ASSERT_TRUE(static_cast<bool>(cpu)) << llvm::toString(cpu.takeError());
    llvm::Expected<std::vector<HostTensor>> onCpu = (*cpu)->run(args);
    ASSERT_TRUE(static_cast<bool>(onCpu)) << llvm::toString(onCpu.takeError());
    expectClose(*expected, *onCpu, "cpu");

    llvm::Expected<cuda::CudaProgram> program =
        cuda::generateCuda(*module, "ensemble");
    ASSERT_TRUE(static_cast<bool>(program))
        << llvm::toString(program.takeError());
    llvm::Expected<std::unique_ptr<cuda::EmulatedExecutable>> emulated =
        cuda::EmulatedExecutable::compile(std::move(*program));
    ASSERT_TRUE(static_cast<bool>(emulated))
        << llvm::toString(emulated.takeError());
    llvm::Expected<std::vector<HostTensor>> onEmulator = (*emulated)->run(args);
    ASSERT_TRUE(static_cast<bool>(onEmulator))
        << llvm::toString(onEmulator.takeError());
    expectClose(*expected, *onEmulator, "cuda-emu");
  }
  // The draws must exercise empty dimensions (and some non-empty ones).
  EXPECT_GE(empty, 3);
  EXPECT_LE(empty, 9);
}

} // namespace
