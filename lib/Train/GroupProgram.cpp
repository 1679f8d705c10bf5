//===- GroupProgram.cpp - One program for several groups ------------------===//
//
// Writes the step program of a heterogeneous ensemble (GroupProgram.h).
//
//===----------------------------------------------------------------------===//

#include "ens/Train/GroupProgram.h"

#include "ens/Train/Failure.h"

#include "llvm/ADT/StringExtras.h"

#include <sstream>

using namespace ens::train;
using ens::train::Failure;

std::string ens::train::getGroupPrefix(size_t group) {
  return "g" + std::to_string(group) + "_";
}

std::string ens::train::prefixSymbols(llvm::StringRef text,
                                      llvm::StringRef prefix) {
  std::string result;
  result.reserve(text.size());
  bool inString = false;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    result += c;
    if (inString) {
      // An escaped character, a quote among them, is taken as it is.
      if (c == '\\' && i + 1 < text.size())
        result += text[++i];
      else if (c == '"')
        inString = false;
      continue;
    }
    if (c == '"') {
      inString = true;
      continue;
    }
    if (c != '@' || i + 1 >= text.size())
      continue;
    char next = text[i + 1];
    if (next == '"') {
      // @"name": the prefix goes inside the quotes.
      result += '"';
      result += prefix;
      ++i;
    } else if (llvm::isAlpha(next) || next == '_') {
      result += prefix;
    }
  }
  return result;
}

/// Group `group`'s own program (generateProgram's), printed by `context`
/// without its `module { ... }` and with its symbols prefixed.
static std::string writeGroupProgram(ens::Context &context,
                                     const ProgramGroup &group, size_t index,
                                     const AdamOptions &adam) {
  std::string printed;
  try {
    printed =
        context.parse(generateProgram(*group.model, group.shape, adam)).str();
  } catch (const ens::Error &error) {
    throw Failure("cannot build the training program for model " + group.name +
                  ": " + error.what());
  }
  llvm::StringRef body = llvm::StringRef(printed).trim();
  // A module with attributes of its own cannot be merged into another.
  if (!body.consume_front("module {") || !body.consume_back("}"))
    throw Failure("cannot build the training program for model " + group.name +
                  ": a model of a heterogeneous ensemble must not set "
                  "attributes on its module");
  return prefixSymbols(body, getGroupPrefix(index));
}

std::string
ens::train::generateGroupsProgram(ens::Context &context,
                                  llvm::ArrayRef<ProgramGroup> groups,
                                  const AdamOptions &adam) {
  std::ostringstream os;
  for (size_t g = 0; g < groups.size(); ++g)
    os << "// ===== Group " << g << ": " << groups[g].shape.members
       << " members of " << groups[g].name << " =====\n"
       << writeGroupProgram(context, groups[g], g, adam) << "\n";

  // Every group's step, one vmap each, side by side.
  std::vector<ens::TensorType> results;
  os << "// ===== The step of every group =====\n\n";
  os << "func.func @" << kStepFunction << "(";
  for (size_t g = 0; g < groups.size(); ++g) {
    const ProgramShape &shape = groups[g].shape;
    os << (g ? ",\n    " : "");
    writeMembersStepParameters(os, *groups[g].model, shape.members,
                               shape.batchPerMember, getGroupPrefix(g));
    std::vector<ens::TensorType> mine =
        getMembersStepTypes(*groups[g].model, shape.members,
                            shape.batchPerMember)
            .results;
    results.insert(results.end(), mine.begin(), mine.end());
  }
  auto types = [](const std::vector<ens::TensorType> &list) {
    std::string text;
    for (const ens::TensorType &type : list)
      text += (text.empty() ? "" : ", ") + type.str();
    return text;
  };
  os << ")\n    -> (" << types(results) << ") {\n";
  std::string values;
  for (size_t g = 0; g < groups.size(); ++g) {
    const ProgramShape &shape = groups[g].shape;
    std::string result = "r" + std::to_string(g);
    writeMembersStepVmap(os, *groups[g].model, shape.members,
                         shape.batchPerMember, getGroupPrefix(g), result);
    for (size_t i = 0; i < 3 * groups[g].model->params.size() + 1; ++i)
      values +=
          (values.empty() ? "%" : ", %") + result + "#" + std::to_string(i);
  }
  os << "  return " << values << "\n      : " << types(results) << "\n}\n";
  return os.str();
}
