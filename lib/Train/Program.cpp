//===- Program.cpp - The programs ens-train generates ---------------------===//
//
// Writes, as MLIR text, the functions that initialise, train and evaluate
// an ensemble of a one-member model (see Program.h).
//
//===----------------------------------------------------------------------===//

#include "ens/Train/Program.h"

#include "ens/Train/Failure.h"

#include "ens/Support/Sizes.h"

#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <optional>
#include <set>
#include <sstream>

using namespace ens::train;
using ens::train::Failure;

bool ens::train::isXavierInitialised(const ens::TensorType &param) {
  return param.shape.size() >= 2;
}

//===----------------------------------------------------------------------===//
// Text generation
//===----------------------------------------------------------------------===//

namespace {
/// Helpers for writing the generated functions.
class Writer {
public:
  explicit Writer(int64_t members) : members(members) {}

  /// "a, b, c" from `items`.
  template <typename Range, typename Fn>
  static std::string join(const Range &items, Fn fn) {
    std::string text;
    bool first = true;
    for (const auto &item : items) {
      text += (first ? "" : ", ") + fn(item);
      first = false;
    }
    return text;
  }
  static std::string types(const std::vector<ens::TensorType> &list) {
    return join(list, [](const ens::TensorType &type) { return type.str(); });
  }
  static std::string axes(const std::vector<int64_t> &list) {
    return "array<i64: " +
           join(list, [](int64_t axis) { return std::to_string(axis); }) + ">";
  }
  /// "%prefix0, %prefix1, ..." for `count` values.
  static std::string values(const std::string &prefix, size_t count,
                            size_t first = 0) {
    std::string text;
    for (size_t i = 0; i < count; ++i)
      text += (i ? ", %" : "%") + prefix + std::to_string(first + i);
    return text;
  }
  /// "%r#0, %r#1, ..." for `count` results of `name`.
  static std::string results(const std::string &name, size_t count) {
    std::string text;
    for (size_t i = 0; i < count; ++i)
      text += (i ? ", %" : "%") + name + "#" + std::to_string(i);
    return text;
  }
  /// `list` with a leading member dimension.
  std::vector<ens::TensorType>
  stackedAll(const std::vector<ens::TensorType> &list) const {
    std::vector<ens::TensorType> result;
    for (const ens::TensorType &type : list)
      result.push_back(stacked(type, members));
    return result;
  }
  /// The shortest literal that reads back as the same f32 value.
  static std::string literal(double value) {
    float target = static_cast<float>(value);
    char buffer[32];
    for (int precision = 1; precision <= 9; ++precision) {
      std::snprintf(buffer, sizeof(buffer), "%.*g", precision, target);
      if (static_cast<float>(std::strtod(buffer, nullptr)) == target)
        break;
    }
    // MLIR's float literals need a decimal point: 1e-08 is 1.0e-08.
    std::string text = buffer;
    if (text.find('.') == std::string::npos)
      text.insert(std::min(text.find('e'), text.size()), ".0");
    return text;
  }

  int64_t members;
};
} // namespace

ens::TensorType ens::train::getEnsembleTargetsType(const Model &model,
                                                   int64_t ensembles) {
  if (ensembles == 1)
    return model.targets;
  ens::TensorType type = model.targets;
  if (model.task == Task::Classify)
    type.shape.push_back(ensembles);
  else
    type.shape[1] *= ensembles;
  return type;
}

MembersStepTypes ens::train::getMembersStepTypes(const Model &model,
                                                 int64_t members,
                                                 bool batchPerMember) {
  Writer w(members);
  MembersStepTypes types;
  for (int copy = 0; copy < 3; ++copy)
    for (const ens::TensorType &param : model.params)
      types.inputs.push_back(stacked(param, members));
  types.results = types.inputs;
  types.inputs.insert(
      types.inputs.end(),
      {ens::TensorType{ens::DType::F32, {}},
       ens::TensorType{ens::DType::F32, {members}},
       batchPerMember ? stacked(model.x, members) : model.x,
       batchPerMember ? stacked(model.targets, members) : model.targets});
  types.results.push_back(ens::TensorType{ens::DType::F32, {members}});
  return types;
}

