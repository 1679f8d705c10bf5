//===- LaneAddresses.cpp - How a warp's global accesses spread ------------===//

#include "LaneAddresses.h"
#include "LaneSemantics.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <deque>
#include <functional>
#include <map>
#include <set>

using namespace mlir::ens::sass;
using llvm::StringRef;

namespace {
/// The global accesses' opcodes, whose address is the operand in
/// "desc[URn][...]", or for LDG and STG without a descriptor their only
/// bracketed operand.
bool isGlobalAccess(StringRef op) {
  return op == "LDG" || op == "STG" || op == "LDGSTS" || op == "RED" ||
         op == "ATOMG";
}

/// The address of global access `instruction`: a register (pair) plus
/// constants and uniform registers.
Value getAddress(const Instruction &instruction, const State &state,
                 const LaunchSample &sample) {
  const std::string *address = nullptr;
  for (const std::string &operand : instruction.operands)
    if (StringRef(operand).contains("desc[") ||
        (!address && StringRef(operand).starts_with("[") &&
         instruction.opcode != "LDGSTS"))
      address = &operand;
  if (!address)
    return std::nullopt;
  StringRef text = StringRef(*address).rsplit('[').second.rsplit(']').first;
  // Terms joined by '+' ("R2.64+-0x40", "R4.64+UR8+0x10").
  llvm::SmallVector<StringRef> terms;
  text.split(terms, '+');
  Value sum = LaneValue::known(0);
  for (StringRef term : terms) {
    term = term.trim();
    term.consume_back(".64");
    term.consume_back(".U32");
    sum = add(sum, getOperand(term, state, sample));
  }
  return sum;
}

int64_t floorDivide(int64_t a, int64_t b) {
  return a >= 0 ? a / b : -((-a + b - 1) / b);
}

/// The sectors touched, and needed, by lanes accessing `width` bytes at
/// `address` (whose unknown base is taken as 32-byte aligned).
GlobalAccess countSectors(size_t index, unsigned width, const Value &address) {
  GlobalAccess access;
  access.index = index;
  access.width = width;
  std::set<int64_t> starts;
  for (unsigned lane = 0; lane < kLanes; ++lane)
    starts.insert(address ? address->offsets[lane] +
                                (address->base ? *address->base % 32 : 0)
                          : lane * int64_t(width));
  int64_t bytes = 0, end = INT64_MIN;
  for (int64_t start : starts) {
    bytes += start + width - std::max(start, end);
    end = std::max(end, start + int64_t(width));
  }
  access.neededSectors = unsigned((bytes + 31) / 32);
  if (!address)
    return access;
  std::set<int64_t> sectors;
  for (int64_t start : starts) {
    sectors.insert(floorDivide(start, 32));
    sectors.insert(floorDivide(start + width - 1, 32));
  }
  access.sectors = unsigned(sectors.size());
  return access;
}

/// The forward dataflow analysis over a kernel's basic blocks.
class Analysis {
public:
  Analysis(const Kernel &kernel, LaunchSample sample)
      : code(kernel.code), sample(sample) {
    findBlocks();
  }

  std::vector<GlobalAccess> run() {
    std::vector<std::optional<State>> entries(blocks.size());
    if (blocks.empty())
      return {};
    entries[0] = State(kStateSize);
    for (unsigned reg = kUniformRegisters; reg < kRegisters; ++reg)
      (*entries[0])[reg] = LaneValue::uniform();
    std::deque<size_t> worklist = {0};
    std::vector<bool> queued(blocks.size());
    queued[0] = true;
    while (!worklist.empty()) {
      size_t block = worklist.front();
      worklist.pop_front();
      queued[block] = false;
      State state = *entries[block];
      for (size_t i = blocks[block].first; i < blocks[block].second; ++i)
        step(code[i], state);
      for (size_t successor : getSuccessors(block, state)) {
        if (!merge(entries[successor], state) || queued[successor])
          continue;
        queued[successor] = true;
        worklist.push_back(successor);
      }
    }
    std::vector<GlobalAccess> accesses;
    for (auto [block, range] : llvm::enumerate(blocks)) {
      std::optional<State> state = entries[block];
      for (size_t i = range.first; i < range.second; ++i) {
        if (isGlobalAccess(code[i].opcode)) {
          bool runs =
              state &&
              isTrue(code[i].guard.empty() ? "PT" : StringRef(code[i].guard),
                     *state) != false;
          accesses.push_back(countSectors(
              i, getAccessBytes(code[i].modifiers),
              runs ? getAddress(code[i], *state, sample) : std::nullopt));
          accesses.back().reached = runs;
        }
        if (state)
          step(code[i], *state);
      }
    }
    return accesses;
  }

private:
  void findBlocks() {
    std::set<size_t> leaders = {0};
    for (size_t i = 0; i < code.size(); ++i) {
      StringRef op = code[i].opcode;
      if (op == "BRA" && code[i].target)
        if (std::optional<size_t> target = findAddress(code, *code[i].target))
          leaders.insert(*target);
      if (op == "BRA" || op == "EXIT" || op == "RET")
        leaders.insert(i + 1);
    }
    for (auto it = leaders.begin(); it != leaders.end(); ++it) {
      if (*it >= code.size())
        break;
      size_t end = std::next(it) == leaders.end()
                       ? code.size()
                       : std::min(*std::next(it), code.size());
      blockOf[*it] = blocks.size();
      blocks.push_back({*it, end});
    }
  }

