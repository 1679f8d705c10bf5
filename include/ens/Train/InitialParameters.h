//===- InitialParameters.h - Starting weights from a file -------*- C++ -*-===//
//
// `--init-from=FILE.npz` starts training from given weights instead of the
// model's initialisers: one array per parameter, named as the model names
// it, either of the member's shape (every member starts from it) or
// stacked over the members ([members, ...], each member its own).
//
//===----------------------------------------------------------------------===//

#ifndef ENS_TRAIN_INITIALPARAMETERS_H
#define ENS_TRAIN_INITIALPARAMETERS_H

#include "ens/Train/Model.h"

#include "ens/ens.h"

#include <string>
#include <vector>

namespace ens::train {

/// The parameters in `path` for `members` members of `model`, each a
/// tensor of [members, ...] in the order of model.paramNames. Throws
/// Failure naming the file and the parameter when an array is missing, has
/// another shape, or is not a parameter of the model.
std::vector<ens::Tensor> readInitialParameters(const std::string &path,
                                               const Model &model,
                                               int64_t members);

} // namespace ens::train

#endif // ENS_TRAIN_INITIALPARAMETERS_H