/// The names of the step's arguments (getMembersStepTypes's inputs), each
/// after `prefix`.
static std::vector<std::string> getMembersStepNames(const Model &model,
                                                    const std::string &prefix) {
  std::vector<std::string> names;
  const size_t n = model.params.size();
  for (size_t i = 0; i < 3 * n; ++i)
    names.push_back(prefix + "pmv"[i / n] + std::to_string(i % n));
  for (const char *name : {"step", "lr", "x", "targets"})
    names.push_back(prefix + name);
  return names;
}

void ens::train::writeMembersStepParameters(std::ostream &os,
                                            const Model &model, int64_t members,
                                            bool batchPerMember,
                                            const std::string &prefix) {
  std::vector<ens::TensorType> types =
      getMembersStepTypes(model, members, batchPerMember).inputs;
  std::vector<std::string> names = getMembersStepNames(model, prefix);
  for (size_t i = 0; i < names.size(); ++i)
    os << (i ? ",\n    %" : "%") << names[i] << ": " << types[i].str();
}

void ens::train::writeMembersStepVmap(std::ostream &os, const Model &model,
                                      int64_t members, bool batchPerMember,
                                      const std::string &prefix,
                                      const std::string &result) {
  const size_t n = model.params.size();
  MembersStepTypes types = getMembersStepTypes(model, members, batchPerMember);
  std::vector<int64_t> inAxes(3 * n, 0);
  int64_t dataAxis = batchPerMember ? 0 : -1;
  inAxes.insert(inAxes.end(), {-1, 0, dataAxis, dataAxis});
  os << "  %" << result << ":" << 3 * n + 1 << " = ens.vmap @" << prefix
     << "ens_train_member_step("
     << Writer::join(getMembersStepNames(model, prefix),
                     [](const std::string &name) { return "%" + name; })
     << ")\n      {in_axes = " << Writer::axes(inAxes)
     << ",\n       out_axes = "
     << Writer::axes(std::vector<int64_t>(3 * n + 1, 0))
     << ", size = " << members << " : i64}\n      : ("
     << Writer::types(types.inputs) << ")\n      -> ("
     << Writer::types(types.results) << ")\n";
}

namespace {
/// An argument of a function over all ensembles that runs a function over
/// one ensemble for each.
struct EnsembleArgument {
  std::string name;
  /// Its type over all ensembles.
  ens::TensorType type;
  /// The type it is reshaped to first, with an axis of ensembles, if any.
  std::optional<ens::TensorType> view;
  /// The ensembles' axis (in the view), or -1 for an argument that every
  /// ensemble shares.
  int64_t axis;
};
} // namespace

/// Writes @`name`: @`inner`, a function over one ensemble's M members,
/// vmapped over `ensembles` ensembles. Its results, [K x M x ...], are
/// reshaped into `results`, [K*M x ...], the members of ensemble k at
/// [k*M, (k+1)*M).
static void writeOverEnsembles(std::ostream &os, const std::string &name,
                               const std::string &inner,
                               const std::vector<EnsembleArgument> &arguments,
                               const std::vector<ens::TensorType> &results,
                               int64_t ensembles) {
  std::vector<ens::TensorType> innerTypes, split;
  std::vector<int64_t> axes;
  std::string innerArguments;
  os << "func.func @" << name << "(";
  for (size_t i = 0; i < arguments.size(); ++i)
    os << (i ? ", %" : "%") << arguments[i].name << ": "
       << arguments[i].type.str();
  os << ")\n    -> (" << Writer::types(results) << ") {\n";
  for (const EnsembleArgument &argument : arguments) {
    innerArguments += (innerArguments.empty() ? "%" : ", %") + argument.name;
    innerTypes.push_back(argument.view ? *argument.view : argument.type);
    axes.push_back(argument.axis);
    if (argument.view) {
      innerArguments += "_view";
      os << "  %" << argument.name << "_view = ens.reshape %" << argument.name
         << " : " << argument.type.str() << " -> " << argument.view->str()
         << "\n";
    }
  }
  for (ens::TensorType type : results) {
    type.shape[0] /= ensembles;
    split.push_back(stacked(type, ensembles));
  }
  os << "  %e:" << results.size() << " = ens.vmap @" << inner << "("
     << innerArguments << ")\n      {in_axes = " << Writer::axes(axes)
     << ", out_axes = " << Writer::axes(std::vector<int64_t>(results.size(), 0))
     << ", size = " << ensembles << " : i64}\n      : ("
     << Writer::types(innerTypes) << ")\n      -> (" << Writer::types(split)
     << ")\n";
  for (size_t j = 0; j < results.size(); ++j)
    os << "  %o" << j << " = ens.reshape %e#" << j << " : " << split[j].str()
       << " -> " << results[j].str() << "\n";
  os << "  return " << Writer::values("o", results.size()) << " : "
     << Writer::types(results) << "\n}\n\n";
}

