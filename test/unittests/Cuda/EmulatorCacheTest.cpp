//===- EmulatorCacheTest.cpp - The emulator's cache of built objects ------===//
//
// The emulator's shared objects are reused from the cache, and a cache entry
// that is not exactly what ens wrote for that program (truncated, corrupted,
// another program's, a planted shared object, a FIFO, a link, another
// user's file) is rebuilt and replaced, never loaded. Builds leave no
// directory behind, also when they fail; a cache directory that others can
// write is refused; objects loaded one after another each run their own
// code. A wrapper around the host compiler counts the builds.
//
//===----------------------------------------------------------------------===//

#include "ens/Backend/Cuda/Emulator.h"
#include "ens/Runtime/Runner.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"

#include "TestFiles.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <functional>
#include <sys/stat.h>
#include <unistd.h>

using namespace mlir;
using namespace mlir::ens;
using namespace mlir::ens::cuda;

namespace {

/// Sets an environment variable for the life of the object.
class ScopedEnvironment {
public:
  ScopedEnvironment(const char *name, StringRef value) : name(name) {
    if (const char *old = std::getenv(name))
      previous = old;
    ::setenv(name, value.str().c_str(), 1);
  }
  ~ScopedEnvironment() {
    if (previous)
      ::setenv(name, previous->c_str(), 1);
    else
      ::unsetenv(name);
  }

private:
  const char *name;
  std::optional<std::string> previous;
};

class EmulatorCacheTest : public ::testing::Test {
protected:
  void SetUp() override {
    llvm::SmallString<128> model;
    llvm::sys::path::system_temp_directory(true, model);
    llvm::sys::path::append(model, "ens-emulator-cache-XXXXXX");
    root = model.str().str();
    ASSERT_NE(::mkdtemp(root.data()), nullptr);
    cacheDirectory = root + "/cache";
    temporary = root + "/tmp";
    marker = root + "/planted-code-ran";
    ASSERT_EQ(::mkdir(temporary.c_str(), 0700), 0);
    compiler = writeScript("cxx", "echo build >> " + root +
                                      "/builds\nexec c++ \"$@\"\n");
    tmpdir.emplace("TMPDIR", temporary);
    hostCompiler.emplace("ENS_HOST_CXX", compiler);
  }
  void TearDown() override {
    hostCompiler.reset();
    tmpdir.reset();
    llvm::sys::fs::remove_directories(root);
  }

  /// An executable shell script `name` in the test's directory.
  std::string writeScript(StringRef name, StringRef body) {
    std::string path = (root + "/" + name).str();
    test::writeFileBytes(path, ("#!/bin/sh\n" + body).str());
    EXPECT_EQ(::chmod(path.c_str(), 0700), 0);
    return path;
  }

  /// The bytes of a shared object built with c++ from `source`, in the
  /// test's directory as `name`.so; "" (and a failure) if it does not build.
  std::string buildSharedObject(StringRef name, StringRef source) {
    std::string object = (root + "/" + name + ".so").str(),
                file = (root + "/" + name + ".cpp").str();
    test::writeFileBytes(file, source.str());
    llvm::ErrorOr<std::string> cxx = llvm::sys::findProgramByName("c++");
    EXPECT_TRUE(bool(cxx));
    if (!cxx)
      return "";
    StringRef args[] = {*cxx, "-shared", "-fPIC", "-o", object, file};
    EXPECT_EQ(llvm::sys::ExecuteAndWait(*cxx, args), 0);
    return test::readFileBytes(object);
  }
  /// How many times the host compiler ran.
  int getBuilds() {
    std::string log = test::readFileBytes(root + "/builds");
    return std::count(log.begin(), log.end(), '\n');
  }

  /// The names in `directory`, sorted.
  std::vector<std::string> list(StringRef directory) {
    std::vector<std::string> names;
    std::error_code ec;
    for (llvm::sys::fs::directory_iterator it(directory, ec), end;
         it != end && !ec; it.increment(ec))
      names.push_back(llvm::sys::path::filename(it->path()).str());
    llvm::sort(names);
    return names;
  }

