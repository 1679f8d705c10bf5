//===- InterpreterTest.cpp - Interpreter tests of calls and errors --------===//
//
// Programs of several functions (func.call with several results, deep call
// chains) and every way Interpreter::run reports an error instead of
// running: bad arguments, an unknown entry, a body-less function and
// recursion.
//
//===----------------------------------------------------------------------===//

#include "TestUtils.h"

#include "llvm/Support/FormatVariadic.h"

#include <string>

using namespace mlir::ens;
using namespace mlir::ens::test;

namespace {

/// Runs `entry` of `program` and returns the error message; a success
/// fails the test.
std::string runError(Program &program, llvm::StringRef entry,
                     llvm::ArrayRef<HostTensor> args) {
  llvm::Expected<std::vector<HostTensor>> results = program.run(entry, args);
  if (results) {
    ADD_FAILURE() << "@" << entry.str() << " ran without an error";
    return "";
  }
  return llvm::toString(results.takeError());
}

//===----------------------------------------------------------------------===//
// Calls
//===----------------------------------------------------------------------===//

constexpr const char *kCallProgram = R"mlir(
// Returns x * s and x * s + s.
func.func private @affine(%x: tensor<3xf32>, %s: tensor<3xf32>)
    -> (tensor<3xf32>, tensor<3xf32>) {
  %m = ens.mul %x, %s : tensor<3xf32>
  %a = ens.add %m, %s : tensor<3xf32>
  return %m, %a : tensor<3xf32>, tensor<3xf32>
}

func.func @square(%x: tensor<3xf32>) -> tensor<3xf32> {
  %y = ens.square %x : tensor<3xf32>
  return %y : tensor<3xf32>
}

// x^4 through two calls of the same function.
func.func @fourth(%x: tensor<3xf32>) -> tensor<3xf32> {
  %y = call @square(%x) : (tensor<3xf32>) -> tensor<3xf32>
  %z = call @square(%y) : (tensor<3xf32>) -> tensor<3xf32>
  return %z : tensor<3xf32>
}

// Returns ((x*s + s)^4 - x*s, s): results swapped relative to @affine, and
// an argument returned as is.
func.func @main(%x: tensor<3xf32>, %s: tensor<3xf32>)
    -> (tensor<3xf32>, tensor<3xf32>) {
  %m, %a = call @affine(%x, %s)
      : (tensor<3xf32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
  %f = call @fourth(%a) : (tensor<3xf32>) -> tensor<3xf32>
  %r = ens.sub %f, %m : tensor<3xf32>
  return %r, %s : tensor<3xf32>, tensor<3xf32>
}
)mlir";

TEST(CallTest, AcrossFunctions) {
  Random random(81);
  HostTensor x = random.tensor(DType::F32, {3});
  HostTensor s = random.tensor(DType::F32, {3});
  std::vector<HostTensor> results = runProgram(kCallProgram, "main", {x, s});
  ASSERT_EQ(results.size(), 2u);
  // Each op rounds to f32, so round the intermediate values too.
  std::vector<double> expected;
  for (int i = 0; i < 3; ++i) {
    float m = static_cast<float>(x.values[i] * s.values[i]);
    float a = static_cast<float>(double(m) + s.values[i]);
    float a2 = static_cast<float>(double(a) * a);
    float a4 = static_cast<float>(double(a2) * a2);
    expected.push_back(double(a4) - m);
  }
  expectTensor(results[0], DType::F32, {3}, expected, Match::Exact);
  expectTensor(results[1], DType::F32, {3}, s.values, Match::Exact);
}

TEST(CallTest, DeepChainRuns) {
  // @f0 calls @f1 calls ... @f199, each adding one: deep, but not
  // recursive, so it must run.
  constexpr int kDepth = 200;
  std::string source;
  for (int i = 0; i < kDepth; ++i) {
    source += llvm::formatv("func.func @f{0}(%x: tensor<i32>) -> tensor<i32> "
                            "{{\n  %one = ens.constant dense<1> : "
                            "tensor<i32>\n  %y = ens.add %x, %one : "
                            "tensor<i32>\n",
                            i)
                  .str();
    if (i + 1 < kDepth)
      source += llvm::formatv("  %z = call @f{0}(%y) : (tensor<i32>) -> "
                              "tensor<i32>\n  return %z : tensor<i32>\n}\n",
                              i + 1)
                    .str();
    else
      source += "  return %y : tensor<i32>\n}\n";
  }
  std::vector<HostTensor> results =
      runProgram(source, "f0", {HostTensor(DType::I32, {}, {5})});
  ASSERT_EQ(results.size(), 1u);
  expectTensor(results[0], DType::I32, {}, {5 + kDepth});
}

TEST(CallTest, InterpreterIsReusable) {
  // One interpreter runs several entries in turn, and a failed run (here a
  // recursive one) leaves it able to run again.
  Program program(R"mlir(
func.func @double(%x: tensor<2xf64>) -> tensor<2xf64> {
  %y = ens.add %x, %x : tensor<2xf64>
  return %y : tensor<2xf64>
}
func.func @loop(%x: tensor<2xf64>) -> tensor<2xf64> {
  %y = call @loop(%x) : (tensor<2xf64>) -> tensor<2xf64>
  return %y : tensor<2xf64>
}
)mlir");
  ASSERT_TRUE(program.isValid());
  Interpreter interpreter(program.getModule());
  HostTensor x(DType::F64, {2}, {1.5, -4});
  for (int i = 0; i < 2; ++i) {
    llvm::Expected<std::vector<HostTensor>> ok = interpreter.run("double", x);
    ASSERT_TRUE(static_cast<bool>(ok)) << llvm::toString(ok.takeError());
    expectTensor(ok->front(), DType::F64, {2}, {3, -8}, Match::Exact);
    llvm::Expected<std::vector<HostTensor>> bad = interpreter.run("loop", x);
    ASSERT_FALSE(static_cast<bool>(bad));
    EXPECT_NE(llvm::toString(bad.takeError()).find("recursive"),
              std::string::npos);
  }
}

//===----------------------------------------------------------------------===//
// Errors
//===----------------------------------------------------------------------===//

constexpr const char *kAddProgram = R"mlir(
func.func @add(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %c = ens.add %a, %b : tensor<2x3xf32>
  return %c : tensor<2x3xf32>
}
func.func private @external(tensor<2x3xf32>) -> tensor<2x3xf32>
)mlir";

