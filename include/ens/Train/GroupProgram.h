//===- GroupProgram.h - One program for several groups ----------*- C++ -*-===//
//
// A heterogeneous ensemble is several groups of members, each group an
// ensemble of one model (Model.h). Its training step is ONE program:
//
//   @ens_train_step(group 0's step arguments..., group 1's..., ...)
//       -> (group 0's step results..., group 1's..., ...)
//
// which runs each group's step (Program.h's @ens_train_step: an ens.vmap
// of @ens_train_member_step over the group's members) side by side in one
// function, as examples/heterogeneous.mlir writes them, so that the
// backends run the groups together. Each group's own program is written
// as generateProgram writes it, parsed, printed back (which resolves the
// model's type aliases) and has every symbol prefixed with g<i>_, so that
// the groups' @forward, @loss and helpers never clash. The groups share
// nothing: each takes its own state, rates and batch (the same rows when
// they shuffle alike), and computes exactly what its own program would.
//
//===----------------------------------------------------------------------===//

#ifndef ENS_TRAIN_GROUPPROGRAM_H
#define ENS_TRAIN_GROUPPROGRAM_H

#include "ens/Train/Model.h"
#include "ens/Train/Program.h"

#include "ens/ens.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace ens::train {

/// One group of a heterogeneous ensemble's program: its model, named
/// `name` in messages, and its members (one ensemble of them).
struct ProgramGroup {
  const Model *model;
  std::string name;
  ProgramShape shape;
};

/// The prefix of group `group`'s symbols: "g<group>_".
std::string getGroupPrefix(size_t group);

/// `text` (MLIR as the printer writes it) with every symbol name and
/// reference, `@name` or `@"name"`, prefixed with `prefix`; string
/// literals are left as they are.
std::string prefixSymbols(llvm::StringRef text, llvm::StringRef prefix);

/// The program of the groups' step described above, parsed by `context`.
/// Throws Failure if a group's program does not parse.
std::string generateGroupsProgram(ens::Context &context,
                                  llvm::ArrayRef<ProgramGroup> groups,
                                  const AdamOptions &adam);

} // namespace ens::train

#endif // ENS_TRAIN_GROUPPROGRAM_H
