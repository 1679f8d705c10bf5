//===- main.cpp - Training an ensemble from libtorch with ens -------------===//
//
// ens embedded as a JIT in a C++ ML framework. The application keeps the
// stacked parameters of a 16-member MLP ensemble and their Adam moments as
// torch::Tensors; ens compiles the whole training step (forward, MSE,
// backward, Adam, lifted over the members) once, and the program calls it on
// the torch tensors through DLPack, without copies: ens reads the arguments
// and writes the results in torch's own storage.
//
// Each step is checked against libtorch alone for three members: the loss,
// the gradients from torch's autograd (through Adam's moments, which
// accumulate them) and the updated parameters from torch::optim::Adam.
// Exits 0 when every step of every checked member agrees.
//
//===----------------------------------------------------------------------===//

// libtorch 1.13 ships its own copy of DLPack v0.6 as <ATen/dlpack.h>; ens.h
// includes Debian's <dlpack/dlpack.h> (libdlpack-dev 0.6). The two are the
// same header with the same include guard, so whichever comes first defines
// DLManagedTensor for the whole file and the other is skipped: the pointer
// at::toDLPack returns is the type ens::Executable::run takes, with no cast
// and no second translation unit. libtorch's comes first so that the check
// below tests the copy libtorch was built with against the ABI ens uses.
#include <ATen/ATen.h>
#include <ATen/DLConvertor.h>
#include <torch/optim/adam.h>

#include <ens/ens.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <memory>
#include <string>
#include <utility>
#include <vector>

static_assert(DLPACK_VERSION == 60,
              "libtorch's DLPack is not v0.6, the ABI ens is built with");

