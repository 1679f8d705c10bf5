//===- OpenMPRuntime.h - Finding the OpenMP runtime -------------*- C++ -*-===//
//
// Multi-threaded code from the CPU backend calls LLVM's OpenMP runtime
// (libomp). It is not linked into ens: the JIT loads it at run time, when
// one is installed.
//
//===----------------------------------------------------------------------===//

#ifndef ENS_LIB_BACKEND_CPU_OPENMPRUNTIME_H
#define ENS_LIB_BACKEND_CPU_OPENMPRUNTIME_H

#include <optional>
#include <string>

namespace mlir::ens::cpu {

/// The path of an OpenMP runtime that this process has loaded and found
/// usable, or nothing if none is installed. LLVM's own copy is preferred to
/// the one the dynamic loader finds. The search runs once per process.
std::optional<std::string> findOpenMPRuntime();

} // namespace mlir::ens::cpu

#endif // ENS_LIB_BACKEND_CPU_OPENMPRUNTIME_H
