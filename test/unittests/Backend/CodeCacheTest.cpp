//===- CodeCacheTest.cpp - Compiled CPU code on disk ----------------------===//
//
// The CPU backend's persistent cache: a second compile of a function loads
// the stored object and computes the hand-computed values, as the first
// did; an entry that is truncated, has a flipped bit, or holds the object
// of another signature is compiled again and replaced, never called; keys
// differ with every option and with the host CPU's name and features;
// threads compiling one function at once (each in its own context) all get
// working code and leave one whole entry.
//
//===----------------------------------------------------------------------===//

#include "ens/Backend/Cpu/CodeCache.h"
#include "ens/Backend/CpuBackend.h"
#include "ens/InitAllDialects.h"
#include "ens/Support/DiskCache.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include "ScaleProgram.h"
#include "TestFiles.h"

#include <gtest/gtest.h>

#include <set>
#include <thread>

using namespace mlir;
using namespace mlir::ens;
using namespace mlir::ens::cpu;

namespace {

/// Registers in `context` the dialects the CPU backend compiles from.
void addDialects(MLIRContext &context) {
  DialectRegistry registry;
  registerAllDialects(registry);
  registerCpuBackendDialects(registry);
  context.appendDialectRegistry(registry);
}

/// @scale and a second function, whose code must never be served for it.
const std::string kProgram = std::string(test::kScaleProgram) + R"(
func.func @other(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = ens.add %x, %x : tensor<4xf32>
  return %y : tensor<4xf32>
}
)";

class CodeCacheTest : public ::testing::Test {
protected:
  void SetUp() override {
    addDialects(context);
    module = parseSourceString<ModuleOp>(kProgram, &context);
    ASSERT_TRUE(module);
    ASSERT_FALSE(
        llvm::sys::fs::createUniqueDirectory("ens-code-cache", directory));
    ASSERT_FALSE(llvm::sys::fs::setPermissions(
        directory, llvm::sys::fs::perms::owner_all));
    options.threads = 1;
  }
  void TearDown() override { llvm::sys::fs::remove_directories(directory); }

  /// @scale through the cache, which must serve it.
  std::optional<CachedCode> load() {
    llvm::Expected<std::optional<CachedCode>> code =
        loadOrCompileCode(*module, "scale", options, directory);
    if (!code) {
      ADD_FAILURE() << llvm::toString(code.takeError());
      return std::nullopt;
    }
    EXPECT_TRUE(code->has_value()) << "the cache did not serve";
    return std::move(*code);
  }

  /// Runs `code` of @scale and expects the hand-computed values.
  void expectScale(CachedCode &code) {
    std::vector<float> x(test::kScaleX.begin(), test::kScaleX.end());
    std::vector<float> w(test::kScaleW.begin(), test::kScaleW.end());
    float y[6], s[2];
    ASSERT_FALSE(bool(code.runner->runOnHost({x.data(), w.data()}, {y, s})));
    for (int i = 0; i < 6; ++i)
      EXPECT_FLOAT_EQ(y[i], test::kScaleY[i]) << "y[" << i << "]";
    for (int i = 0; i < 2; ++i)
      EXPECT_FLOAT_EQ(s[i], test::kScaleS[i]) << "s[" << i << "]";
  }

  /// The one entry file of the cache.
  std::string getEntryPath() {
    std::vector<std::string> files;
    std::error_code ec;
    llvm::SmallString<128> cpu(directory);
    llvm::sys::path::append(cpu, "cpu");
    for (llvm::sys::fs::directory_iterator it(cpu, ec), end; !ec && it != end;
         it.increment(ec))
      files.push_back(it->path());
    EXPECT_EQ(files.size(), 1u);
    return files.empty() ? std::string() : files.front();
  }

  /// Replaces the entry with `damage` of its bytes, then expects a compile
  /// that computes the right values and writes a new entry.
  void expectRebuiltAfter(llvm::function_ref<std::string(std::string)> damage) {
    std::optional<CachedCode> first = load();
    ASSERT_TRUE(first);
    std::string path = getEntryPath();
    std::string damaged = damage(test::readFileBytes(path));
    test::writeFileBytes(path, damaged);
    std::optional<CachedCode> again = load();
    ASSERT_TRUE(again);
    EXPECT_EQ(again->origin, CodeOrigin::Compiled);
    expectScale(*again);
    EXPECT_NE(test::readFileBytes(path), damaged);
    std::optional<CachedCode> healed = load();
    ASSERT_TRUE(healed);
    EXPECT_EQ(healed->origin, CodeOrigin::Disk);
  }

  MLIRContext context;
  OwningOpRef<ModuleOp> module;
  llvm::SmallString<128> directory;
  CpuOptions options;
};

TEST_F(CodeCacheTest, HitComputesWhatTheCompileDid) {
  std::optional<CachedCode> first = load();
  ASSERT_TRUE(first);
  EXPECT_EQ(first->origin, CodeOrigin::Compiled);
  EXPECT_EQ(first->threads, 1u);
  expectScale(*first);
  std::string entry = test::readFileBytes(getEntryPath());
  std::optional<CachedCode> second = load();
  ASSERT_TRUE(second);
  EXPECT_EQ(second->origin, CodeOrigin::Disk);
  EXPECT_EQ(second->threads, 1u);
  expectScale(*second);
  // A hit leaves the entry as it was.
  EXPECT_EQ(test::readFileBytes(getEntryPath()), entry);
}

