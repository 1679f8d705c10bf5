//===- LoadRounds.h - Global loads that wait for each other -----*- C++ -*-===//
//
// How many round trips to global memory a thread's loads make one after
// another in a stretch of SASS: the dependent-load chain that the
// performance model's latency term charges (docs/cuda.md, "Performance
// model"), read from the real instructions instead of assumed.
//
//===----------------------------------------------------------------------===//

#ifndef ENS_TOOLS_ENS_SASS_LOADROUNDS_H
#define ENS_TOOLS_ENS_SASS_LOADROUNDS_H

#include "Sass.h"

#include "llvm/ADT/ArrayRef.h"

#include <cstdint>

namespace mlir::ens::sass {

/// The rounds of global loads (LDG) among `code`, taken in program order
/// as one pass of a loop body or of straight-line code: the first load
/// starts a round, and a later load starts the next one if, since its
/// round began, an instruction read a register that a load of the round
/// wrote (the thread waited for that load) or the load's address does.
/// Loads issued together, before any of their results is used, are one
/// round. A register a load wrote stops counting once something else
/// writes it. 0 where there is no global load; asynchronous copies
/// (LDGSTS), which write no register, and instructions that never run
/// (guarded by !PT) are not counted.
int64_t countLoadRounds(llvm::ArrayRef<Instruction> code);

} // namespace mlir::ens::sass

#endif // ENS_TOOLS_ENS_SASS_LOADROUNDS_H