  /// A program of one kernel that writes `factor` times its 4-element input.
  /// The kernel waits at a barrier, so the emulator runs its threads as
  /// fibers, and its object registers thread-local destructors.
  CudaProgram makeScale(int factor) {
    Builder builder(&context);
    auto type = RankedTensorType::get({4}, builder.getF32Type());
    CudaProgram program;
    program.source = "extern \"C\" __global__ void scale(float *in, float "
                     "*out) {\n  float x = in[threadIdx.x];\n"
                     "  __syncthreads();\n  out[threadIdx.x] = x * " +
                     std::to_string(factor) + ".0f;\n}\n";
    program.type = builder.getFunctionType({type}, {type});
    for (BufferKind kind : {BufferKind::Input, BufferKind::Output}) {
      BufferInfo buffer;
      buffer.kind = kind;
      buffer.dtype = DType::F32;
      buffer.shape = {4};
      buffer.bytes = 16;
      program.plan.buffers.push_back(buffer);
    }
    KernelInfo kernel;
    kernel.name = "scale";
    kernel.paramTypes = {"float *", "float *"};
    kernel.usesBarriers = true;
    program.plan.kernels.push_back(kernel);
    KernelLaunch launch;
    launch.kernel = 0;
    launch.block = {4, 1, 1};
    launch.args = {{true, 0}, {true, 1}};
    program.plan.launches.push_back(launch);
    program.source += getPlanKernelDefinition(program.plan);
    return program;
  }

  /// Compiles the program of `factor` with the test's cache and checks that
  /// it computes factor * [1, 2, 3, 4].
  void expectScales(int factor) {
    llvm::Expected<std::unique_ptr<EmulatedExecutable>> executable =
        EmulatedExecutable::compile(makeScale(factor), cacheDirectory);
    ASSERT_TRUE(bool(executable)) << llvm::toString(executable.takeError());
    HostTensor input(DType::F32, {4});
    input.values = {1, 2, 3, 4};
    llvm::Expected<std::vector<HostTensor>> results = (*executable)->run(input);
    ASSERT_TRUE(bool(results)) << llvm::toString(results.takeError());
    EXPECT_EQ((*results)[0].values,
              (std::vector<double>{1.0 * factor, 2.0 * factor, 3.0 * factor,
                                   4.0 * factor}));
  }

  /// The permission bits of `path` itself.
  static unsigned getMode(StringRef path) {
    struct stat status;
    if (::lstat(path.str().c_str(), &status) != 0)
      return ~0u;
    return status.st_mode & 07777;
  }

