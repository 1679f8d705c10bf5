//===- InitialParameters.cpp - Starting weights from a file ---------------===//

#include "ens/Train/InitialParameters.h"

#include "ens/Train/Failure.h"

#include "ens/Support/Npz.h"

#include "llvm/ADT/STLExtras.h"

#include <map>

using namespace ens::train;
using ens::train::Failure;
using mlir::ens::HostTensor;

/// "[2, 3]".
static std::string describe(llvm::ArrayRef<int64_t> shape) {
  std::string text = "[";
  for (size_t i = 0; i < shape.size(); ++i)
    text += (i ? ", " : "") + std::to_string(shape[i]);
  return text + "]";
}

std::vector<ens::Tensor>
ens::train::readInitialParameters(const std::string &path, const Model &model,
                                  int64_t members) {
  llvm::Expected<std::vector<mlir::ens::NamedArray>> arrays =
      mlir::ens::readNpz(path);
  if (!arrays)
    throw Failure("cannot read --init-from: " +
                  llvm::toString(arrays.takeError()));
  std::map<std::string, const HostTensor *> byName;
  for (const auto &[name, array] : *arrays) {
    if (!llvm::is_contained(model.paramNames, name))
      throw Failure("--init-from " + path + " holds '" + name +
                    "', which is not a parameter of model " + model.name);
    byName[name] = &array;
  }
  std::vector<ens::Tensor> params;
  for (size_t i = 0; i < model.params.size(); ++i) {
    const std::string &name = model.paramNames[i];
    const std::vector<int64_t> &shape = model.params[i].shape;
    auto it = byName.find(name);
    if (it == byName.end())
      throw Failure("--init-from " + path + " has no array '" + name +
                    "' for the model's parameter of shape " + describe(shape));
    const HostTensor &array = *it->second;
    std::vector<int64_t> stacked{members};
    stacked.insert(stacked.end(), shape.begin(), shape.end());
    bool perMember = llvm::ArrayRef<int64_t>(array.shape) ==
                     llvm::ArrayRef<int64_t>(stacked);
    if (!perMember &&
        llvm::ArrayRef<int64_t>(array.shape) != llvm::ArrayRef<int64_t>(shape))
      throw Failure("--init-from " + path + ": '" + name + "' has shape " +
                    describe(array.shape) + "; the model's parameter is " +
                    describe(shape) + ", or " + describe(stacked) +
                    " with one per member");
    // Each member's values: its own slice, or the one array for all.
    const size_t count = array.values.size() / (perMember ? members : 1);
    std::vector<double> values;
    values.reserve(count * members);
    for (int64_t member = 0; member < members; ++member) {
      auto first = array.values.begin() + (perMember ? member * count : 0);
      values.insert(values.end(), first, first + count);
    }
    ens::Tensor param(ens::TensorType{model.params[i].dtype, stacked}, values);
    params.push_back(std::move(param));
  }
  return params;
}