namespace {

constexpr int64_t kMembers = 16, kBatch = 64, kIn = 16, kHidden = 32, kOut = 4,
                  kSteps = 3;
// Adam's hyperparameters, also written in kMemberIR. eps is larger than the
// usual 1e-8 so that the comparison with libtorch is well-conditioned: the
// step lr m^ / (sqrt(v^) + eps) changes by up to lr |dg| / eps when a
// gradient near zero changes by dg, and float32 gradients summed in another
// order differ by ~1e-8. With eps = 1e-8 an element whose gradient happens
// to be near zero moves by a percent of lr (this data has one); with 1e-4
// no element can move by more than ~1e-4 lr.
constexpr double kBeta1 = 0.9, kBeta2 = 0.999, kEps = 1e-4;
/// The largest accepted difference from libtorch, relative to the largest
/// element of the reference tensor: float32 rounding in a different order,
/// with room to spare.
constexpr double kTolerance = 1e-5;

/// One member, written once: a kIn-kHidden-kOut tanh MLP, its MSE loss, and
/// one training step (gradients of the loss, then Adam on each parameter).
/// The hyperparameters must match kBeta1, kBeta2 and kEps.
const char *kMemberIR = R"mlir(
!X = tensor<64x16xf32>
!H = tensor<64x32xf32>
!Y = tensor<64x4xf32>
!W1 = tensor<16x32xf32>
!B1 = tensor<32xf32>
!W2 = tensor<32x4xf32>
!B2 = tensor<4xf32>
!S = tensor<f32>

// From the standard library, instantiated for these types by ens.
func.func private @mse(!Y, !Y) -> !S attributes {ens.stdlib = "mse"}
func.func private @adam_w1(!W1, !W1, !W1, !W1, !S, !S, !S, !S, !S, !S)
    -> (!W1, !W1, !W1) attributes {ens.stdlib = "adam"}
func.func private @adam_b1(!B1, !B1, !B1, !B1, !S, !S, !S, !S, !S, !S)
    -> (!B1, !B1, !B1) attributes {ens.stdlib = "adam"}
func.func private @adam_w2(!W2, !W2, !W2, !W2, !S, !S, !S, !S, !S, !S)
    -> (!W2, !W2, !W2) attributes {ens.stdlib = "adam"}
func.func private @adam_b2(!B2, !B2, !B2, !B2, !S, !S, !S, !S, !S, !S)
    -> (!B2, !B2, !B2) attributes {ens.stdlib = "adam"}

func.func @loss(%x: !X, %w1: !W1, %b1: !B1, %w2: !W2, %b2: !B2,
                %targets: !Y) -> !S {
  %0 = ens.matmul %x, %w1 : !X, !W1 -> !H
  %1 = ens.broadcast_in_dim %b1 {dims = array<i64: 1>} : !B1 -> !H
  %2 = ens.add %0, %1 : !H
  %h = ens.tanh %2 : !H
  %3 = ens.matmul %h, %w2 : !H, !W2 -> !Y
  %4 = ens.broadcast_in_dim %b2 {dims = array<i64: 1>} : !B2 -> !Y
  %y = ens.add %3, %4 : !Y
  %mse = call @mse(%y, %targets) : (!Y, !Y) -> !S
  return %mse : !S
}

// (w1, b1, w2, b2, m1..m4, v1..v4, step, lr, x, targets)
//   -> (new w1, b1, w2, b2, m1..m4, v1..v4, loss before the step)
func.func @member_step(%w1: !W1, %b1: !B1, %w2: !W2, %b2: !B2,
                       %m1: !W1, %m2: !B1, %m3: !W2, %m4: !B2,
                       %v1: !W1, %v2: !B1, %v3: !W2, %v4: !B2,
                       %step: !S, %lr: !S, %x: !X, %targets: !Y)
    -> (!W1, !B1, !W2, !B2, !W1, !B1, !W2, !B2, !W1, !B1, !W2, !B2, !S) {
  %loss, %g1, %g2, %g3, %g4 = ens.value_and_grad @loss(%x, %w1, %b1, %w2,
                                                        %b2, %targets)
      {wrt = array<i64: 1, 2, 3, 4>}
      : (!X, !W1, !B1, !W2, !B2, !Y) -> (!S, !W1, !B1, !W2, !B2)
  %beta1 = ens.constant dense<0.9> : !S
  %beta2 = ens.constant dense<0.999> : !S
  %eps = ens.constant dense<1.0e-4> : !S
  %decay = ens.constant dense<0.0> : !S
  %nw1, %nm1, %nv1 = call @adam_w1(%w1, %g1, %m1, %v1, %step, %lr, %beta1,
                                   %beta2, %eps, %decay)
      : (!W1, !W1, !W1, !W1, !S, !S, !S, !S, !S, !S) -> (!W1, !W1, !W1)
  %nb1, %nm2, %nv2 = call @adam_b1(%b1, %g2, %m2, %v2, %step, %lr, %beta1,
                                   %beta2, %eps, %decay)
      : (!B1, !B1, !B1, !B1, !S, !S, !S, !S, !S, !S) -> (!B1, !B1, !B1)
  %nw2, %nm3, %nv3 = call @adam_w2(%w2, %g3, %m3, %v3, %step, %lr, %beta1,
                                   %beta2, %eps, %decay)
      : (!W2, !W2, !W2, !W2, !S, !S, !S, !S, !S, !S) -> (!W2, !W2, !W2)
  %nb2, %nm4, %nv4 = call @adam_b2(%b2, %g4, %m4, %v4, %step, %lr, %beta1,
                                   %beta2, %eps, %decay)
      : (!B2, !B2, !B2, !B2, !S, !S, !S, !S, !S, !S) -> (!B2, !B2, !B2)
  return %nw1, %nb1, %nw2, %nb2, %nm1, %nm2, %nm3, %nm4, %nv1, %nv2, %nv3,
         %nv4, %loss
      : !W1, !B1, !W2, !B2, !W1, !B1, !W2, !B2, !W1, !B1, !W2, !B2, !S
}
)mlir";

/// Parameters, first moments and second moments of all members, stacked
/// along a leading member axis: w1, b1, w2, b2 in each.
struct TrainState {
  std::array<at::Tensor, 4> params, m, v;

  /// All twelve tensors in the order @member_step takes and returns them.
  std::vector<at::Tensor> all() const {
    std::vector<at::Tensor> tensors(params.begin(), params.end());
    tensors.insert(tensors.end(), m.begin(), m.end());
    tensors.insert(tensors.end(), v.begin(), v.end());
    return tensors;
  }
};

/// Zero-filled stacked tensors shaped like `like`.
TrainState zerosLike(const std::array<at::Tensor, 4> &like) {
  TrainState state;
  for (size_t i = 0; i < like.size(); ++i) {
    state.params[i] = at::zeros_like(like[i]);
    state.m[i] = at::zeros_like(like[i]);
    state.v[i] = at::zeros_like(like[i]);
  }
  return state;
}

[[noreturn]] void fail(const std::string &message) {
  throw std::runtime_error(message);
}

/// A DLPack view of a torch tensor. at::toDLPack takes a reference on the
/// tensor and shares its storage; the deleter drops that reference.
using DLView = std::unique_ptr<DLManagedTensor, void (*)(DLManagedTensor *)>;

