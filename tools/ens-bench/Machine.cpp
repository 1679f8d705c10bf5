//===- Machine.cpp - What ens-bench runs on -------------------------------===//
//
// Linux's view of the processor and of this process's affinity.
//
//===----------------------------------------------------------------------===//

#include "Machine.h"

#include "ens/ens.h"

#include <fstream>
#include <sched.h>
#include <sys/utsname.h>
#include <unistd.h>

using namespace ens_bench;

std::string ens_bench::cpuModel() {
  std::ifstream cpuinfo("/proc/cpuinfo");
  for (std::string line; std::getline(cpuinfo, line);)
    if (line.rfind("model name", 0) == 0) {
      size_t colon = line.find(':');
      if (colon != std::string::npos)
        return line.substr(line.find_first_not_of(" \t", colon + 1));
    }
  return "unknown processor";
}

int ens_bench::onlineCores() {
  long cores = sysconf(_SC_NPROCESSORS_ONLN);
  return cores > 0 ? static_cast<int>(cores) : 1;
}

int ens_bench::usableCores() {
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof(set), &set) != 0)
    return onlineCores();
  return CPU_COUNT(&set);
}

void ens_bench::restrictToCores(int count) {
  static cpu_set_t initial;
  static bool read = sched_getaffinity(0, sizeof(initial), &initial) == 0;
  if (!read)
    throw ens::Error("cannot read this process's CPU affinity");
  const cpu_set_t &current = initial;
  cpu_set_t wanted;
  CPU_ZERO(&wanted);
  int taken = 0;
  for (int cpu = 0; cpu < CPU_SETSIZE && taken < count; ++cpu)
    if (CPU_ISSET(cpu, &current)) {
      CPU_SET(cpu, &wanted);
      ++taken;
    }
  if (taken < count)
    throw ens::Error("--threads=" + std::to_string(count) + " but only " +
                     std::to_string(taken) + " cores are usable");
  if (sched_setaffinity(0, sizeof(wanted), &wanted) != 0)
    throw ens::Error("cannot restrict this process to " +
                     std::to_string(count) + " cores");
}

std::string ens_bench::systemName() {
  utsname name;
  if (uname(&name) != 0)
    return "unknown system";
  return std::string(name.sysname) + " " + name.release + " " + name.machine;
}