  /// The blocks that `block` may pass control to, leaving it in `state`.
  std::vector<size_t> getSuccessors(size_t block, const State &state) const {
    const Instruction &last = code[blocks[block].second - 1];
    std::optional<bool> runs =
        isTrue(last.guard.empty() ? "PT" : StringRef(last.guard), state);
    bool guarded = !runs;
    std::vector<size_t> successors;
    auto addIndex = [&](size_t index) {
      auto it = blockOf.find(index);
      if (it != blockOf.end())
        successors.push_back(it->second);
    };
    if (last.opcode == "BRA" && last.target && runs != false)
      if (std::optional<size_t> target = findAddress(code, *last.target))
        addIndex(*target);
    bool endsFlow =
        runs != false &&
        (last.opcode == "BRA" || last.opcode == "EXIT" || last.opcode == "RET");
    if (!endsFlow || guarded)
      addIndex(blocks[block].second);
    return successors;
  }

  /// Joins `state` into `entry`; returns whether `entry` changed.
  static bool merge(std::optional<State> &entry, const State &state) {
    if (!entry) {
      entry = state;
      return true;
    }
    bool changed = false;
    for (unsigned reg = 0; reg < kStateSize; ++reg) {
      Value joined = join((*entry)[reg], state[reg]);
      if (joined != (*entry)[reg]) {
        (*entry)[reg] = std::move(joined);
        changed = true;
      }
    }
    return changed;
  }

  /// Applies `instruction` to `state`.
  void step(const Instruction &instruction, State &state) {
    std::optional<bool> runs = isTrue(
        instruction.guard.empty() ? "PT" : StringRef(instruction.guard), state);
    if (runs == false)
      return;
    bool guarded = !runs;
    if (instruction.opcode == "CALL") {
      for (unsigned reg : getCalleeWrites(instruction))
        state[reg].reset();
      return;
    }
    setPredicates(instruction, state, guarded);
    if (instruction.operands.empty())
      return;
    std::optional<unsigned> destination =
        getRegister(instruction.operands.front());
    if (!destination)
      return;
    llvm::SmallVector<Value, 4> sources;
    for (StringRef operand : llvm::ArrayRef(instruction.operands).drop_front())
      if (!isPredicate(operand))
        sources.push_back(getOperand(operand, state, sample));
    // A uniform datapath instruction (UIMAD, ULDC, S2UR, R2UR) computes as
    // its vector twin, for every lane at once.
    StringRef op = instruction.opcode;
    bool isUniform = *destination >= kUniformRegisters;
    if (op == "S2UR")
      op = "S2R";
    else if (op == "R2UR")
      op = "MOV";
    else if (isUniform && op.starts_with("U"))
      op = op.drop_front();
    Value result =
        evaluate(instruction, op, sources, instruction.operands.back() == "PT");
    if (isUniform && (!result || !result->isUniform()))
      result = LaneValue::uniform();
    unsigned count =
        getRegistersWritten(instruction.opcode, instruction.modifiers);
    for (unsigned i = 0; i < count && *destination + i < kRegisters; ++i) {
      // A pair's value is its first register's (a 64-bit address); the
      // second holds the high word where it is known.
      Value value = i == 0 ? result : getHighWord(result, count);
      Value &reg = state[*destination + i];
      reg = guarded ? join(reg, value) : value;
    }
  }

  /// The second register of a pair written with the 64-bit `value`.
  static Value getHighWord(const Value &value, unsigned count) {
    if (!value || count != 2)
      return std::nullopt;
    if (value->isKnown()) {
      std::array<int64_t, kLanes> high;
      for (unsigned lane = 0; lane < kLanes; ++lane)
        high[lane] = value->at(lane) >> 32;
      return LaneValue::perLane(high);
    }
    return value->isUniform() ? Value(LaneValue::uniform()) : std::nullopt;
  }

