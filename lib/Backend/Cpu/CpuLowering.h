//===- CpuLowering.h - From an ens function to LLVM for the host -*- C++
//-*-===//
//
// What the JIT (CpuExecutable) and the shared-object export
// (compileCpuObject) share: the checks of the entry, the front of the
// pipeline, the choice of threads and vector width for the host, the
// lowering to the LLVM dialect, and the optimization of the LLVM IR. They
// differ only in what becomes of the optimized code.
//
//===----------------------------------------------------------------------===//

#ifndef ENS_LIB_BACKEND_CPU_CPULOWERING_H
#define ENS_LIB_BACKEND_CPU_CPULOWERING_H

#include "ens/Backend/CpuBackend.h"

#include "mlir/IR/OwningOpRef.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"

#include <optional>
#include <string>

namespace llvm {
class Module;
class TargetMachine;
} // namespace llvm

namespace mlir::ens::cpu {

/// One function on its way to the LLVM dialect for the host CPU.
struct CpuLowering {
  /// The entry and its type.
  std::string entry;
  FunctionType type;
  /// The host CPU, its features, the width of its widest vectors and the
  /// size of a core's L2 cache (getHostL2Bytes).
  llvm::orc::JITTargetMachineBuilder host;
  unsigned vectorBytes;
  int64_t l2Bytes;
  /// The threads the code will run on, and with more than one the OpenMP
  /// runtime (libomp.so.5) it needs, as this process found it.
  unsigned threads;
  std::optional<std::string> openMP;
  /// The program in linalg on tensors: a copy of the module with only the
  /// entry public (and a C interface), after ens-front and
  /// convert-ens-to-linalg.
  OwningOpRef<ModuleOp> linalg;
  /// The front's warnings, kept for the message of a later failure.
  std::string frontDiagnostics;

  /// A copy of `linalg` lowered to the LLVM dialect by ens-cpu-pipeline for
  /// `threads` threads.
  llvm::Expected<OwningOpRef<ModuleOp>> lower() const;

  /// Gives up threads, for when the OpenMP runtime cannot serve the code:
  /// the next lower() makes code for one.
  void useOneThread();
};

/// Checks the function `entry` of `module` (left unchanged) for the CPU
/// backend: its types, the bytes of its signature and of every value
/// against options.maxBufferBytes. Lowers a copy of it to linalg on tensors
/// and picks its threads: options.threads, but one for programs too small
/// to gain from threads or without an OpenMP runtime.
llvm::Expected<CpuLowering> prepareLowering(ModuleOp module, StringRef entry,
                                            const CpuOptions &options);

/// The size in bytes of one core's L2 cache on this machine, as the C
/// library reports it, or 1 MiB where it does not.
int64_t getHostL2Bytes();

/// The threads `options` asks for: options.threads, or one per core for 0.
unsigned getRequestedThreads(const CpuOptions &options);

/// The buffer limit `options` sets: options.maxBufferBytes, or
/// getDefaultMaxBufferBytes() for 0.
int64_t getMaxBufferBytes(const CpuOptions &options);

/// A shared object for the host (compileCpuObject) and the threads its code
/// runs on.
struct CpuObject {
  std::string bytes;
  unsigned threads;
};

/// compileCpuObject, linked by the host compiler driver `compiler`.
llvm::Expected<CpuObject> buildCpuObject(ModuleOp module, StringRef entry,
                                         const CpuOptions &options,
                                         StringRef compiler);

/// Optimizes `module` for `machine` at O2, as the JIT does: each function
/// with `vectorBytes` vectors preferred and kept whole (x86 would otherwise
/// split vectors wider than 256 bits on CPUs that prefer 256-bit ones).
llvm::Error optimizeForHost(llvm::Module &module, llvm::TargetMachine &machine,
                            unsigned vectorBytes);

} // namespace mlir::ens::cpu

#endif // ENS_LIB_BACKEND_CPU_CPULOWERING_H
