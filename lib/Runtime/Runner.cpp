//===- Runner.cpp - What every runner does alike --------------------------===//

#include "ens/Runtime/Runner.h"

#include <chrono>

using namespace ens::runtime;

Runner::~Runner() = default;

Error Runner::runOnDevice(const std::vector<uint64_t> &,
                          const std::vector<uint64_t> &, void *) {
  return Error("this backend runs on host memory (kDLCPU tensors)");
}

Expected<std::vector<double>>
Runner::time(const std::vector<const void *> &args,
             const std::vector<void *> &results, unsigned times) {
  if (Error failure = runOnHost(args, results))
    return failure;
  std::vector<double> seconds;
  for (unsigned i = 0; i < times; ++i) {
    auto start = std::chrono::steady_clock::now();
    if (Error failure = runOnHost(args, results))
      return failure;
    std::chrono::duration<double> took =
        std::chrono::steady_clock::now() - start;
    seconds.push_back(took.count());
  }
  return seconds;
}
