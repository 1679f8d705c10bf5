//===- LaneSemantics.h - SASS integer instructions on lanes -----*- C++ -*-===//
//
// What the integer instructions of SASS (IMAD, IADD3, LEA, SHF, LOP3, ...,
// their uniform twins, and ISETP on predicates) compute on LaneValues, and
// the state of a warp's registers and predicates they act on.
//
//===----------------------------------------------------------------------===//

#ifndef ENS_TOOLS_ENS_SASS_LANESEMANTICS_H
#define ENS_TOOLS_ENS_SASS_LANESEMANTICS_H

#include "LaneAddresses.h"
#include "LaneValue.h"

#include "llvm/ADT/StringRef.h"

#include <vector>

namespace mlir::ens::sass {

using llvm::StringRef;

/// R0 to R254 (R255 is RZ), then the uniform registers UR0 to UR62.
constexpr unsigned kUniformRegisters = 256;
constexpr unsigned kRegisters = kUniformRegisters + 63;
/// P0 to P6, then UP0 to UP6: known where common to the warp.
constexpr unsigned kPredicates = kRegisters, kStateSize = kPredicates + 14;

/// The warp and block one run of the analysis follows.
struct LaunchSample {
  /// The thread index of the warp's first lane.
  int64_t firstThread = 0;
  /// The block's index (SR_CTAID.X), where the launch's shape is known.
  int64_t block = 0;
  std::optional<LaunchShape> shape;
};

/// Registers, uniform registers and predicates (known 0 or 1), indexed as
/// getRegister and getPredicate say.
using State = std::vector<Value>;

/// Whether `operand` names a predicate ("P0", "!UP1", "PT").
bool isPredicate(StringRef operand);

/// The index in a State of the register `operand` names ("R12", "R4.64",
/// "R3.reuse", "UR6"), none for RZ and URZ.
std::optional<unsigned> getRegister(StringRef operand);

/// The index in a State of the predicate `operand` names ("P0", "UP1"),
/// none for PT and UPT.
std::optional<unsigned> getPredicate(StringRef operand);

/// Whether guard or predicate operand `text` ("@!P0", "PT", "UP1") holds
/// in `state`: always for PT, never for !PT, none where not known.
std::optional<bool> isTrue(StringRef text, const State &state);

/// The comparison of ISETP with `modifiers` (".GE.U32.AND") of `a` and `b`
/// where both are known and it is the same in every lane.
std::optional<bool> compare(StringRef modifiers, const Value &a,
                            const Value &b);

/// The value of source operand `operand` in `state`.
Value getOperand(StringRef operand, const State &state,
                 const LaunchSample &sample);

/// What SASS instruction `instruction` writes to its first register.
Value evaluate(const Instruction &instruction, StringRef op,
               llvm::ArrayRef<Value> sources, bool pickMinimum);

/// The registers an instruction with `modifiers` writes from its first.
unsigned getRegistersWritten(StringRef op, StringRef modifiers);

} // namespace mlir::ens::sass

#endif // ENS_TOOLS_ENS_SASS_LANESEMANTICS_H
