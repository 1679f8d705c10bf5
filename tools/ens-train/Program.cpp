//===- Program.cpp - The programs ens-train generates ---------------------===//
//
// Checks a one-member model and writes, as MLIR text, the functions that
// initialise, train and evaluate an ensemble of it (see Program.h).
//
//===----------------------------------------------------------------------===//

#include "Program.h"

#include "Failure.h"

#include "ens/Support/Sizes.h"

#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <set>
#include <sstream>

using namespace ens_train;

uint64_t ens_train::estimateTrainingBytes(const Model &model, int64_t members,
                                          int64_t batchRows) {
  using llvm::SaturatingAdd;
  using llvm::SaturatingMultiply;
  const uint64_t rows = batchRows;
  // The step's arguments and results hold the parameters and both moments
  // twice; the gradients are a seventh copy.
  uint64_t perMember = SaturatingMultiply<uint64_t>(7, model.parameterValues);
  // A layer's activations are B x (its parameter's last dimension), and
  // the backward pass holds a gradient of each.
  uint64_t activations = model.numOutputs();
  for (const ens::TensorType &param : model.params)
    if (!param.shape.empty())
      activations = SaturatingAdd<uint64_t>(activations, param.shape.back());
  perMember = SaturatingAdd(
      perMember,
      SaturatingMultiply(SaturatingMultiply<uint64_t>(2, rows), activations));
  // The data, x and targets, held as a data set and as tensors.
  uint64_t data = SaturatingMultiply(
      SaturatingMultiply<uint64_t>(2, rows),
      SaturatingAdd<uint64_t>(model.numFeatures(), model.numOutputs()));
  uint64_t values =
      SaturatingAdd(SaturatingMultiply<uint64_t>(members, perMember), data);
  return SaturatingMultiply<uint64_t>(sizeof(float), values);
}

DataLayout ens_train::getDataLayout(const Model &model, int64_t ensembles) {
  DataLayout layout;
  layout.features = model.numFeatures();
  layout.targets = model.targetColumns() * ensembles;
  layout.classes = model.task == Task::Classify ? model.numOutputs() : 0;
  return layout;
}

ens::TensorType ens_train::stacked(const ens::TensorType &type,
                                   int64_t members) {
  ens::TensorType result = type;
  result.shape.insert(result.shape.begin(), members);
  return result;
}

bool ens_train::isXavierInitialised(const ens::TensorType &param) {
  return param.shape.size() >= 2;
}

/// "a, b" for messages.
static std::string describe(const std::vector<ens::TensorType> &types) {
  std::string text;
  for (size_t i = 0; i < types.size(); ++i)
    text += (i ? ", " : "") + types[i].str();
  return text;
}

/// "(a, b) -> (c)" for messages.
static std::string describe(const ens::Signature &signature) {
  return "(" + describe(signature.inputs) + ") -> (" +
         describe(signature.results) + ")";
}

/// The names of @`function`'s arguments as the text spells them
/// (`%w1: ...` gives "w1"), or an empty list if it cannot tell.
static std::vector<std::string> findArgumentNames(const std::string &text,
                                                  const std::string &function) {
  std::string marker = "@" + function;
  for (size_t at = text.find(marker); at != std::string::npos;
       at = text.find(marker, at + 1)) {
    // Only the definition: "func.func [visibility] @name(".
    size_t lineStart = text.rfind('\n', at);
    lineStart = lineStart == std::string::npos ? 0 : lineStart + 1;
    if (text.compare(lineStart, at - lineStart, "func.func ") != 0 &&
        text.substr(lineStart, at - lineStart).find("func.func") ==
            std::string::npos)
      continue;
    size_t open = at + marker.size();
    if (open >= text.size() || text[open] != '(')
      continue;
    std::vector<std::string> names;
    int depth = 0;
    bool expectName = true;
    for (size_t i = open; i < text.size(); ++i) {
      char c = text[i];
      if (c == '(' || c == '<' || c == '[' || c == '{')
        ++depth;
      else if (c == ')' || c == '>' || c == ']' || c == '}') {
        if (--depth == 0)
          return names;
      } else if (c == ',' && depth == 1) {
        expectName = true;
      } else if (c == '%' && depth == 1 && expectName) {
        size_t end = i + 1;
        while (end < text.size() &&
               (std::isalnum(static_cast<unsigned char>(text[end])) ||
                text[end] == '_'))
          ++end;
        names.push_back(text.substr(i + 1, end - i - 1));
        expectName = false;
      }
    }
    return {};
  }
  return {};
}