struct ArgumentErrorCase {
  const char *name;
  std::vector<HostTensor> args;
  const char *message;
};

TEST(ErrorTest, BadArguments) {
  HostTensor good(DType::F32, {2, 3});
  // HostTensor's fields are public, so a caller can break its invariant.
  HostTensor inconsistent = good;
  inconsistent.values.pop_back();
  ArgumentErrorCase cases[] = {
      {"values do not fill the shape",
       {good, inconsistent},
       "argument 1: holds 5 values for shape tensor<2x3xf32>"},
      {"too few", {good}, "@add: expected 2 argument(s), got 1"},
      {"too many", {good, good, good}, "expected 2 argument(s), got 3"},
      {"none", {}, "expected 2 argument(s), got 0"},
      {"shape",
       {good, HostTensor(DType::F32, {3, 2})},
       "argument 1: expected tensor<2x3xf32>, got tensor<3x2xf32>"},
      {"rank",
       {HostTensor(DType::F32, {6}), good},
       "argument 0: expected tensor<2x3xf32>, got tensor<6xf32>"},
      {"dtype",
       {HostTensor(DType::F64, {2, 3}), good},
       "argument 0: expected tensor<2x3xf32>, got tensor<2x3xf64>"},
      {"integer",
       {good, HostTensor(DType::I32, {2, 3})},
       "argument 1: expected tensor<2x3xf32>, got tensor<2x3xi32>"},
  };
  Program program(kAddProgram);
  ASSERT_TRUE(program.isValid());
  for (const ArgumentErrorCase &c : cases) {
    SCOPED_TRACE(c.name);
    EXPECT_NE(runError(program, "add", c.args).find(c.message),
              std::string::npos)
        << "expected the message to contain: " << c.message;
  }
}

TEST(ErrorTest, UnknownEntry) {
  Program program(kAddProgram);
  ASSERT_TRUE(program.isValid());
  std::string message = runError(program, "nope", {});
  EXPECT_NE(message.find("no function named 'nope'"), std::string::npos)
      << message;
}

TEST(ErrorTest, FunctionWithoutBody) {
  Program program(kAddProgram);
  ASSERT_TRUE(program.isValid());
  std::string message =
      runError(program, "external", {HostTensor(DType::F32, {2, 3})});
  EXPECT_NE(message.find("@external: function has no body"), std::string::npos)
      << message;
}

TEST(ErrorTest, RecursionIsReported) {
  Program program(R"mlir(
func.func @self(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = ens.neg %x : tensor<4xf32>
  %z = call @self(%y) : (tensor<4xf32>) -> tensor<4xf32>
  return %z : tensor<4xf32>
}
func.func @ping(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = call @pong(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}
func.func @pong(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = call @ping(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}
)mlir");
  ASSERT_TRUE(program.isValid());
  HostTensor x(DType::F32, {4});
  for (const char *entry : {"self", "ping"}) {
    SCOPED_TRACE(entry);
    std::string message = runError(program, entry, x);
    EXPECT_NE(message.find("recursive"), std::string::npos) << message;
  }
}

} // namespace