TEST_F(CodeCacheTest, TruncatedEntryIsRebuilt) {
  expectRebuiltAfter([](std::string bytes) {
    bytes.resize(bytes.size() / 2);
    return bytes;
  });
}

TEST_F(CodeCacheTest, FlippedBitIsRebuilt) {
  // A bit in the middle of the object, then one in the checksum.
  expectRebuiltAfter([](std::string bytes) {
    bytes[bytes.size() / 2] ^= 0x10;
    return bytes;
  });
  expectRebuiltAfter([](std::string bytes) {
    bytes.back() ^= 0x01;
    return bytes;
  });
}

TEST_F(CodeCacheTest, ObjectOfAnotherSignatureIsNotCalled) {
  std::optional<CachedCode> first = load();
  ASSERT_TRUE(first);
  std::string path = getEntryPath();
  std::string key = llvm::sys::path::stem(path).str();
  // A whole, valid entry under @scale's key that holds @other's code, as a
  // key collision or a stale build would: the signature check refuses it.
  llvm::Expected<std::string> other =
      compileCpuObject(*module, "other", options);
  ASSERT_TRUE(bool(other)) << llvm::toString(other.takeError());
  DiskCache(directory, "cpu", ".so", "ENSCPU01").write(key, {"1", *other});
  std::string planted = test::readFileBytes(path);
  ASSERT_NE(planted.find(*other), std::string::npos);
  std::optional<CachedCode> again = load();
  ASSERT_TRUE(again);
  EXPECT_EQ(again->origin, CodeOrigin::Compiled);
  expectScale(*again);
  EXPECT_NE(test::readFileBytes(path), planted);
}

TEST_F(CodeCacheTest, KeysDifferWithOptionsAndHost) {
  HostCpu host{"sapphirerapids", "+avx2,+avx512f,+fma"};
  std::string key = getCodeCacheKey(*module, "scale", options, host);
  ASSERT_EQ(key.size(), 32u);
  EXPECT_EQ(getCodeCacheKey(*module, "scale", options, host), key);

  std::set<std::string> keys = {key};
  HostCpu otherName{"znver4", host.features};
  HostCpu otherFeatures{host.name, "+avx2,-avx512f,+fma"};
  HostCpu otherL2{host.name, host.features, 2 << 20};
  CpuOptions twoThreads = options, smallBuffers = options;
  twoThreads.threads = 2;
  smallBuffers.maxBufferBytes = 1 << 20;
  keys.insert(getCodeCacheKey(*module, "scale", options, otherName));
  keys.insert(getCodeCacheKey(*module, "scale", options, otherFeatures));
  keys.insert(getCodeCacheKey(*module, "scale", options, otherL2));
  keys.insert(getCodeCacheKey(*module, "scale", twoThreads, host));
  keys.insert(getCodeCacheKey(*module, "scale", smallBuffers, host));
  keys.insert(getCodeCacheKey(*module, "other", options, host));
  // The same module with a declaration more.
  OwningOpRef<ModuleOp> changed = parseSourceString<ModuleOp>(
      kProgram + "func.func private @c() -> tensor<f32>\n", &context);
  ASSERT_TRUE(changed);
  keys.insert(getCodeCacheKey(*changed, "scale", options, host));
  EXPECT_EQ(keys.size(), 8u);
}

TEST_F(CodeCacheTest, OtherOptionsMiss) {
  std::optional<CachedCode> first = load();
  ASSERT_TRUE(first);
  options.maxBufferBytes = 1 << 20;
  std::optional<CachedCode> second = load();
  ASSERT_TRUE(second);
  EXPECT_EQ(second->origin, CodeOrigin::Compiled);
  expectScale(*second);
}

TEST_F(CodeCacheTest, ConcurrentCompilesLeaveOneWholeEntry) {
  // One context per thread: an MLIRContext does not load dialects for
  // several pass managers at once.
  constexpr int kThreads = 4;
  std::vector<std::optional<CachedCode>> codes(kThreads);
  std::vector<std::string> failures(kThreads);
  {
    std::vector<std::thread> threads;
    for (int i = 0; i < kThreads; ++i)
      threads.emplace_back([&, i] {
        MLIRContext own;
        addDialects(own);
        OwningOpRef<ModuleOp> copy =
            parseSourceString<ModuleOp>(kProgram, &own);
        if (!copy) {
          failures[i] = "cannot parse";
          return;
        }
        llvm::Expected<std::optional<CachedCode>> code =
            loadOrCompileCode(*copy, "scale", options, directory);
        if (!code)
          failures[i] = llvm::toString(code.takeError());
        else
          codes[i] = std::move(*code);
      });
    for (std::thread &thread : threads)
      thread.join();
  }
  for (int i = 0; i < kThreads; ++i) {
    EXPECT_EQ(failures[i], "");
    ASSERT_TRUE(codes[i]) << "thread " << i;
    expectScale(*codes[i]);
  }
  getEntryPath();
  std::optional<CachedCode> after = load();
  ASSERT_TRUE(after);
  EXPECT_EQ(after->origin, CodeOrigin::Disk);
}

TEST_F(CodeCacheTest, NoDirectoryNoCache) {
  llvm::Expected<std::optional<CachedCode>> code =
      loadOrCompileCode(*module, "scale", options, "");
  ASSERT_TRUE(bool(code)) << llvm::toString(code.takeError());
  EXPECT_FALSE(code->has_value());
}

} // namespace
