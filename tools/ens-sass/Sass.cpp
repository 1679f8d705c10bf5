//===- Sass.cpp - SASS instructions as cuobjdump prints them --------------===//

#include "Sass.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/Twine.h"

using namespace mlir::ens::sass;
using llvm::StringRef;

/// The absolute address a branch or call names as its last operand.
static std::optional<uint64_t> getTarget(llvm::ArrayRef<std::string> operands) {
  if (operands.empty())
    return std::nullopt;
  StringRef target = operands.back();
  target = target.drop_front(target.rfind(' ') + 1);
  uint64_t address = 0;
  if (target.consume_front("0x") && !target.getAsInteger(16, address))
    return address;
  return std::nullopt;
}

std::vector<Kernel> mlir::ens::sass::parseSass(StringRef text) {
  std::vector<Kernel> kernels;
  llvm::SmallVector<StringRef> lines;
  text.split(lines, '\n');
  for (StringRef line : lines) {
    StringRef trimmed = line.trim();
    if (trimmed.consume_front("Function : ")) {
      kernels.push_back({trimmed.str(), {}});
      continue;
    }
    if (kernels.empty() || !trimmed.consume_front("/*"))
      continue;
    auto [addressText, rest] = trimmed.split("*/");
    Instruction instruction;
    if (addressText.getAsInteger(16, instruction.address))
      continue;
    StringRef body = rest.split(';').first.trim();
    if (body.empty())
      continue; // The second half of an encoding.
    // An instruction guarded by @!PT never runs: ptxas pads asynchronous
    // copies' loops with such loads ("@!PT LDS RZ, [RZ]"). It takes an
    // issue slot as a NOP does, and accesses no memory.
    bool neverRuns = body.starts_with("@!PT ");
    if (body.starts_with("@")) {
      auto [guard, unguarded] = body.split(' ');
      instruction.guard = guard.str();
      body = unguarded.trim();
    }
    auto [opcode, operands] = body.split(' ');
    if (neverRuns)
      opcode = "NOP";
    // ptxas uses HFMA2.MMA to move constants into registers: not arithmetic.
    auto [base, modifiers] = opcode.split('.');
    instruction.opcode = opcode == "HFMA2.MMA" ? opcode.str() : base.str();
    if (!modifiers.empty() && opcode != "HFMA2.MMA")
      instruction.modifiers = (llvm::Twine(".") + modifiers).str();
    llvm::SmallVector<StringRef> parts;
    operands.split(parts, ',', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
    for (StringRef part : parts)
      instruction.operands.push_back(part.trim().str());
    if (instruction.opcode == "BRA" || instruction.opcode == "CALL")
      instruction.target = getTarget(instruction.operands);
    kernels.back().code.push_back(std::move(instruction));
  }
  return kernels;
}

std::vector<std::pair<size_t, size_t>>
mlir::ens::sass::findInnermostLoops(const Kernel &kernel) {
  std::vector<std::pair<size_t, size_t>> loops;
  for (size_t last = 0; last < kernel.code.size(); ++last) {
    const Instruction &branch = kernel.code[last];
    // A branch to itself is the trap after the kernel's exit, not a loop.
    if (branch.opcode != "BRA" || !branch.target ||
        *branch.target >= branch.address)
      continue;
    size_t first = last;
    while (first > 0 && kernel.code[first].address > *branch.target)
      --first;
    loops.push_back({first, last});
  }
  std::vector<std::pair<size_t, size_t>> innermost;
  for (auto loop : loops)
    if (llvm::none_of(loops, [&](auto other) {
          return other != loop && other.first >= loop.first &&
                 other.second <= loop.second;
        }))
      innermost.push_back(loop);
  return innermost;
}

unsigned mlir::ens::sass::getAccessBytes(StringRef modifiers) {
  llvm::SmallVector<StringRef> parts;
  modifiers.split(parts, '.');
  if (llvm::is_contained(parts, "128"))
    return 16;
  if (llvm::is_contained(parts, "64"))
    return 8;
  if (llvm::is_contained(parts, "U8") || llvm::is_contained(parts, "S8"))
    return 1;
  if (llvm::is_contained(parts, "U16") || llvm::is_contained(parts, "S16"))
    return 2;
  return 4;
}

std::optional<size_t>
mlir::ens::sass::findAddress(llvm::ArrayRef<Instruction> code,
                             uint64_t address) {
  auto it = llvm::partition_point(code, [&](const Instruction &instruction) {
    return instruction.address < address;
  });
  if (it == code.end() || it->address != address)
    return std::nullopt;
  return size_t(it - code.begin());
}