Model ens_train::loadModel(const ens::Context &context, const std::string &name,
                           const std::string &text, Task task) {
  Model model;
  model.name = name;
  model.text = text;
  model.task = task;
  ens::Module module = [&] {
    try {
      return context.parse(text);
    } catch (const ens::Error &error) {
      throw Failure("model " + name +
                    " is not a valid ens program: " + error.what());
    }
  }();
  const bool classify = task == Task::Classify;
  const std::string targetsSpelling =
      classify ? "labels: tensor<Bxi32>" : "targets: tensor<BxOxf32>";
  std::vector<std::string> functions = module.functionNames();
  if (!llvm::is_contained(functions, "forward"))
    throw Failure("model " + name +
                  " has no function @forward (ens-train needs "
                  "@forward(x, params...) -> predictions, and may take "
                  "@loss(x, params..., " +
                  targetsSpelling + ") -> tensor<f32>)");
  model.hasLoss = llvm::is_contained(functions, "loss");

  // @forward fixes x, the parameters and the predictions (the batch may be
  // open: `?`, -1 in a signature).
  ens::Signature forward = module.signature("forward");
  auto isMatrix = [](const ens::TensorType &type) {
    return type.dtype == ens::DType::F32 && type.shape.size() == 2 &&
           (type.shape[0] > 0 || type.shape[0] == -1) && type.shape[1] > 0;
  };
  if (forward.inputs.empty() || forward.results.size() != 1 ||
      !isMatrix(forward.inputs[0]) || !isMatrix(forward.results[0]) ||
      forward.inputs[0].shape[0] != forward.results[0].shape[0])
    throw Failure("model " + name +
                  ": @forward must take x as tensor<BxFxf32>, then the "
                  "parameters, and return one tensor<BxOxf32> with the same "
                  "B; it is " +
                  describe(forward));
  model.x = forward.inputs[0];
  model.predictions = forward.results[0];
  model.params.assign(forward.inputs.begin() + 1, forward.inputs.end());
  if (classify && model.numOutputs() < 2)
    throw Failure("model " + name +
                  ": with --task=classify, @forward returns " +
                  "the logits of each class, at least 2; it returns " +
                  model.predictions.str());
  // A classifier's targets are one label per row; a regression's are the
  // predictions' shape.
  model.targets = classify
                      ? ens::TensorType{ens::DType::I32, {model.x.shape[0]}}
                      : model.predictions;
  for (const ens::TensorType &param : model.params)
    if (param.dtype != ens::DType::F32)
      throw Failure("model " + name +
                    ": parameters must be f32 tensors; @forward takes " +
                    param.str());
  if (model.hasLoss) {
    ens::Signature loss = module.signature("loss");
    std::vector<ens::TensorType> expected = forward.inputs;
    expected.push_back(model.targets);
    if (loss.inputs != expected || loss.results.size() != 1 ||
        loss.results[0] != ens::TensorType{ens::DType::F32, {}})
      throw Failure("model " + name +
                    ": @loss must take @forward's arguments, then the " +
                    (classify ? "labels" : "targets") +
                    ", and return the loss: (" + describe(expected) +
                    ") -> (tensor<f32>); it is " + describe(loss));
  }
  // Checked once here, so that the estimate and the messages can use it.
  for (size_t i = 0; i < model.params.size(); ++i) {
    std::string what = "parameter " + std::to_string(i);
    llvm::Expected<int64_t> values =
        mlir::ens::getCheckedNumElements(model.params[i].shape, what);
    if (values)
      values = mlir::ens::getCheckedSum(model.parameterValues, *values,
                                        "the number of parameter values");
    if (!values)
      throw Failure("model " + name + ": " +
                    llvm::toString(values.takeError()));
    model.parameterValues = *values;
  }

  // Parameter names for checkpoints: the text's, when they are usable.
  std::vector<std::string> names =
      findArgumentNames(text, model.hasLoss ? "loss" : "forward");
  std::set<std::string> arrays{"lr", "step", "initial_loss", "loss_curve"};
  bool usable = names.size() == forward.inputs.size() + (model.hasLoss ? 1 : 0);
  for (size_t i = 1; usable && i <= model.params.size(); ++i)
    usable = !names[i].empty() && arrays.insert(names[i]).second &&
             arrays.insert("m_" + names[i]).second &&
             arrays.insert("v_" + names[i]).second;
  for (size_t i = 0; i < model.params.size(); ++i)
    model.paramNames.push_back(usable ? names[i + 1] : "p" + std::to_string(i));
  return model;
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

std::string ens_train::generateProgram(const Model &model, int64_t members,
                                       const AdamOptions &adam,
                                       bool batchPerMember) {
  Writer w(members);
  const std::vector<ens::TensorType> &params = model.params;
  const size_t n = params.size();
  const std::string scalar = "tensor<f32>";
  const std::string key = "tensor<2xi32>";
  std::ostringstream os;
  os << "\n// ===== Generated by ens-train for " << members
     << " members =====\n\n";

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
  stepResults.push_back(ens::TensorType{ens::DType::F32, {}});

  os << "func.func @ens_train_member_step(";
  for (size_t i = 0; i < 3 * n; ++i)
    os << "%"
       << "pmv"[i / n] << i % n << ": " << state[i].str() << ",\n    ";
  os << "%step: " << scalar << ", %lr: " << scalar << ", %x: " << model.x.str()
     << ", %targets: " << model.targets.str() << ")\n    -> ("
     << w.types(stepResults) << ") {\n";
  os << "  %vg:" << n + 1 << " = ens.value_and_grad @" << model.lossFunction()
     << "(%x, " << w.values("p", n)
     << ", %targets)\n      {wrt = " << w.axes([&] {
          std::vector<int64_t> wrt;
          for (size_t i = 1; i <= n; ++i)
            wrt.push_back(i);
          return wrt;
        }())
     << "}\n      : (" << w.types(lossInputs) << ")\n      -> (" << scalar
     << ", " << w.types(params) << ")\n";
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
    os << "  %u" << i << ":3 = call @" << adamFor[type] << "(%p" << i
       << ", %vg#" << i + 1 << ", %m" << i << ", %v" << i
       << ", %step, %lr, %beta1, %beta2, %eps, %decay)\n      : (" << type
       << ", " << type << ", " << type << ", " << type;
    for (int k = 0; k < 6; ++k)
      os << ", " << scalar;
    os << ") -> (" << type << ", " << type << ", " << type << ")\n";
  }
  os << "  return ";
  for (int part = 0; part < 3; ++part)
    for (size_t i = 0; i < n; ++i)
      os << "%u" << i << "#" << part << ", ";
  os << "%vg#0\n      : " << w.types(stepResults) << "\n}\n\n";

  // All members: parameters, moments and learning rates batched, the step
  // number shared, and the data shared or batched.
  std::vector<ens::TensorType> stackedState = w.stackedAll(state);
  std::vector<ens::TensorType> topInputs = stackedState;
  ens::TensorType stepX = batchPerMember ? stacked(model.x, members) : model.x;
  ens::TensorType stepTargets =
      batchPerMember ? stacked(model.targets, members) : model.targets;
  topInputs.insert(topInputs.end(),
                   {ens::TensorType{ens::DType::F32, {}},
                    ens::TensorType{ens::DType::F32, {members}}, stepX,
                    stepTargets});
  std::vector<ens::TensorType> topResults = w.stackedAll(stepResults);
  std::vector<int64_t> inAxes(3 * n, 0);
  int64_t dataAxis = batchPerMember ? 0 : -1;
  inAxes.insert(inAxes.end(), {-1, 0, dataAxis, dataAxis});
  os << "func.func @" << kStepFunction << "(";
  for (size_t i = 0; i < 3 * n; ++i)
    os << "%"
       << "pmv"[i / n] << i % n << ": " << stackedState[i].str() << ",\n    ";
  os << "%step: " << scalar << ", %lr: tensor<" << members
     << "xf32>, %x: " << stepX.str() << ", %targets: " << stepTargets.str()
     << ")\n    -> (" << w.types(topResults) << ") {\n";
  os << "  %r:" << 3 * n + 1 << " = ens.vmap @ens_train_member_step("
     << w.values("p", n) << ", " << w.values("m", n) << ", " << w.values("v", n)
     << ", %step, %lr, %x, %targets)\n      {in_axes = " << w.axes(inAxes)
     << ",\n       out_axes = " << w.axes(std::vector<int64_t>(3 * n + 1, 0))
     << ", size = " << members << " : i64}\n      : (" << w.types(topInputs)
     << ")\n      -> (" << w.types(topResults) << ")\n";
  os << "  return " << w.results("r", 3 * n + 1)
     << "\n      : " << w.types(topResults) << "\n}\n\n";

  // Evaluation: every member's loss, and every member's predictions.
  std::vector<ens::TensorType> evalInputs{model.x};
  evalInputs.insert(evalInputs.end(), stackedParams.begin(),
                    stackedParams.end());
  std::vector<int64_t> evalAxes{-1};
  evalAxes.insert(evalAxes.end(), n, 0);
  std::string lossesType = "tensor<" + std::to_string(members) + "xf32>";
  os << "func.func @" << kLossesFunction << "(%x: " << model.x.str() << ", ";
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

  std::string predictions = stacked(model.predictions, members).str();
  os << "func.func @" << kPredictFunction << "(%x: " << model.x.str();
  for (size_t i = 0; i < n; ++i)
    os << ", %p" << i << ": " << stackedParams[i].str();
  os << ") -> " << predictions << " {\n";
  os << "  %y = ens.vmap @forward(%x, " << w.values("p", n)
     << ")\n      {in_axes = " << w.axes(evalAxes)
     << ", out_axes = array<i64: 0>, size = " << members << " : i64}\n      : ("
     << w.types(evalInputs) << ") -> " << predictions << "\n";
  os << "  return %y : " << predictions << "\n}\n";

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
