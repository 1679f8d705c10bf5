//===- Model.cpp - The one-member model ens-train trains ------------------===//
//
// Checks a one-member model against what ens-train needs (see Model.h).
//
//===----------------------------------------------------------------------===//

#include "ens/Train/Model.h"

#include "ens/Train/Failure.h"

#include "ens/Support/Sizes.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <cctype>
#include <set>

using namespace ens::train;
using ens::train::Failure;

uint64_t ens::train::estimateTrainingBytes(const Model &model, int64_t members,
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

DataLayout ens::train::getDataLayout(const Model &model, int64_t ensembles) {
  DataLayout layout;
  layout.features = model.numFeatures();
  layout.targets = model.targetColumns() * ensembles;
  layout.classes = model.task == Task::Classify ? model.numOutputs() : 0;
  return layout;
}

ens::TensorType ens::train::stacked(const ens::TensorType &type,
                                    int64_t members) {
  ens::TensorType result = type;
  result.shape.insert(result.shape.begin(), members);
  return result;
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

Model ens::train::loadModel(const ens::Context &context,
                            const std::string &name, const std::string &text,
                            Task task) {
  Model model;
  model.name = name;
  model.text = text;
  model.task = task;
  ens::Module module = [&] {
    try {
      return context.parse(text, name);
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
