//===- Process.cpp - A child process spoken to line by line ---------------===//
//
// posix_spawnp with pipes; the environment is built in the parent, so that
// nothing runs between fork and exec.
//
//===----------------------------------------------------------------------===//

#include "Process.h"

#include "ens/ens.h"

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

using namespace ens_bench;

namespace {
/// The environment of this process with `extra` set over it.
std::vector<std::string>
environment(const std::map<std::string, std::string> &extra) {
  std::vector<std::string> result;
  for (char **entry = environ; *entry; ++entry) {
    std::string text = *entry;
    std::string key = text.substr(0, text.find('='));
    if (!extra.count(key))
      result.push_back(text);
  }
  for (const auto &[key, value] : extra)
    result.push_back(key + "=" + value);
  return result;
}

std::vector<char *> pointers(std::vector<std::string> &strings) {
  std::vector<char *> result;
  for (std::string &s : strings)
    result.push_back(s.data());
  result.push_back(nullptr);
  return result;
}

/// Spawns `argv` with descriptors `in`, `out` and `err` as its 0, 1 and 2.
pid_t spawn(std::vector<std::string> argv,
            const std::map<std::string, std::string> &env, int in, int out,
            int err) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, in, 0);
  posix_spawn_file_actions_adddup2(&actions, out, 1);
  posix_spawn_file_actions_adddup2(&actions, err, 2);
  std::vector<std::string> envStrings = environment(env);
  std::vector<char *> argvPointers = pointers(argv);
  std::vector<char *> envPointers = pointers(envStrings);
  pid_t pid = -1;
  int error = posix_spawnp(&pid, argv[0].c_str(), &actions, nullptr,
                           argvPointers.data(), envPointers.data());
  posix_spawn_file_actions_destroy(&actions);
  return error == 0 ? pid : -1;
}

int waitFor(pid_t pid) {
  int status = 0;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR)
      return -1;
  if (WIFEXITED(status))
    return WEXITSTATUS(status);
  return 128 + WTERMSIG(status);
}
} // namespace

Process::Process(const std::vector<std::string> &argv,
                 const std::map<std::string, std::string> &env,
                 const std::string &stderrPath) {
  // A peer that dies must not kill ens-bench with SIGPIPE.
  std::signal(SIGPIPE, SIG_IGN);
  int input[2], output[2];
  if (pipe2(input, O_CLOEXEC) != 0 || pipe2(output, O_CLOEXEC) != 0)
    throw ens::Error("cannot create pipes: " +
                     std::string(std::strerror(errno)));
  int err =
      open(stderrPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (err < 0)
    throw ens::Error("cannot write " + stderrPath);
  pid = spawn(argv, env, input[0], output[1], err);
  close(input[0]);
  close(output[1]);
  close(err);
  toChild = input[1];
  fromChild = output[0];
  if (pid < 0) {
    close(toChild);
    close(fromChild);
    throw ens::Error("cannot start " + argv[0]);
  }
}

Process::~Process() { wait(); }

bool Process::send(const std::string &line) {
  std::string text = line + "\n";
  size_t done = 0;
  while (toChild >= 0 && done < text.size()) {
    ssize_t n = write(toChild, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return false;
    done += static_cast<size_t>(n);
  }
  return toChild >= 0;
}

std::optional<std::string> Process::readLine() {
  while (true) {
    size_t newline = buffer.find('\n');
    if (newline != std::string::npos) {
      std::string line = buffer.substr(0, newline);
      buffer.erase(0, newline + 1);
      return line;
    }
    if (fromChild < 0)
      return std::nullopt;
    char chunk[4096];
    ssize_t n = read(fromChild, chunk, sizeof(chunk));
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0) {
      close(fromChild);
      fromChild = -1;
      if (buffer.empty())
        return std::nullopt;
      std::string line;
      line.swap(buffer);
      return line;
    }
    buffer.append(chunk, static_cast<size_t>(n));
  }
}

int Process::wait() {
  if (toChild >= 0) {
    close(toChild);
    toChild = -1;
  }
  if (!status && pid > 0)
    status = waitFor(pid);
  if (fromChild >= 0) {
    close(fromChild);
    fromChild = -1;
  }
  return status.value_or(-1);
}

int ens_bench::runQuietly(const std::vector<std::string> &argv) {
  int null = open("/dev/null", O_RDWR | O_CLOEXEC);
  if (null < 0)
    return -1;
  pid_t pid = spawn(argv, {}, null, null, null);
  close(null);
  return pid < 0 ? -1 : waitFor(pid);
}

std::optional<std::string>
ens_bench::captureOutput(const std::vector<std::string> &argv) {
  int null = open("/dev/null", O_RDWR | O_CLOEXEC);
  int output[2];
  if (null < 0 || pipe2(output, O_CLOEXEC) != 0)
    return std::nullopt;
  pid_t pid = spawn(argv, {}, null, output[1], null);
  close(null);
  close(output[1]);
  std::string text;
  char chunk[4096];
  ssize_t n;
  while ((n = read(output[0], chunk, sizeof(chunk))) != 0) {
    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0)
      break;
    text.append(chunk, static_cast<size_t>(n));
  }
  close(output[0]);
  if (pid < 0 || waitFor(pid) != 0)
    return std::nullopt;
  return text;
}
