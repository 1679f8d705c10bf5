//===- HostCompiler.cpp - Building with the host C++ compiler -------------===//

#include "ens/Support/HostCompiler.h"
#include "ens/Support/FileSystem.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <unistd.h>

using namespace llvm;
using namespace mlir::ens;

static Error error(const Twine &message) {
  return createStringError(inconvertibleErrorCode(), message);
}

/// The most of the compiler's output an error message includes.
static constexpr uint64_t kMaxLogBytes = uint64_t(16) << 20;

/// Writes `contents` to the new file `path`. Every write is checked: a full
/// disk must give an error naming the file, not a truncated source for the
/// compiler or an abort when the stream is destroyed.
static Error writeFile(StringRef path, StringRef contents) {
  std::error_code ec;
  raw_fd_ostream os(path, ec);
  if (ec)
    return error("cannot write " + path + ": " + ec.message());
  os << contents;
  os.close();
  if (!os.has_error())
    return Error::success();
  std::string reason = os.error().message();
  os.clear_error();
  return error("cannot write " + path + ": " + reason);
}

Expected<std::string> mlir::ens::findHostCompiler(StringRef who) {
  const char *fromEnv = std::getenv("ENS_HOST_CXX");
  std::string name = fromEnv && *fromEnv ? fromEnv : "c++";
  ErrorOr<std::string> compiler = sys::findProgramByName(name);
  if (!compiler)
    return error(who + " needs a host C++ compiler: cannot find '" + name +
                 "' (set ENS_HOST_CXX)");
  return *compiler;
}

Expected<std::string> mlir::ens::runHostBuild(StringRef compiler,
                                              const HostBuild &build) {
  SmallString<128> temporary;
  sys::path::system_temp_directory(/*erasedOnReboot=*/true, temporary);
  sys::path::append(temporary, build.directoryPrefix + "-XXXXXX");
  std::string dir = temporary.str().str();
  if (!::mkdtemp(dir.data()))
    return error("cannot create a build directory " + temporary + ": " +
                 std::strerror(errno));
  auto removeDir = make_scope_exit([&] { sys::fs::remove_directories(dir); });
  auto inDir = [&](StringRef name) {
    SmallString<128> path(dir);
    sys::path::append(path, name);
    return std::string(path);
  };
  for (auto [name, contents] : build.files)
    if (Error failure = writeFile(inDir(name), contents))
      return std::move(failure);
  std::string output = inDir(build.output);
  std::string log = inDir("build.log");
  SmallVector<std::string> inputs;
  for (StringRef input : build.inputs)
    inputs.push_back(inDir(input));
  SmallVector<StringRef> args = {compiler};
  args.append(build.options.begin(), build.options.end());
  args.append({"-o", output});
  args.append(inputs.begin(), inputs.end());
  args.append(build.libraries.begin(), build.libraries.end());
  std::optional<StringRef> redirects[] = {std::nullopt, StringRef(log),
                                          StringRef(log)};
  std::string message;
  int exitCode = sys::ExecuteAndWait(compiler, args, std::nullopt, redirects, 0,
                                     0, &message);
  if (exitCode != 0) {
    ReadOptions logOptions;
    logOptions.maxBytes = kMaxLogBytes;
    Expected<std::string> text = readFileBounded(log, logOptions);
    return error("the host compiler cannot build " + build.what +
                 (message.empty() ? "" : ": " + message) + ":\n" +
                 (text ? *text : toString(text.takeError())));
  }
  ReadOptions outputOptions;
  outputOptions.maxBytes = build.maxOutputBytes;
  outputOptions.noFollow = true;
  return readFileBounded(output, outputOptions);
}