std::string ens::train::generateProgram(const Model &model,
                                        const ProgramShape &shape,
                                        const AdamOptions &adam) {
  const int64_t members = shape.members;
  const bool batchPerMember = shape.batchPerMember;
  // With several ensembles, the step and the losses are written for one
  // ensemble, and run for each by a function over all.
  const bool nested = shape.ensembles > 1;
  Writer w(members);
  const std::vector<ens::TensorType> &params = model.params;
  const size_t n = params.size();
  const std::string scalar = "tensor<f32>";
  const std::string key = "tensor<2xi32>";
  std::ostringstream os;
  os << "\n// ===== Generated by ens-train for " << members << " members"
     << (nested
             ? " in each of " + std::to_string(shape.ensembles) + " ensembles"
             : std::string())
     << " =====\n\n";

  // Standard-library declarations, one per distinct parameter type.
  std::map<std::string, std::string> adamFor, xavierFor;
  for (const ens::TensorType &param : params) {
    std::string type = param.str();
    if (!adamFor.count(type)) {
      std::string fn = "ens_train_adam_" + std::to_string(adamFor.size());
      adamFor[type] = fn;
      os << "func.func private @" << fn << "(" << type << ", " << type << ", "
         << type << ", " << type;
      for (int i = 0; i < 6; ++i)
        os << ", " << scalar;
      os << ")\n    -> (" << type << ", " << type << ", " << type
         << ") attributes {ens.stdlib = \"adam\"}\n";
    }
    if (isXavierInitialised(param) && !xavierFor.count(type)) {
      std::string fn = "ens_train_xavier_" + std::to_string(xavierFor.size());
      xavierFor[type] = fn;
      os << "func.func private @" << fn << "(" << key << ", " << scalar << ", "
         << scalar << ") -> " << type
         << "\n    attributes {ens.stdlib = \"xavier_uniform\"}\n";
    }
  }
  if (!model.hasLoss) {
    // The task's loss of @forward's predictions, from the standard library.
    std::string predictions = model.predictions.str(),
                targets = model.targets.str();
    std::vector<ens::TensorType> inputs{model.x};
    inputs.insert(inputs.end(), params.begin(), params.end());
    os << "func.func private @ens_train_task_loss(" << predictions << ", "
       << targets << ") -> " << scalar << "\n    attributes {ens.stdlib = \""
       << (model.task == Task::Classify ? "softmax_cross_entropy" : "mse")
       << "\"}\n";
    os << "func.func @" << model.lossFunction() << "(%x: " << model.x.str();
    for (size_t i = 0; i < n; ++i)
      os << ", %p" << i << ": " << params[i].str();
    os << ", %targets: " << targets << ") -> " << scalar << " {\n";
    os << "  %y = call @forward(%x, " << w.values("p", n) << ") : ("
       << w.types(inputs) << ") -> " << predictions << "\n";
    os << "  %l = call @ens_train_task_loss(%y, %targets) : (" << predictions
       << ", " << targets << ") -> " << scalar << "\n";
    os << "  return %l : " << scalar << "\n}\n";
  }
  os << "\n";

  // Initialisation of one member from its key.
  os << "func.func @ens_train_init_member(%key: " << key << ") -> ("
     << w.types(params) << ") {\n";
  os << "  %keys = ens.random_split %key : " << key << " -> tensor<" << n
     << "x2xi32>\n";
  for (size_t i = 0; i < n; ++i) {
    const ens::TensorType &param = params[i];
    if (!isXavierInitialised(param)) {
      os << "  %p" << i << " = ens.constant dense<0.0> : " << param.str()
         << "\n";
      continue;
    }
    int64_t fanIn = 1;
    for (size_t d = 0; d + 1 < param.shape.size(); ++d)
      fanIn *= param.shape[d];
    int64_t fanOut = param.shape.back();
    os << "  %ks" << i << " = ens.slice %keys {start = array<i64: " << i
       << ", 0>, limit = array<i64: " << i + 1
       << ", 2>, stride = array<i64: 1, 1>}\n      : tensor<" << n
       << "x2xi32> -> tensor<1x2xi32>\n";
    os << "  %k" << i << " = ens.reshape %ks" << i << " : tensor<1x2xi32> -> "
       << key << "\n";
    os << "  %fan_in" << i << " = ens.constant dense<" << fanIn
       << ".0> : " << scalar << "\n";
    os << "  %fan_out" << i << " = ens.constant dense<" << fanOut
       << ".0> : " << scalar << "\n";
    os << "  %p" << i << " = call @" << xavierFor[param.str()] << "(%k" << i
       << ", %fan_in" << i << ", %fan_out" << i << ")\n      : (" << key << ", "
       << scalar << ", " << scalar << ") -> " << param.str() << "\n";
  }
  os << "  return " << w.values("p", n) << " : " << w.types(params)
     << "\n}\n\n";

  std::vector<ens::TensorType> stackedParams = w.stackedAll(params);
  os << "func.func @" << kInitFunction << "(%key: " << key << ") -> ("
     << w.types(stackedParams) << ") {\n";
  os << "  %r:" << n << " = ens.vmap @ens_train_init_member(%key)\n"
     << "      {in_axes = array<i64: -1>, out_axes = "
     << w.axes(std::vector<int64_t>(n, 0)) << ", size = " << members
     << " : i64,\n       randomness = \"different\"}\n"
     << "      : (" << key << ") -> (" << w.types(stackedParams) << ")\n";
  os << "  return " << w.results("r", n) << " : " << w.types(stackedParams)
     << "\n}\n\n";

  // One training step of one member: loss and gradients, then Adam.
  std::vector<ens::TensorType> state;
  for (int copy = 0; copy < 3; ++copy)
    state.insert(state.end(), params.begin(), params.end());
  std::vector<ens::TensorType> lossInputs{model.x};
  lossInputs.insert(lossInputs.end(), params.begin(), params.end());
  lossInputs.push_back(model.targets);
  std::vector<ens::TensorType> stepInputs = state;
  stepInputs.insert(stepInputs.end(), {ens::TensorType{ens::DType::F32, {}},
                                       ens::TensorType{ens::DType::F32, {}},
                                       model.x, model.targets});
  std::vector<ens::TensorType> stepResults = state;
  const ens::TensorType scalarType{ens::DType::F32, {}};
  stepResults.push_back(scalarType);

  // One member's loss and gradients, and its Adam update from gradients:
  // the step calls both; --data-parallel runs them apart, with the
  // gradients of the processes' parts of a batch averaged between.
  std::vector<ens::TensorType> gradsResults{scalarType};
  gradsResults.insert(gradsResults.end(), params.begin(), params.end());
  os << "func.func @ens_train_member_grads(%x: " << model.x.str();
  for (size_t i = 0; i < n; ++i)
    os << ", %p" << i << ": " << params[i].str();
  os << ", %targets: " << model.targets.str() << ")\n    -> ("
     << w.types(gradsResults) << ") {\n";
  os << "  %vg:" << n + 1 << " = ens.value_and_grad @" << model.lossFunction()
     << "(%x, " << w.values("p", n)
     << ", %targets)\n      {wrt = " << w.axes([&] {
          std::vector<int64_t> wrt;
          for (size_t i = 1; i <= n; ++i)
            wrt.push_back(i);
          return wrt;
        }())
     << "}\n      : (" << w.types(lossInputs) << ")\n      -> ("
     << w.types(gradsResults) << ")\n";
  os << "  return " << w.results("vg", n + 1) << " : " << w.types(gradsResults)
     << "\n}\n\n";

  std::vector<ens::TensorType> updateInputs;
  for (int copy = 0; copy < 4; ++copy)
    updateInputs.insert(updateInputs.end(), params.begin(), params.end());
  updateInputs.insert(updateInputs.end(), {scalarType, scalarType});
  os << "func.func @ens_train_member_update(";
  for (size_t i = 0; i < 4 * n; ++i)
    os << "%"
       << "pgmv"[i / n] << i % n << ": " << updateInputs[i].str() << ", ";
  os << "%step: " << scalar << ", %lr: " << scalar << ")\n    -> ("
     << w.types(state) << ") {\n";
  os << "  %beta1 = ens.constant dense<" << Writer::literal(adam.beta1)
     << "> : " << scalar << "\n";
  os << "  %beta2 = ens.constant dense<" << Writer::literal(adam.beta2)
     << "> : " << scalar << "\n";
  os << "  %eps = ens.constant dense<" << Writer::literal(adam.eps)
     << "> : " << scalar << "\n";
  os << "  %decay = ens.constant dense<" << Writer::literal(adam.weightDecay)
     << "> : " << scalar << "\n";
  for (size_t i = 0; i < n; ++i) {
    std::string type = params[i].str();
    os << "  %u" << i << ":3 = call @" << adamFor[type] << "(%p" << i << ", %g"
       << i << ", %m" << i << ", %v" << i
       << ", %step, %lr, %beta1, %beta2, %eps, %decay)\n      : (" << type
       << ", " << type << ", " << type << ", " << type;
    for (int k = 0; k < 6; ++k)
      os << ", " << scalar;
    os << ") -> (" << type << ", " << type << ", " << type << ")\n";
  }
  os << "  return ";
  for (int part = 0; part < 3; ++part)
    for (size_t i = 0; i < n; ++i)
      os << (part || i ? ", " : "") << "%u" << i << "#" << part;
  os << " : " << w.types(state) << "\n}\n\n";

  os << "func.func @ens_train_member_step(";
  for (size_t i = 0; i < 3 * n; ++i)
    os << "%"
       << "pmv"[i / n] << i % n << ": " << state[i].str() << ",\n    ";
  os << "%step: " << scalar << ", %lr: " << scalar << ", %x: " << model.x.str()
     << ", %targets: " << model.targets.str() << ")\n    -> ("
     << w.types(stepResults) << ") {\n";
  os << "  %vg:" << n + 1 << " = call @ens_train_member_grads(%x, "
     << w.values("p", n) << ", %targets)\n      : (" << w.types(lossInputs)
     << ") -> (" << w.types(gradsResults) << ")\n";
  os << "  %u:" << 3 * n << " = call @ens_train_member_update("
     << w.values("p", n) << ", ";
  for (size_t i = 0; i < n; ++i)
    os << "%vg#" << i + 1 << ", ";
  os << w.values("m", n) << ", " << w.values("v", n)
     << ", %step, %lr)\n      : (" << w.types(updateInputs) << ") -> ("
     << w.types(state) << ")\n";
  os << "  return " << w.results("u", 3 * n)
     << ", %vg#0\n      : " << w.types(stepResults) << "\n}\n\n";

  // All members: parameters, moments and learning rates batched, the step
  // number shared, and the data shared or batched.
  ens::TensorType stepX = batchPerMember ? stacked(model.x, members) : model.x;
  ens::TensorType stepTargets =
      batchPerMember ? stacked(model.targets, members) : model.targets;
  int64_t dataAxis = batchPerMember ? 0 : -1;
  const std::string stepFunction =
      nested ? "ens_train_ensemble_step" : kStepFunction;
  std::vector<ens::TensorType> topResults =
      getMembersStepTypes(model, members, batchPerMember).results;
  os << "func.func @" << stepFunction << "(";
  writeMembersStepParameters(os, model, members, batchPerMember, "");
  os << ")\n    -> (" << w.types(topResults) << ") {\n";
  writeMembersStepVmap(os, model, members, batchPerMember, "", "r");
  os << "  return " << w.results("r", 3 * n + 1)
     << "\n      : " << w.types(topResults) << "\n}\n\n";

  // --data-parallel's step in two: every member's loss and gradients on
  // the process's part of a batch (x and targets as the step's), and
  // every member's update from the averaged gradients.
  std::vector<ens::TensorType> gradsInputs{stepX};
  gradsInputs.insert(gradsInputs.end(), stackedParams.begin(),
                     stackedParams.end());
  gradsInputs.push_back(stepTargets);
  std::vector<ens::TensorType> gradsOutputs = w.stackedAll(gradsResults);
  std::vector<int64_t> gradsAxes{dataAxis};
  gradsAxes.insert(gradsAxes.end(), n, 0);
  gradsAxes.push_back(dataAxis);
  const std::string gradsFunction =
      nested ? "ens_train_ensemble_grads" : kGradsFunction;
  os << "func.func @" << gradsFunction << "(%x: " << stepX.str();
  for (size_t i = 0; i < n; ++i)
    os << ", %p" << i << ": " << stackedParams[i].str();
  os << ", %targets: " << stepTargets.str() << ")\n    -> ("
     << w.types(gradsOutputs) << ") {\n";
  os << "  %r:" << n + 1 << " = ens.vmap @ens_train_member_grads(%x, "
     << w.values("p", n)
     << ", %targets)\n      {in_axes = " << w.axes(gradsAxes)
     << ", out_axes = " << w.axes(std::vector<int64_t>(n + 1, 0))
     << ", size = " << members << " : i64}\n      : (" << w.types(gradsInputs)
     << ")\n      -> (" << w.types(gradsOutputs) << ")\n";
  os << "  return " << w.results("r", n + 1) << " : " << w.types(gradsOutputs)
     << "\n}\n\n";

  // Evaluation: every member's loss, and every member's predictions.
  std::vector<ens::TensorType> evalInputs{model.x};
  evalInputs.insert(evalInputs.end(), stackedParams.begin(),
                    stackedParams.end());
  std::vector<int64_t> evalAxes{-1};
  evalAxes.insert(evalAxes.end(), n, 0);
  std::string lossesType = "tensor<" + std::to_string(members) + "xf32>";
  const std::string lossesFunction =
      nested ? "ens_train_ensemble_losses" : kLossesFunction;
  os << "func.func @" << lossesFunction << "(%x: " << model.x.str() << ", ";
  for (size_t i = 0; i < n; ++i)
    os << "%p" << i << ": " << stackedParams[i].str() << ", ";
  os << "%targets: " << model.targets.str() << ") -> " << lossesType << " {\n";
  std::vector<int64_t> lossAxes = evalAxes;
  lossAxes.push_back(-1);
  std::vector<ens::TensorType> lossEvalInputs = evalInputs;
  lossEvalInputs.push_back(model.targets);
  os << "  %l = ens.vmap @" << model.lossFunction() << "(%x, "
     << w.values("p", n) << ", %targets)\n      {in_axes = " << w.axes(lossAxes)
     << ", out_axes = array<i64: 0>, size = " << members << " : i64}\n      : ("
     << w.types(lossEvalInputs) << ") -> " << lossesType << "\n";
  os << "  return %l : " << lossesType << "\n}\n\n";

  // Prediction needs no targets: one vmap over every ensemble's members.
  const int64_t total = shape.total();
  Writer all(total);
  std::vector<ens::TensorType> allParams = all.stackedAll(params);
  std::vector<ens::TensorType> predictInputs{model.x};
  predictInputs.insert(predictInputs.end(), allParams.begin(), allParams.end());
  std::string predictions = stacked(model.predictions, total).str();
  os << "func.func @" << kPredictFunction << "(%x: " << model.x.str();
  for (size_t i = 0; i < n; ++i)
    os << ", %p" << i << ": " << allParams[i].str();
  os << ") -> " << predictions << " {\n";
  os << "  %y = ens.vmap @forward(%x, " << w.values("p", n)
     << ")\n      {in_axes = " << w.axes(evalAxes)
     << ", out_axes = array<i64: 0>, size = " << total << " : i64}\n      : ("
     << w.types(predictInputs) << ") -> " << predictions << "\n";
  os << "  return %y : " << predictions << "\n}\n\n";

  if (nested) {
    // The members' state is [K*M x ...], viewed as [K x M x ...]; the
    // targets of all ensembles, [B x K*O] (or [B x K] labels), as
    // [B x K x O]; a batch per member adds a leading M.
    const int64_t k = shape.ensembles;
    auto stateArgument = [&](const std::string &name,
                             const ens::TensorType &type) {
      return EnsembleArgument{name, stacked(type, total),
                              stacked(stacked(type, members), k), 0};
    };
    ens::TensorType targets = getEnsembleTargetsType(model, k);
    EnsembleArgument targetsArgument{"targets", targets, std::nullopt, 1};
    if (model.task == Task::Regress) {
      ens::TensorType view = model.targets;
      view.shape.insert(view.shape.begin() + 1, k);
      targetsArgument.view = view;
    }
    std::vector<EnsembleArgument> stepArguments;
    for (size_t i = 0; i < 3 * n; ++i)
      stepArguments.push_back(stateArgument(
          std::string(1, "pmv"[i / n]) + std::to_string(i % n), state[i]));
    stepArguments.push_back({"step", scalarType, std::nullopt, -1});
    stepArguments.push_back(stateArgument("lr", scalarType));
    EnsembleArgument stepTargetsArgument = targetsArgument;
    if (batchPerMember) {
      stepTargetsArgument.type = stacked(targets, members);
      if (stepTargetsArgument.view)
        stepTargetsArgument.view = stacked(*stepTargetsArgument.view, members);
      ++stepTargetsArgument.axis;
    }
    stepArguments.push_back({"x", stepX, std::nullopt, -1});
    stepArguments.push_back(stepTargetsArgument);
    writeOverEnsembles(os, kStepFunction, stepFunction, stepArguments,
                       all.stackedAll(stepResults), k);

    std::vector<EnsembleArgument> lossArguments{
        {"x", model.x, std::nullopt, -1}};
    for (size_t i = 0; i < n; ++i)
      lossArguments.push_back(
          stateArgument("p" + std::to_string(i), params[i]));
    lossArguments.push_back(targetsArgument);
    writeOverEnsembles(os, kLossesFunction, lossesFunction, lossArguments,
                       {ens::TensorType{ens::DType::F32, {total}}}, k);

    std::vector<EnsembleArgument> gradsArguments{
        {"x", stepX, std::nullopt, -1}};
    for (size_t i = 0; i < n; ++i)
      gradsArguments.push_back(
          stateArgument("p" + std::to_string(i), params[i]));
    gradsArguments.push_back(stepTargetsArgument);
    writeOverEnsembles(os, kGradsFunction, gradsFunction, gradsArguments,
                       all.stackedAll(gradsResults), k);
  }

  // The update needs no data: one vmap over every ensemble's members.
  std::vector<ens::TensorType> allUpdateInputs = all.stackedAll(updateInputs);
  allUpdateInputs[4 * n] = scalarType;
  std::vector<ens::TensorType> allState = all.stackedAll(state);
  std::vector<int64_t> updateAxes(4 * n, 0);
  updateAxes.insert(updateAxes.end(), {-1, 0});
  os << "func.func @" << kUpdateFunction << "(";
  for (size_t i = 0; i < 4 * n; ++i)
    os << "%"
       << "pgmv"[i / n] << i % n << ": " << allUpdateInputs[i].str() << ", ";
  os << "%step: " << scalar << ", %lr: " << allUpdateInputs.back().str()
     << ")\n    -> (" << w.types(allState) << ") {\n";
  os << "  %r:" << 3 * n << " = ens.vmap @ens_train_member_update("
     << w.values("p", n) << ", " << w.values("g", n) << ", " << w.values("m", n)
     << ", " << w.values("v", n)
     << ", %step, %lr)\n      {in_axes = " << w.axes(updateAxes)
     << ", out_axes = " << w.axes(std::vector<int64_t>(3 * n, 0))
     << ", size = " << total << " : i64}\n      : (" << w.types(allUpdateInputs)
     << ")\n      -> (" << w.types(allState) << ")\n";
  os << "  return " << w.results("r", 3 * n) << " : " << w.types(allState)
     << "\n}\n";

  // A model written as an explicit `module { ... }` gets the functions
  // inside it.
  std::string generated = os.str();
  std::string program = model.text;
  size_t first = program.find_first_not_of(" \t\r\n");
  while (first != std::string::npos && program.compare(first, 2, "//") == 0) {
    size_t eol = program.find('\n', first);
    first = eol == std::string::npos
                ? eol
                : program.find_first_not_of(" \t\r\n", eol);
  }
  size_t close = program.rfind('}');
  if (first != std::string::npos && program.compare(first, 6, "module") == 0 &&
      close != std::string::npos)
    return program.insert(close, generated);
  return program + generated;
}