  /// Sets the predicates `instruction` writes: those among its leading
  /// operands (ISETP P0, PT, ...; IADD3 R2, P0, ...), which an integer
  /// comparison of known values common to the warp makes known.
  void setPredicates(const Instruction &instruction, State &state,
                     bool guarded) {
    StringRef op = instruction.opcode;
    op.consume_front("U");
    std::optional<bool> result;
    if (op == "ISETP" && instruction.operands.size() == 5) {
      std::optional<bool> combined = isTrue(instruction.operands[4], state);
      std::optional<bool> comparison =
          compare(instruction.modifiers,
                  getOperand(instruction.operands[2], state, sample),
                  getOperand(instruction.operands[3], state, sample));
      StringRef modifiers = instruction.modifiers;
      if (comparison && combined)
        result = modifiers.ends_with(".AND")  ? *comparison && *combined
                 : modifiers.ends_with(".OR") ? *comparison || *combined
                                              : *comparison != *combined;
    }
    for (auto [position, operand] : llvm::enumerate(instruction.operands)) {
      bool isDestination =
          position == 0 ||
          (position == 1 && (getRegister(instruction.operands[0]) ||
                             isPredicate(instruction.operands[0])));
      if (!isDestination || operand == "PR")
        break;
      std::optional<unsigned> predicate = getPredicate(operand);
      if (!predicate)
        continue;
      Value value = position == 0 && result ? Value(LaneValue::known(*result))
                                            : std::nullopt;
      state[*predicate] = guarded ? join(state[*predicate], value) : value;
    }
    if (llvm::is_contained(instruction.operands, "PR"))
      for (unsigned index = kPredicates; index < kStateSize; ++index)
        state[index].reset();
  }

  /// The registers a subroutine called by `call` writes before it returns.
  const std::vector<unsigned> &getCalleeWrites(const Instruction &call) {
    std::vector<unsigned> &writes = calleeWrites[call.target.value_or(0)];
    if (!writes.empty() || !call.target)
      return writes;
    std::optional<size_t> start = findAddress(code, *call.target);
    for (size_t i = start.value_or(code.size()); i < code.size(); ++i) {
      if (code[i].opcode == "RET")
        break;
      if (code[i].operands.empty())
        continue;
      if (std::optional<unsigned> reg = getRegister(code[i].operands.front()))
        for (unsigned j = 0;
             j < getRegistersWritten(code[i].opcode, code[i].modifiers); ++j)
          writes.push_back(*reg + j);
    }
    if (writes.empty() || !start)
      for (unsigned reg = 0; reg < kRegisters; ++reg)
        writes.push_back(reg); // Unknown callee: it may write anything.
    return writes;
  }

  llvm::ArrayRef<Instruction> code;
  LaunchSample sample;
  std::vector<std::pair<size_t, size_t>> blocks;
  std::map<size_t, size_t> blockOf;
  std::map<uint64_t, std::vector<unsigned>> calleeWrites;
};
} // namespace

std::vector<GlobalAccess>
mlir::ens::sass::analyzeGlobalAccesses(const Kernel &kernel,
                                       std::optional<LaunchShape> shape) {
  if (!shape)
    return Analysis(kernel, LaunchSample()).run();
  // The first and last warps of the first two blocks, the last, and 16
  // spread between (ens's kernels run their phases in ranges of blocks);
  // each access is counted at its worst among the samples that reach it.
  std::set<int64_t> blocks = {0, std::min<int64_t>(1, shape->gridBlocks - 1),
                              shape->gridBlocks - 1};
  for (int64_t i = 1; i < 16; ++i)
    blocks.insert(shape->gridBlocks * i / 16);
  int64_t lastWarp = std::max<int64_t>(shape->blockThreads / kLanes - 1, 0);
  std::vector<GlobalAccess> worst;
  for (int64_t block : blocks) {
    for (int64_t warp : {int64_t(0), lastWarp}) {
      std::vector<GlobalAccess> accesses =
          Analysis(kernel, {warp * kLanes, block, shape}).run();
      if (worst.empty()) {
        worst = std::move(accesses);
        continue;
      }
      for (auto [known, sampled] : llvm::zip(worst, accesses))
        if (sampled.reached &&
            (!known.reached || !sampled.sectors ||
             (known.sectors && *sampled.sectors > *known.sectors)))
          known = sampled;
    }
  }
  return worst;
}
