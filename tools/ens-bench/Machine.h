//===- Machine.h - What ens-bench runs on -----------------------*- C++ -*-===//
//
// The processor, the cores this process may use, and restricting it (and
// so ens's thread pool, which takes one thread per usable core, and every
// peer it starts) to fewer of them.
//
//===----------------------------------------------------------------------===//

#ifndef ENS_BENCH_MACHINE_H
#define ENS_BENCH_MACHINE_H

#include <string>

namespace ens_bench {

/// The processor's model name (lscpu's "Model name").
std::string cpuModel();
/// The cores the system has online.
int onlineCores();
/// The cores this process may run on (its affinity).
int usableCores();
/// Restricts this process and its future children to the first `count` of
/// the cores it could use when it first called this function, so that a
/// later call may widen the set again. Throws ens::Error if it cannot.
void restrictToCores(int count);
/// The operating system, from uname: "Linux 6.1.0 x86_64".
std::string systemName();

} // namespace ens_bench

#endif // ENS_BENCH_MACHINE_H
