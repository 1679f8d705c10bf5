//===- EscapeTest.cpp - Tests of escaping input text for comments ---------===//

#include "ens/Support/Escape.h"

#include "gtest/gtest.h"

using namespace mlir::ens;

namespace {

TEST(EscapeTest, KeepsOpNames) {
  EXPECT_EQ(escapeForComment("ens.add, ens.matmul (x <= y)"),
            "ens.add, ens.matmul (x <= y)");
}

TEST(EscapeTest, EscapesEverythingThatCouldEndAComment) {
  EXPECT_EQ(escapeForComment("a\nb"), "a\\x0ab");
  EXPECT_EQ(escapeForComment("*/"), "\\x2a\\x2f");
  EXPECT_EQ(escapeForComment("end\\"), "end\\x5c");
  EXPECT_EQ(escapeForComment("?\?/"), "\\x3f\\x3f\\x2f");
  EXPECT_EQ(escapeForComment("\r\"'`"), "\\x0d\\x22\\x27\\x60");
  EXPECT_EQ(escapeForComment("\xc3\xa9"), "\\xc3\\xa9");
  EXPECT_EQ(escapeForComment(llvm::StringRef("\0", 1)), "\\x00");
}

TEST(EscapeTest, OutputHasOnlySafeBytes) {
  std::string all;
  for (int c = 0; c < 256; ++c)
    all += static_cast<char>(c);
  std::string escaped = escapeForComment(all);
  for (char c : escaped) {
    EXPECT_NE(c, '\n');
    EXPECT_NE(c, '\r');
    EXPECT_NE(c, '*');
    EXPECT_NE(c, '/');
    EXPECT_NE(c, '?');
    EXPECT_GE(static_cast<unsigned char>(c), 0x20);
    EXPECT_LT(static_cast<unsigned char>(c), 0x7f);
  }
  // Every backslash starts an escape, so none ends a line.
  for (size_t i = escaped.find('\\'); i != std::string::npos;
       i = escaped.find('\\', i + 1))
    EXPECT_EQ(escaped[i + 1], 'x');
}

} // namespace
