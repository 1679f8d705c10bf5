//===- Workload.h - What ens-bench measures ---------------------*- C++ -*-===//
//
// A workload is one full training step (forward, loss, backward, update) of
// a model at fixed shapes, in f32, from a fixed initial state and data:
//
//   Mlp        `members` copies of  x[B x In] -> tanh(x W1 + b1) -> ... ->
//              h W(L+1) + b(L+1), with L = `layers` hidden layers of
//              `hidden` units, split into `groups` ensembles, each trained
//              on its own batch (groups == 1: one batch shared by all
//              members; groups == members: a batch per member).
//   Tensordot  ONE model y = tensordot(x[3x2], W[3x2x1], [[0,1],[0,1]]) + b
//              (examples/tensordot.mlir), batched over `batch` examples.
//   Cnn        `members` copies of examples/cnn.mlir's member, with its
//              shapes as parameters: x[B x 1 x S x S] -> two blocks of 3x3
//              conv (padded) + bias + relu + 2x2 max pooling (1 -> c1 -> c2
//              channels) -> flatten -> linear to `out` logits, all members
//              on one shared batch.
//   Hetero     a heterogeneous ensemble (issue #30): `members` split evenly
//              over `architectures`, each an Mlp of its own hidden width
//              and depth, all In -> ... -> Out on one shared batch.
//
// Mlp, Hetero and Tensordot minimize the MSE with Adam; Cnn, like
// examples/cnn.mlir, the softmax cross-entropy with SGD.
//
// Every implementation, ens's and each peer's, starts from the arrays that
// writeData() stores, so that their losses can be compared.
//
//===----------------------------------------------------------------------===//

#ifndef ENS_BENCH_WORKLOAD_H
#define ENS_BENCH_WORKLOAD_H

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace ens_bench {

/// The shapes and hyperparameters of one workload.
struct Workload {
  enum class Kind { Mlp, Tensordot, Cnn, Hetero };

  /// Hetero: one architecture's hidden width and number of hidden layers.
  struct Architecture {
    int64_t hidden = 0, layers = 1;
  };

  /// A short name for the command line and the table, e.g. "mlp-shared".
  std::string name;
  /// One line for people.
  std::string description;
  Kind kind = Kind::Mlp;
  /// Mlp: members in all, and ensembles (data batches) they are split into.
  int64_t members = 1, groups = 1;
  /// Mlp: layer widths and the number of hidden layers; Cnn: `out` is the
  /// number of classes. Tensordot ignores them.
  int64_t in = 0, hidden = 0, out = 0, layers = 1;
  /// Cnn: the images' side (a multiple of 4) and the channels of the blocks.
  int64_t image = 0, channels1 = 0, channels2 = 0;
  /// Examples per step (per ensemble for Mlp).
  int64_t batch = 0;
  /// The learning rate (Adam's or SGD's), the same for every member.
  double lr = 1e-3;
  /// Hetero: the architectures, members / architectures.size() members of
  /// each.
  std::vector<Architecture> architectures;

  /// Hetero: architecture `k` alone, as the Mlp workload of its members.
  Workload architecture(size_t k) const;
  /// Hetero: the widest architecture, every member padded to it: the
  /// largest hidden width and depth of all, as one Mlp of all members.
  Workload padded() const;

  int64_t membersPerGroup() const { return members / groups; }
  /// Mlp: the widths of its activations, In, H (`layers` times), Out; layer
  /// l maps widths[l - 1] to widths[l].
  std::vector<int64_t> mlpWidths() const;
  /// Mlp: the names of its parameters, w1, b1, ..., w(L+1), b(L+1).
  std::vector<std::string> mlpParamNames() const;
  /// The losses a step computes: one per member (Mlp) or one (Tensordot).
  int64_t numLosses() const { return kind == Kind::Tensordot ? 1 : members; }
  /// Cnn: the features the head reads, c2 x (S/4) x (S/4).
  int64_t cnnFeatures() const { return channels2 * (image / 4) * (image / 4); }
  /// The floating-point operations of one step counted the usual way: every
  /// contraction C[MxN] = A[MxK] B[KxN] costs 2 M N K, once forward and
  /// twice backward (one product per operand gradient), for every member.
  double flopsPerStep() const;
  /// The parameters peers take on their command line (--key=value).
  std::map<std::string, std::string> peerArguments() const;
};

/// The workloads of the benchmark, in the order they run.
std::vector<Workload> defaultWorkloads();

/// A named float32 array, row-major.
struct Array {
  std::string name;
  std::vector<int64_t> shape;
  std::vector<float> values;
};

/// The initial state and data of `workload`, from `seed`:
///   Mlp:       x[G,B,In] t[G,B,Out], and for each layer l = 1..L+1
///              wl[M,widths[l-1],widths[l]] bl[M,widths[l]]
///   Tensordot: x[B,3,2] t[B,1] w[3,2,1] b[1]
///   Hetero:    x[1,B,In] t[1,B,Out], and each architecture k's weights as
///              the Mlp's, named a<k>_w1, a<k>_b1, ...
///   Cnn:       x[B,1,S,S] t[B] (class indices, stored as floats)
///              w1[M,c1,1,3,3] b1[M,c1] w2[M,c2,c1,3,3] b2[M,c2]
///              w3[M,F,out] b3[M,out]
/// Weights are Xavier-uniform, biases small; targets are a smooth function
/// of x that the model can fit.
std::vector<Array> makeData(const Workload &workload, uint64_t seed);

/// Writes each array to DIR/<name>.bin as raw little-endian float32.
void writeData(const std::vector<Array> &arrays, const std::string &dir);

} // namespace ens_bench

#endif // ENS_BENCH_WORKLOAD_H
