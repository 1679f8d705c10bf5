//===- Program.h - The programs ens-train generates -------------*- C++ -*-===//
//
// For a one-member model (Model.h), ens-train generates, as MLIR text
// appended to it, the functions that initialise, train and evaluate N
// members at once:
//
//   @ens_train_init(key) -> (params[N x ...]...)
//       Xavier-uniform weights and zero biases, one key for all members
//       (ens.vmap with randomness "different").
//   @ens_train_step(params[N]..., m[N]..., v[N]..., step, lr[N], x, targets)
//       -> (params'..., m'..., v'..., losses[N])
//       one Adam step of every member: ens.vmap of a member step that calls
//       ens.value_and_grad @loss and the standard library's "adam"; x and
//       targets are one batch for all members, or one per member.
//   @ens_train_grads(x, params[N]..., targets) -> (losses[N], grads[N]...)
//   @ens_train_update(params[N]..., grads[N]..., m[N]..., v[N]..., step,
//                     lr[N]) -> (params'..., m'..., v'...)
//       the step in two, for --data-parallel, which averages the gradients
//       of the processes' parts of a batch between them.
//   @ens_train_losses(x, params[N]..., targets) -> losses[N]
//   @ens_train_predict(x, params[N]...) -> predictions[N x ...]
//
// The evaluation data (x, targets) are shared by all members; the learning
// rate is a batched scalar, so each member has its own.
//
//===----------------------------------------------------------------------===//

#ifndef ENS_TRAIN_PROGRAM_H
#define ENS_TRAIN_PROGRAM_H

#include "ens/Train/Model.h"

#include "ens/ens.h"

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

namespace ens::train {

/// Adam's hyperparameters other than the learning rate.
struct AdamOptions {
  double beta1 = 0.9;
  double beta2 = 0.999;
  double eps = 1e-8;
  double weightDecay = 0.0;
};

/// How a parameter is initialised: Xavier-uniform for rank >= 2 (fan_in is
/// the product of all dimensions but the last, fan_out the last), zero for
/// scalars and vectors.
bool isXavierInitialised(const ens::TensorType &param);

/// How many members the generated program trains, and how it takes data.
struct ProgramShape {
  /// The members of each ensemble, M.
  int64_t members = 1;
  /// Independent ensembles, K: ensemble k trains on the k-th group of the
  /// targets' columns (its O outputs, or its label), with the same
  /// initialisation and batches as every other, as K separate runs would.
  int64_t ensembles = 1;
  /// Whether @ens_train_step takes a batch per member (x [M x B x F],
  /// targets [M x B x ...]) instead of one for all, for members that train
  /// on different rows at the same step. Member i of every ensemble trains
  /// on the same rows.
  bool batchPerMember = false;

  /// The members of all ensembles, K*M: the leading dimension of the
  /// state, member i of ensemble k at k*M + i.
  int64_t total() const { return members * ensembles; }
};

/// The model's text followed by the generated functions described above.
/// @ens_train_init initialises one ensemble's M members; the other
/// functions take the members of all ensembles, and the targets of all
/// (getEnsembleTargetsType): with K > 1 ensembles, the step and the losses
/// are written for one ensemble and vmapped over K (a nested vmap), and the
/// predictions of all K*M members are one vmap.
std::string generateProgram(const Model &model, const ProgramShape &shape,
                            const AdamOptions &adam);

/// The targets of a batch for `ensembles` ensembles: the model's targets
/// for one; [B x K*O] for K regressions, each its O columns; [B x K] for K
/// classifications, each its label column.
ens::TensorType getEnsembleTargetsType(const Model &model, int64_t ensembles);

/// The arguments of a step over `members` members of one ensemble
/// (parameters, moments, the step number, the learning rates, x and the
/// targets) and its results (parameters, moments and the losses).
struct MembersStepTypes {
  std::vector<ens::TensorType> inputs, results;
};
MembersStepTypes getMembersStepTypes(const Model &model, int64_t members,
                                     bool batchPerMember);

/// Writes the parameters of a step over `members` members, the arguments of
/// getMembersStepTypes named %<prefix>p0, ..., %<prefix>m0, ...,
/// %<prefix>v0, ..., %<prefix>step, %<prefix>lr, %<prefix>x and
/// %<prefix>targets; and the ens.vmap, results %<result>#i, that runs
/// @<prefix>ens_train_member_step over them. A program of one group is
/// written with an empty prefix; a program of several (GroupProgram.h)
/// writes each group's vmap side by side in one function.
void writeMembersStepParameters(std::ostream &os, const Model &model,
                                int64_t members, bool batchPerMember,
                                const std::string &prefix);
void writeMembersStepVmap(std::ostream &os, const Model &model, int64_t members,
                          bool batchPerMember, const std::string &prefix,
                          const std::string &result);

/// The names of the generated entry points.
inline constexpr const char *kInitFunction = "ens_train_init";
inline constexpr const char *kStepFunction = "ens_train_step";
inline constexpr const char *kLossesFunction = "ens_train_losses";
inline constexpr const char *kPredictFunction = "ens_train_predict";
inline constexpr const char *kGradsFunction = "ens_train_grads";
inline constexpr const char *kUpdateFunction = "ens_train_update";

} // namespace ens::train

#endif // ENS_TRAIN_PROGRAM_H
