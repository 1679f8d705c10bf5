//===- EnsProgram.h - The step programs ens runs ----------------*- C++ -*-===//
//
// The training step of a workload as ens programs: the model written for
// ONE member (or one example) as MLIR text, as in
// examples/ensemble_train_step.mlir, and lifted over the members with the
// public API's Module::vmap (nested for ensembles of ensembles).
//
//===----------------------------------------------------------------------===//

#ifndef ENS_BENCH_ENSPROGRAM_H
#define ENS_BENCH_ENSPROGRAM_H

#include "Workload.h"

#include "ens/ens.h"

#include <string>

namespace ens_bench {

/// The one-member module of `workload`:
///   Mlp:       @member_step(w1, b1, w2, b2, m1..m4, v1..v4, step, lr, x, t)
///                -> (w1', b1', w2', b2', m1'..m4', v1'..v4', loss)
///   Tensordot: @train_step(w, b, mw, mb, vw, vb, step, lr, xs, ys)
///                -> (w', b', mw', mb', vw', vb', loss)
///              where the loss vmaps @predict over the examples.
///   Hetero:    each architecture's Mlp module, its names prefixed a<k>_
///              (@a0_member_step, ...)
///   Cnn:       @member_step(w1, b1, w2, b2, w3, b3, step, lr, x, labels)
///                -> (w1', b1', w2', b2', w3', b3', loss)
///              examples/cnn.mlir's member, step unused.
/// Each step is value_and_grad of @loss, then the standard library's Adam
/// (beta1 0.9, beta2 0.999, eps 1e-8, no weight decay) on every parameter;
/// for Cnn, SGD (p - lr * g).
std::string memberProgram(const Workload &workload);

/// Adds to `module` (parsed from memberProgram) the step of the whole
/// workload and returns its name. Its arguments and results are those of
/// the member step with the members in front (as [groups, members/groups,
/// ...] when there are several ensembles), and the data batched per
/// ensemble (shared by all members for Cnn); step and lr are shared.
/// For Hetero, one ens.vmap per architecture side by side (Module::groups):
/// its arguments are step, lr, x and targets, then each architecture's
/// state; its results each architecture's new state and losses.
std::string addWorkloadStep(ens::Module &module, const Workload &workload);

/// The member step of a Hetero workload with every member padded to the
/// widest architecture (Workload::padded), masked to its own:
///   @member_step(params, m, v, masks (one per parameter), gates (one per
///                hidden layer after the first, rank 0), step, lr, x, t)
///     -> (params', m', v', loss)
std::string paddedMemberProgram(const Workload &hetero);

/// Adds to `module` (parsed from paddedMemberProgram) the step of all
/// members, state, masks and gates carrying them, and returns its name.
std::string addPaddedStep(ens::Module &module, const Workload &hetero);

} // namespace ens_bench

#endif // ENS_BENCH_ENSPROGRAM_H