DLView exportTensor(const at::Tensor &tensor) {
  DLView view(at::toDLPack(tensor), [](DLManagedTensor *t) { t->deleter(t); });
  // The point of the exercise: ens gets torch's own memory, not a copy.
  const DLTensor &dl = view->dl_tensor;
  if (static_cast<char *>(dl.data) + dl.byte_offset != tensor.data_ptr())
    fail("at::toDLPack did not share the tensor's storage");
  return view;
}

/// max |got - want| / max |want|: differences in the order float32 sums are
/// taken scale with the tensor's largest elements, not with each element.
double relativeDifference(const at::Tensor &got, const at::Tensor &want) {
  double scale = want.abs().max().item<double>();
  double difference = (got - want).abs().max().item<double>();
  return difference / std::max(scale, 1e-30);
}

/// The factor by which ens's Adam moments differ from torch's by design.
/// ens computes 1 - beta in float32 from beta rounded to float32 (exactly:
/// the subtraction loses nothing); torch computes it in double. Each moment
/// is a sum of (1 - beta)-weighted terms, so it inherits the ratio: 1 +
/// 3.6e-7 for beta1 = 0.9, but 1 - 1.3e-5 for beta2 = 0.999, more than the
/// tolerance. The bias correction divides it out again, so the parameters
/// agree without it.
double float32Complement(double beta) {
  return (1.0 - double(float(beta))) / (1.0 - beta);
}

/// The same loss as @loss, in libtorch, for one member's parameters.
at::Tensor torchLoss(const at::Tensor &x, const std::vector<at::Tensor> &p,
                     const at::Tensor &targets) {
  at::Tensor hidden = at::tanh(at::matmul(x, p[0]) + p[1]);
  return at::mse_loss(at::matmul(hidden, p[2]) + p[3], targets);
}

/// One member trained by libtorch alone: its own copy of the parameters,
/// autograd for the gradients and torch::optim::Adam for the update.
struct TorchMember {
  int64_t index;
  std::vector<at::Tensor> params;
  std::unique_ptr<torch::optim::Adam> adam;

  TorchMember(int64_t index, const TrainState &state, double lr)
      : index(index) {
    for (const at::Tensor &stacked : state.params)
      params.push_back(stacked[index].clone().requires_grad_());
    adam = std::make_unique<torch::optim::Adam>(params,
                                                torch::optim::AdamOptions(lr)
                                                    .betas({kBeta1, kBeta2})
                                                    .eps(kEps)
                                                    .weight_decay(0));
  }

  /// One step; returns the loss before it, as ens's step does.
  double step(const at::Tensor &x, const at::Tensor &targets) {
    adam->zero_grad();
    at::Tensor loss = torchLoss(x, params, targets);
    loss.backward();
    adam->step();
    return loss.item<double>();
  }

  /// Adam's state for parameter `i`. torch::optim keys its per-parameter
  /// state by the address of the parameter's TensorImpl.
  const torch::optim::AdamParamState &state(size_t i) const {
    const auto &states = adam->state();
    auto it =
        states.find(c10::guts::to_string(params[i].unsafeGetTensorImpl()));
    if (it == states.end())
      fail("torch::optim::Adam has no state for a parameter");
    return static_cast<const torch::optim::AdamParamState &>(*it->second);
  }
};