  MLIRContext context;
  std::string root, cacheDirectory, temporary, marker, compiler;
  std::optional<ScopedEnvironment> tmpdir, hostCompiler;
};

TEST_F(EmulatorCacheTest, ObjectsAreCachedPrivatelyAndReused) {
  expectScales(2);
  EXPECT_EQ(getBuilds(), 1);
  expectScales(2);
  EXPECT_EQ(getBuilds(), 1);
  std::vector<std::string> entries = list(cacheDirectory + "/emu");
  ASSERT_EQ(entries.size(), 1u);
  EXPECT_EQ(getMode(cacheDirectory), 0700u);
  EXPECT_EQ(getMode(cacheDirectory + "/emu"), 0700u);
  EXPECT_EQ(getMode(cacheDirectory + "/emu/" + entries[0]), 0600u);
  // The build directory is gone.
  EXPECT_EQ(list(temporary), std::vector<std::string>());
}

TEST_F(EmulatorCacheTest, BadEntriesAreRebuiltNeverLoaded) {
  expectScales(3);
  ASSERT_EQ(list(cacheDirectory + "/emu").size(), 1u);
  std::string other =
      cacheDirectory + "/emu/" + list(cacheDirectory + "/emu")[0];
  expectScales(2);
  std::vector<std::string> entries = list(cacheDirectory + "/emu");
  ASSERT_EQ(entries.size(), 2u);
  std::string path =
      cacheDirectory + "/emu/" +
      (entries[0] == llvm::sys::path::filename(other) ? entries[1]
                                                      : entries[0]);
  std::string good = test::readFileBytes(path);
  ASSERT_GT(good.size(), 5000u);
  std::string copy = root + "/copy.so";
  test::writeFileBytes(copy, good);

  // A shared object with the kernel's entry point whose constructor leaves
  // a mark: what an attacker would plant under the entry's name.
  std::string planted = buildSharedObject(
      "planted",
      "#include <cstdio>\n__attribute__((constructor)) static void "
      "plant() { if (FILE *f = std::fopen(\"" +
          marker +
          "\", \"w\")) std::fclose(f); }\nextern \"C\" void "
          "ens_emu_scale(const unsigned *, const unsigned *, unsigned, "
          "void **) {}\n");
  ASSERT_FALSE(planted.empty());

  std::string flipped = good;
  flipped[flipped.size() / 2] ^= 0x40;
  using Plant = std::function<void()>;
  auto bytes = [&](std::string contents) -> Plant {
    return [&, contents] { test::writeFileBytes(path, contents); };
  };
  std::pair<const char *, Plant> plants[] = {
      {"truncated to 5000 bytes", bytes(good.substr(0, 5000))},
      {"a flipped byte", bytes(flipped)},
      {"another program's entry", bytes(test::readFileBytes(other))},
      {"a planted shared object", bytes(planted)},
      {"a FIFO", [&] { ASSERT_EQ(::mkfifo(path.c_str(), 0600), 0); }},
      {"a link to /dev/zero",
       [&] { ASSERT_EQ(::symlink("/dev/zero", path.c_str()), 0); }},
      {"a link to a good entry",
       [&] { ASSERT_EQ(::symlink(copy.c_str(), path.c_str()), 0); }},
  };
  for (auto &[what, plant] : plants) {
    SCOPED_TRACE(what);
    ASSERT_EQ(::unlink(path.c_str()), 0);
    plant();
    int before = getBuilds();
    expectScales(2);
    EXPECT_EQ(getBuilds(), before + 1);
    EXPECT_FALSE(llvm::sys::fs::exists(marker));
    // The rebuilt entry replaced the file and is used from now on.
    struct stat status;
    ASSERT_EQ(::lstat(path.c_str(), &status), 0);
    EXPECT_TRUE(S_ISREG(status.st_mode));
    expectScales(2);
    EXPECT_EQ(getBuilds(), before + 1);
  }
}

TEST_F(EmulatorCacheTest, EntriesOfAnotherUserAreRebuilt) {
  if (::geteuid() != 0)
    GTEST_SKIP() << "only root can give a file to another user";
  expectScales(2);
  std::string path =
      cacheDirectory + "/emu/" + list(cacheDirectory + "/emu")[0];
  ASSERT_EQ(::chown(path.c_str(), 65534, 65534), 0);
  expectScales(2);
  EXPECT_EQ(getBuilds(), 2);
  expectScales(2);
  EXPECT_EQ(getBuilds(), 2);
}

TEST_F(EmulatorCacheTest, ACacheDirectoryOthersCanWriteIsRefused) {
  expectScales(2);
  std::string emu = cacheDirectory + "/emu";
  ASSERT_EQ(::chmod(emu.c_str(), 0777), 0);
  llvm::Expected<std::unique_ptr<EmulatedExecutable>> executable =
      EmulatedExecutable::compile(makeScale(2), cacheDirectory);
  ASSERT_FALSE(bool(executable));
  EXPECT_EQ(llvm::toString(executable.takeError()),
            emu + " belongs to another user or others can write it");
  EXPECT_EQ(getBuilds(), 1);
}

TEST_F(EmulatorCacheTest, AnUnusableCacheCostsOnlyTheCache) {
  test::writeFileBytes(root + "/file", "not a directory");
  cacheDirectory = root + "/file/cache";
  expectScales(2);
  expectScales(2);
  EXPECT_EQ(getBuilds(), 2);
  EXPECT_EQ(list(temporary), std::vector<std::string>());
}

TEST_F(EmulatorCacheTest, FailedBuildsLeaveNoDirectory) {
  hostCompiler.emplace(
      "ENS_HOST_CXX",
      writeScript("failing-cxx", "echo 'kernels.cu: no good' >&2\nexit 1\n"));
  llvm::Expected<std::unique_ptr<EmulatedExecutable>> executable =
      EmulatedExecutable::compile(makeScale(2), cacheDirectory);
  ASSERT_FALSE(bool(executable));
  EXPECT_EQ(llvm::toString(executable.takeError()),
            "the host compiler cannot build the emulated kernels:\n"
            "kernels.cu: no good\n");
  EXPECT_EQ(list(temporary), std::vector<std::string>());
  EXPECT_EQ(list(cacheDirectory + "/emu"), std::vector<std::string>());
}

TEST_F(EmulatorCacheTest, ObjectsLoadedInTurnRunTheirOwnCode) {
  // Each object is unloaded before the next is loaded; the descriptor
  // numbers, and so the names dlopen sees, repeat.
  for (int factor : {2, 3, 2, 5, 3})
    expectScales(factor);
  EXPECT_EQ(getBuilds(), 3);
}

TEST_F(EmulatorCacheTest, ObjectsOfAnotherAbiAreRefused) {
  // What ens built before its launchers returned their faults: a launcher
  // that returns nothing, and no ABI symbol. Called as the new ABI, its
  // return value would be whatever its register held.
  std::string old = buildSharedObject(
      "old", "extern \"C\" void ens_emu_scale(const unsigned *, const "
             "unsigned *, unsigned, void **) {}\n");
  ASSERT_FALSE(old.empty());
  ::ens::runtime::Expected<std::unique_ptr<::ens::runtime::Runner>> runner =
      ::ens::runtime::createEmulatedRunner(makeScale(2).plan, old);
  ASSERT_FALSE(bool(runner));
  EXPECT_NE(runner.takeError().getMessage().find(
                "the emulated kernels were built by another version of ens"),
            std::string::npos);
  // The object ens builds now has it, and runs.
  expectScales(2);
}

} // namespace
