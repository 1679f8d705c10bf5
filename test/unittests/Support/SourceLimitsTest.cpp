//===- SourceLimitsTest.cpp - Tests of the parser's input bounds ----------===//

#include "ens/Support/SourceLimits.h"

#include "gtest/gtest.h"

#include <string>

using namespace mlir::ens;

namespace {

std::string check(const std::string &text) {
  llvm::Error error = checkSourceLimits(text, "in.mlir");
  return error ? llvm::toString(std::move(error)) : "";
}

TEST(SourceLimitsTest, AcceptsOrdinaryIR) {
  EXPECT_EQ(check("func.func @f(%a: tensor<2x3xf32>) -> tensor<2x3xf32> {\n"
                  "  %0:2 = call @g(%a) : (tensor<2x3xf32>) -> (i1, i1)\n"
                  "  %c = arith.constant dense<[[1.0, 2.0]]> : "
                  "tensor<1x2xf32>\n"
                  "  return %0#1 : tensor<2x3xf32>\n}\n"),
            "");
  // Brackets in strings and comments do not count.
  EXPECT_EQ(check(std::string("// ") + std::string(1000, '[') + "\n\"" +
                  std::string(1000, '(') + "\""),
            "");
}

TEST(SourceLimitsTest, RejectsDeepNesting) {
  std::string deep = "%c = arith.constant dense<" +
                     std::string(kMaxSourceNesting, '[') + "1" +
                     std::string(kMaxSourceNesting, ']') + ">";
  EXPECT_EQ(check(deep),
            "in.mlir:1:" + std::to_string(27 + kMaxSourceNesting - 1) +
                ": error: nesting deeper than 256 levels");
  // Exactly the limit passes: 255 brackets inside the `<`.
  std::string atLimit = "dense<" + std::string(kMaxSourceNesting - 1, '[') +
                        std::string(kMaxSourceNesting - 1, ']') + ">";
  EXPECT_EQ(check(atLimit), "");
  EXPECT_NE(check("x\n" + std::string(100000, '<')).find("in.mlir:2:257:"),
            std::string::npos);
}

TEST(SourceLimitsTest, RejectsHugeResultNumbers) {
  EXPECT_EQ(check("return %r#65535"), "");
  EXPECT_EQ(
      check("return %r#3037000500"),
      "in.mlir:1:10: error: result number #3037000500 is over the limit of "
      "65535");
  EXPECT_NE(check("return %r#" + std::string(400, '9')).find("over the limit"),
            std::string::npos);
  // Attribute aliases are not value references.
  EXPECT_EQ(check("#map = affine_map<(d0) -> (d0)>"), "");
}

TEST(SourceLimitsTest, LargeStackRunsDeepRecursion) {
  // About 64 MiB of frames: far past the default 8 MiB stack.
  struct Recurse {
    static int depth(int n) {
      volatile char frame[1024];
      frame[0] = static_cast<char>(n);
      return n == 0 ? 0 : depth(n - 1) + 1 + (frame[0] - static_cast<char>(n));
    }
  };
  int result = -1;
  runWithLargeStack([&] { result = Recurse::depth(64 * 1024); });
  EXPECT_EQ(result, 64 * 1024);
}

} // namespace