int run() {
  at::manual_seed(0);

  // The data batch, shared by all members, and a smooth target.
  at::Tensor x = at::randn({kBatch, kIn});
  at::Tensor targets = at::sin(at::matmul(x, at::randn({kIn, kOut})));

  // Every member starts from its own random parameters; the moments start
  // at zero. `current` and `next` swap roles every step: ens reads one set
  // and writes the other, so results never alias arguments.
  std::array<at::Tensor, 4> init = {
      at::randn({kMembers, kIn, kHidden}) / std::sqrt(double(kIn)),
      0.1 * at::randn({kMembers, kHidden}),
      at::randn({kMembers, kHidden, kOut}) / std::sqrt(double(kHidden)),
      0.1 * at::randn({kMembers, kOut})};
  TrainState current = zerosLike(init), next = zerosLike(init);
  for (size_t i = 0; i < init.size(); ++i)
    current.params[i].copy_(init[i]);
  // A learning rate per member, from 1e-3 to 2e-2.
  at::Tensor lr = at::linspace(1e-3, 2e-2, kMembers);
  at::Tensor losses = at::empty({kMembers});
  at::Tensor step = at::empty({});

  // Compile once: the member step, lifted over the members. The data batch
  // and the step number are shared; everything else has a member axis.
  ens::Context context;
  ens::Module module = context.parse(kMemberIR);
  std::vector<int64_t> inAxes(12, 0);
  inAxes.insert(inAxes.end(), {-1, 0, -1, -1}); // step, lr, x, targets
  std::string trainStep =
      module.vmap("member_step", inAxes, std::vector<int64_t>(13, 0), kMembers,
                  "train_step");
  ens::Executable executable = module.compile(trainStep, ens::Target::Cpu);

  std::vector<TorchMember> checked;
  for (int64_t member : {int64_t(0), kMembers / 2, kMembers - 1})
    checked.emplace_back(member, current, lr[member].item<double>());

  double worstLoss = 0, worstParam = 0, worstMoment = 0;
  for (int64_t s = 1; s <= kSteps; ++s) {
    step.fill_(double(s));
    // Poison the result buffers, so that a value ens did not write shows.
    for (const at::Tensor &t : next.all())
      t.fill_(NAN);
    losses.fill_(NAN);

    std::vector<at::Tensor> args = current.all();
    args.insert(args.end(), {step, lr, x, targets});
    std::vector<at::Tensor> results = next.all();
    results.push_back(losses);
    std::vector<void *> resultAddresses;
    for (const at::Tensor &t : results)
      resultAddresses.push_back(t.data_ptr());

    {
      std::vector<DLView> views;
      std::vector<DLManagedTensor *> argViews, resultViews;
      for (const at::Tensor &t : args)
        argViews.push_back(views.emplace_back(exportTensor(t)).get());
      for (const at::Tensor &t : results)
        resultViews.push_back(views.emplace_back(exportTensor(t)).get());
      executable.run(argViews, resultViews);
    } // the views' deleters run here

    // The results are the very tensors torch allocated, filled in place.
    for (size_t i = 0; i < results.size(); ++i) {
      if (results[i].data_ptr() != resultAddresses[i])
        fail("result " + std::to_string(i) + " moved");
      if (!at::isfinite(results[i]).all().item<bool>())
        fail("ens left result " + std::to_string(i) + " unwritten");
    }

    for (TorchMember &member : checked) {
      std::string where = "step " + std::to_string(s) + ", member " +
                          std::to_string(member.index) + ": ";
      double want = member.step(x, targets);
      double got = losses[member.index].item<double>();
      double lossDifference = std::fabs(got - want) / std::fabs(want);
      if (!(lossDifference <= kTolerance))
        fail(where + "ens loss " + std::to_string(got) + ", libtorch " +
             std::to_string(want));
      worstLoss = std::max(worstLoss, lossDifference);
      static const char *names[] = {"w1", "b1", "w2", "b2"};
      for (size_t i = 0; i < 4; ++i) {
        const torch::optim::AdamParamState &state = member.state(i);
        std::pair<const char *, double> differences[] = {
            {"parameter", relativeDifference(next.params[i][member.index],
                                             member.params[i])},
            {"first moment",
             relativeDifference(next.m[i][member.index],
                                state.exp_avg() * float32Complement(kBeta1))},
            {"second moment",
             relativeDifference(next.v[i][member.index],
                                state.exp_avg_sq() *
                                    float32Complement(kBeta2))}};
        for (auto [what, difference] : differences)
          if (!(difference <= kTolerance))
            fail(where + std::string(what) + " of " + names[i] +
                 " differs from libtorch by " + std::to_string(difference) +
                 " (relative)");
        worstParam = std::max(worstParam, differences[0].second);
        worstMoment = std::max(
            {worstMoment, differences[1].second, differences[2].second});
      }
    }
    std::printf("step %lld: mean loss over %lld members %.6f\n",
                static_cast<long long>(s), static_cast<long long>(kMembers),
                losses.mean().item<double>());
    std::swap(current, next);
  }

  std::printf("members 0, %lld, %lld agree with libtorch autograd + "
              "torch::optim::Adam over %lld steps; largest relative "
              "differences: loss %.2g, parameters %.2g, moments %.2g\n",
              static_cast<long long>(kMembers / 2),
              static_cast<long long>(kMembers - 1),
              static_cast<long long>(kSteps), worstLoss, worstParam,
              worstMoment);
  return 0;
}

} // namespace

int main() {
  try {
    return run();
  } catch (const std::exception &error) {
    // ens::Error, c10::Error, or a failed check.
    std::fprintf(stderr, "libtorch-client: error: %s\n", error.what());
    return 1;
  }
}
