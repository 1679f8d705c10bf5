//===- SourceChunksTest.cpp - Tests of splitting IR text by function ------===//

#include "ens/Support/SourceChunks.h"

#include "gtest/gtest.h"

using namespace mlir::ens;

namespace {

/// The text of each range findFunctionRanges finds.
std::vector<std::string> functionTexts(llvm::StringRef text) {
  std::vector<std::string> texts;
  for (auto [begin, end] : findFunctionRanges(text))
    texts.push_back(text.slice(begin, end).rtrim(" \n").str());
  return texts;
}

TEST(SourceChunksTest, TopLevelFunctionsAndKeptAliases) {
  const char *text = "#map = affine_map<(d0) -> (d0)>\n"
                     "func.func @f(%x: tensor<f32>)\n"
                     "    -> tensor<f32> {\n"
                     "  return %x : tensor<f32>\n"
                     "}\n"
                     "!t = tensor<f32>\n"
                     "\"func.func\"() ({\n"
                     "}) {sym_name = \"g\"} : () -> ()\n";
  EXPECT_EQ(functionTexts(text),
            (std::vector<std::string>{
                "func.func @f(%x: tensor<f32>)\n    -> tensor<f32> {\n"
                "  return %x : tensor<f32>\n}",
                "\"func.func\"() ({\n}) {sym_name = \"g\"} : () -> ()"}));
}

TEST(SourceChunksTest, FunctionsOfAModuleEndAtItsBrace) {
  const char *text = "module attributes {a = \"func.func\"} {\n"
                     "  // func.func in a comment\n"
                     "  func.func @f() {\n"
                     "    return\n"
                     "  }\n"
                     "  func.func private @g()\n"
                     "}\n";
  EXPECT_EQ(functionTexts(text),
            (std::vector<std::string>{"func.func @f() {\n    return\n  }",
                                      "func.func private @g()"}));
}

TEST(SourceChunksTest, NestedFunctionsAndOtherWordsDoNotSplit) {
  // A function's body is never split, whatever it holds; neither is a
  // word that only starts like func.func.
  const char *text = "func.func @f() {\n"
                     "  func.func @inner() {\n"
                     "  }\n"
                     "}\n"
                     "func.funcs @g\n";
  EXPECT_EQ(functionTexts(text),
            (std::vector<std::string>{"func.func @f() {\n  func.func @inner() "
                                      "{\n  }\n}\nfunc.funcs @g"}));
}

TEST(SourceChunksTest, CopiesBlankTheOtherFunctionsKeepingPositions) {
  const char *text = "#a = 1\nfunc.func @f()\nfunc.func @g()\n";
  std::vector<std::string> copies = splitFunctionsApart(text);
  ASSERT_EQ(copies.size(), 2u);
  EXPECT_EQ(copies[0], "#a = 1\nfunc.func @f()\n              \n");
  EXPECT_EQ(copies[1], "#a = 1\n              \nfunc.func @g()\n");
  // One function needs no copies.
  EXPECT_TRUE(splitFunctionsApart("func.func @f()\n").empty());
}

} // namespace
