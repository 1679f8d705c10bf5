//===- Process.h - A child process spoken to line by line -------*- C++ -*-===//
//
// Starts a program with its standard input and output on pipes and its
// standard error in a file, so that ens-bench can send it commands and read
// its answers one line at a time.
//
//===----------------------------------------------------------------------===//

#ifndef ENS_BENCH_PROCESS_H
#define ENS_BENCH_PROCESS_H

#include <map>
#include <optional>
#include <string>
#include <sys/types.h>
#include <vector>

namespace ens_bench {

class Process {
public:
  /// Starts `argv` (argv[0] looked up in PATH) with the environment of this
  /// process plus `env`; its standard error goes to `stderrPath`. Throws
  /// ens::Error when it cannot be started.
  Process(const std::vector<std::string> &argv,
          const std::map<std::string, std::string> &env,
          const std::string &stderrPath);
  /// Closes its input and waits for it to end.
  ~Process();
  Process(const Process &) = delete;
  Process &operator=(const Process &) = delete;

  /// Sends one line. Returns false if the process has gone.
  bool send(const std::string &line);
  /// The next line of its output, or nothing when it closed its output.
  std::optional<std::string> readLine();
  /// Closes its input and waits for it; returns its exit status (or 128 +
  /// the signal that ended it).
  int wait();

private:
  pid_t pid = -1;
  int toChild = -1, fromChild = -1;
  std::string buffer;
  std::optional<int> status;
};

/// Runs `argv` to the end with all its output discarded; returns its exit
/// status, or -1 if it could not be started.
int runQuietly(const std::vector<std::string> &argv);

/// The output of `argv` (standard output only), or nothing if it could not
/// be started or failed.
std::optional<std::string> captureOutput(const std::vector<std::string> &argv);

} // namespace ens_bench

#endif // ENS_BENCH_PROCESS_H
