//===- LoadRounds.cpp - Global loads that wait for each other -------------===//
//
// Follows which registers the loads of the current round wrote, and starts
// a new round at a load issued after one of them was read.
//
//===----------------------------------------------------------------------===//

#include "LoadRounds.h"

#include "LaneSemantics.h"

#include "llvm/ADT/SmallBitVector.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir::ens::sass;
using llvm::StringRef;

/// Whether `op` writes no register of its first operand: stores, reductions
/// to memory, branches and barriers, whose operands are all read.
static bool writesNoRegister(StringRef op) {
  static const StringRef kReadOnly[] = {
      "STG",    "STS",    "STL",      "ST",   "RED",    "BRA",
      "BRX",    "JMP",    "CALL",     "RET",  "EXIT",   "BAR",
      "BSSY",   "BSYNC",  "WARPSYNC", "NOP",  "LDGSTS", "DEPBAR",
      "MEMBAR", "ERRBAR", "YIELD",    "SYNCS"};
  return llvm::is_contained(kReadOnly, op);
}

/// Calls `use` with each register that `operand` reads: itself ("R4",
/// "-R3.reuse", "R4.64" for two, `width` for an unqualified one) or those
/// of an address ("desc[UR4][R8.64+0x10]", "[R2+0x4]").
template <typename Use>
static void forEachRegister(StringRef operand, unsigned width, Use use) {
  for (size_t i = 0; i < operand.size(); ++i) {
    // A name starts where no letter, digit or dot precedes it.
    if (i > 0 && (llvm::isAlnum(operand[i - 1]) || operand[i - 1] == '.'))
      continue;
    StringRef name = operand.drop_front(i);
    std::optional<unsigned> reg = getRegister(name);
    if (!reg)
      continue;
    bool pair =
        name.take_until([](char c) { return c == ']' || c == '+' || c == ','; })
            .contains(".64");
    for (unsigned k = 0; k < (pair ? 2 : width); ++k)
      use(*reg + k);
  }
}

int64_t mlir::ens::sass::countLoadRounds(llvm::ArrayRef<Instruction> code) {
  int64_t rounds = 0;
  // The registers the current round's loads wrote, and whether an
  // instruction since read one.
  llvm::SmallBitVector loaded(kRegisters);
  bool waited = false;
  for (const Instruction &instruction : code) {
    // ptxas pads some loops with instructions that never run.
    if (instruction.guard == "@!PT")
      continue;
    StringRef op = instruction.opcode;
    bool writes = !writesNoRegister(op) && !instruction.operands.empty();
    // Reads: every operand but a written first one.
    for (size_t i = writes ? 1 : 0; i < instruction.operands.size(); ++i)
      forEachRegister(instruction.operands[i], 1,
                      [&](unsigned reg) { waited |= loaded.test(reg); });
    if (op == "LDG") {
      if (rounds == 0 || waited) {
        ++rounds;
        loaded.reset();
        waited = false;
      }
    }
    if (!writes)
      continue;
    unsigned width = getRegistersWritten(op, instruction.modifiers);
    forEachRegister(instruction.operands.front(), width, [&](unsigned reg) {
      if (reg < kRegisters)
        loaded[reg] = op == "LDG";
    });
  }
  return rounds;
}
