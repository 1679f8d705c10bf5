//===- Sass.h - SASS instructions as cuobjdump prints them ------*- C++ -*-===//
//
// The kernels of a CUBIN as cuobjdump -sass lists them: per instruction its
// address, guard, opcode and operands; and the innermost loops, which
// ens-sass reports and checks one by one.
//
//===----------------------------------------------------------------------===//

#ifndef ENS_TOOLS_ENS_SASS_SASS_H
#define ENS_TOOLS_ENS_SASS_SASS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace mlir::ens::sass {

/// One SASS instruction: its address, its guard ("@!P0", empty if none),
/// base opcode (FFMA for FFMA.FTZ), its modifiers (".E.128" of LDG.E.128),
/// its operands as printed ("R2", "-R3", "0x4", "desc[UR6][R4.64+0x10]")
/// and, for a branch or call, its target.
struct Instruction {
  uint64_t address = 0;
  std::string guard, opcode, modifiers;
  std::vector<std::string> operands;
  std::optional<uint64_t> target;
};

/// A kernel's SASS.
struct Kernel {
  std::string name;
  std::vector<Instruction> code;
};

/// The kernels in cuobjdump -sass output: "Function : NAME" starts one, and
/// each instruction line is "/*ADDR*/ [@P] OPCODE OPERANDS ; /*ENCODING*/".
std::vector<Kernel> parseSass(llvm::StringRef text);

/// The innermost loops of `kernel` as index ranges [first, last] of its
/// code: a branch to an earlier address closes a loop, innermost if no
/// other such range lies inside it.
std::vector<std::pair<size_t, size_t>> findInnermostLoops(const Kernel &kernel);

/// The bytes a lane of a memory access with `modifiers` (".E.128.CONSTANT",
/// ".U8") accesses: 4 unless they name another width.
unsigned getAccessBytes(llvm::StringRef modifiers);

/// The index in `code` of the instruction at `address`, if there is one.
std::optional<size_t> findAddress(llvm::ArrayRef<Instruction> code,
                                  uint64_t address);

} // namespace mlir::ens::sass

#endif // ENS_TOOLS_ENS_SASS_SASS_H
