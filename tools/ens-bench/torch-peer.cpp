//===- torch-peer.cpp - ens-bench's libtorch peer -------------------------===//
//
// The training step of an ens-bench workload written in libtorch's C++ API,
// as a libtorch user would write it:
//
//   --impl=loop  one model per member, each with its own torch::optim::Adam,
//                trained one after another (forward, mse_loss, backward,
//                step); the members of an ensemble read its data batch.
//   --impl=bmm   the members stacked by hand: parameters [M, ...], the
//                layers as baddbmm over the members, the sum of the members'
//                MSE losses differentiated once, one Adam over the stacks.
//                For the tensordot model (one model) this is the natural
//                batched program: tensordot over the examples.
//
// The CNN (examples/cnn.mlir's member) is trained with cross_entropy and
// torch::optim::SGD, as ens trains it; its bmm step makes the members the
// groups of one conv2d per block, and the heads a baddbmm.
//
// It speaks ens-bench's peer protocol (PeerRunner.h): it reads the initial
// state from --data, reports the losses of its first steps, and answers
// warmup/block/quit commands. It also reports which BLAS libtorch calls,
// found among the libraries loaded into this process.
//
//===----------------------------------------------------------------------===//

#include <torch/torch.h>
#include <torch/version.h>

#include <chrono>
#include <cstdio>
#include <dlfcn.h>
#include <fstream>
#include <iostream>
#include <limits.h>
#include <map>
#include <memory>
#include <sstream>
#include <stdlib.h>
#include <string>
#include <vector>

namespace {

/// A failure that makes this peer unavailable, with the reason.
struct Unavailable {
  std::string reason;
};

std::string quote(const std::string &text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\')
      out += '\\';
    if (static_cast<unsigned char>(c) < 0x20)
      c = ' ';
    out += c;
  }
  return out + "\"";
}

std::string numbers(const std::vector<double> &values) {
  std::string out = "[";
  char text[32];
  for (size_t i = 0; i < values.size(); ++i) {
    std::snprintf(text, sizeof(text), "%.9g", values[i]);
    out += (i ? "," : "") + std::string(text);
  }
  return out + "]";
}

void emit(const std::string &json) {
  std::fputs((json + "\n").c_str(), stdout);
  std::fflush(stdout);
}

/// --key=value arguments.
class Arguments {
public:
  Arguments(int argc, char **argv) {
    for (int i = 1; i < argc; ++i) {
      std::string arg = argv[i];
      size_t eq = arg.find('=');
      if (arg.rfind("--", 0) != 0 || eq == std::string::npos)
        throw Unavailable{"bad argument " + arg};
      values[arg.substr(2, eq - 2)] = arg.substr(eq + 1);
    }
  }
  std::string get(const std::string &key) const {
    auto it = values.find(key);
    if (it == values.end())
      throw Unavailable{"missing --" + key};
    return it->second;
  }
  int64_t integer(const std::string &key) const { return std::stoll(get(key)); }
  double real(const std::string &key) const { return std::stod(get(key)); }

private:
  std::map<std::string, std::string> values;
};

/// DIR/NAME.bin (raw float32) as a tensor of `shape`.
torch::Tensor load(const std::string &dir, const std::string &name,
                   std::vector<int64_t> shape) {
  int64_t count = 1;
  for (int64_t d : shape)
    count *= d;
  std::vector<float> values(count);
  std::ifstream file(dir + "/" + name + ".bin", std::ios::binary);
  file.read(reinterpret_cast<char *>(values.data()),
            static_cast<std::streamsize>(count * sizeof(float)));
  if (!file)
    throw Unavailable{"cannot read " + dir + "/" + name + ".bin"};
  return torch::from_blob(values.data(), shape, torch::kFloat32).clone();
}

/// Which BLAS this process loaded: the libraries in /proc/self/maps that
/// look like one, with OpenBLAS's own description when it is there.
std::string describeBlas() {
  std::ifstream maps("/proc/self/maps");
  std::vector<std::string> seen;
  for (std::string line; std::getline(maps, line);) {
    size_t slash = line.find('/');
    if (slash == std::string::npos)
      continue;
    std::string path = line.substr(slash);
    std::string base = path.substr(path.rfind('/') + 1);
    if (base.find("blas") == std::string::npos &&
        base.find("mkl") == std::string::npos &&
        base.find("blis") == std::string::npos)
      continue;
    bool known = false;
    for (const std::string &p : seen)
      known |= p == path;
    if (!known)
      seen.push_back(path);
  }
  std::string text;
  using Config = char *(*)();
  if (auto config =
          reinterpret_cast<Config>(dlsym(RTLD_DEFAULT, "openblas_get_config")))
    text = config();
  if (auto core = reinterpret_cast<Config>(
          dlsym(RTLD_DEFAULT, "openblas_get_corename")))
    text += std::string(" (core ") + core() + ")";
  bool reference = false;
  for (const std::string &path : seen) {
    char resolved[PATH_MAX];
    std::string real = realpath(path.c_str(), resolved) ? resolved : path;
    // Debian's reference BLAS lives in .../blas/libblas.so.3.
    reference |=
        real.find("/blas/libblas.so") != std::string::npos && text.empty();
    text += (text.empty() ? "" : "; ") + real;
  }
  if (reference)
    text = "REFERENCE BLAS (slow; install libopenblas0-pthread): " + text;
  return text.empty() ? "no BLAS library loaded" : text;
}

/// One implementation of a workload's step.
class Step {
public:
  virtual ~Step() = default;
  /// One training step; returns the losses when `wantLosses`.
  virtual std::vector<double> run(bool wantLosses) = 0;
};

/// Grads set to none, as Python's zero_grad() does by default.
void clearGrads(std::vector<torch::Tensor> &params) {
  for (torch::Tensor &p : params)
    p.mutable_grad().reset();
}

/// One training step of each member in turn, as a Python loop over models
/// runs it: the member's loss (`lossOf(m, its parameters)`), backward, and
/// its own optimizer's step. The losses, if `wantLosses`.
template <typename Optimizer, typename LossFn>
std::vector<double>
stepEachMember(std::vector<std::vector<torch::Tensor>> &params,
               std::vector<std::unique_ptr<Optimizer>> &optimizers,
               bool wantLosses, LossFn lossOf) {
  std::vector<double> losses;
  for (size_t m = 0; m < params.size(); ++m) {
    torch::Tensor loss = lossOf(m, params[m]);
    clearGrads(params[m]);
    loss.backward();
    optimizers[m]->step();
    if (wantLosses)
      losses.push_back(loss.item<double>());
  }
  return losses;
}

torch::optim::AdamOptions adamOptions(double lr) {
  return torch::optim::AdamOptions(lr).betas({0.9, 0.999}).eps(1e-8);
}

struct MlpShape {
  int64_t members, groups, in, hidden, layers, out, batch;
  double lr;
  int64_t perGroup() const { return members / groups; }
  /// In, H (`layers` times), Out: layer l maps widths[l - 1] to widths[l].
  std::vector<int64_t> widths() const {
    std::vector<int64_t> widths{in};
    widths.insert(widths.end(), layers, hidden);
    widths.push_back(out);
    return widths;
  }
};

/// Parameters [M, ...] (w1, b1, w2, b2, ...; their names prefixed with
/// `prefix`) and data [G, B, ...] from --data.
struct MlpState {
  torch::Tensor x, t;
  std::vector<torch::Tensor> params;
  MlpState(const std::string &dir, const MlpShape &s,
           const std::string &prefix = "")
      : x(load(dir, "x", {s.groups, s.batch, s.in})),
        t(load(dir, "t", {s.groups, s.batch, s.out})) {
    std::vector<int64_t> widths = s.widths();
    for (size_t l = 1; l < widths.size(); ++l) {
      std::string layer = std::to_string(l);
      params.push_back(load(dir, prefix + "w" + layer,
                            {s.members, widths[l - 1], widths[l]}));
      params.push_back(load(dir, prefix + "b" + layer, {s.members, widths[l]}));
    }
  }
};

/// The layers, tanh after each but the last: `affine(h, weight, bias)`
/// computes one layer's product and bias.
template <typename Affine>
torch::Tensor mlpForward(torch::Tensor h, const std::vector<torch::Tensor> &p,
                         Affine affine) {
  for (size_t i = 0; i < p.size(); i += 2) {
    h = affine(h, p[i], p[i + 1]);
    if (i + 2 < p.size())
      h = torch::tanh(h);
  }
  return h;
}

class MlpLoop : public Step {
public:
  MlpLoop(const std::string &dir, const MlpShape &shape,
          const std::string &prefix = "")
      : shape(shape) {
    MlpState state(dir, shape, prefix);
    x = state.x;
    t = state.t;
    for (int64_t m = 0; m < shape.members; ++m) {
      std::vector<torch::Tensor> p;
      for (const torch::Tensor &stacked : state.params)
        p.push_back(stacked[m].clone().requires_grad_(true));
      optimizers.push_back(
          std::make_unique<torch::optim::Adam>(p, adamOptions(shape.lr)));
      params.push_back(std::move(p));
    }
  }

  std::vector<double> run(bool wantLosses) override {
    return stepEachMember(
        params, optimizers, wantLosses,
        [&](int64_t m, const std::vector<torch::Tensor> &p) {
          int64_t g = m / shape.perGroup();
          torch::Tensor y = mlpForward(
              x[g], p,
              [](const torch::Tensor &h, const torch::Tensor &w,
                 const torch::Tensor &b) { return torch::addmm(b, h, w); });
          return torch::mse_loss(y, t[g]);
        });
  }

private:
  MlpShape shape;
  torch::Tensor x, t;
  std::vector<std::vector<torch::Tensor>> params;
  std::vector<std::unique_ptr<torch::optim::Adam>> optimizers;
};

class MlpBmm : public Step {
public:
  MlpBmm(const std::string &dir, const MlpShape &shape) : shape(shape) {
    MlpState state(dir, shape);
    x = state.x;
    t = state.t;
    params = state.params;
    for (torch::Tensor &tensor : params)
      tensor.requires_grad_(true);
    optimizer =
        std::make_unique<torch::optim::Adam>(params, adamOptions(shape.lr));
  }

  std::vector<double> run(bool wantLosses) override {
    torch::Tensor xs = perMember(x), ts = perMember(t);
    torch::Tensor y =
        mlpForward(xs, params,
                   [](const torch::Tensor &h, const torch::Tensor &w,
                      const torch::Tensor &b) {
                     return torch::baddbmm(b.unsqueeze(1), h, w);
                   });
    torch::Tensor losses = (y - ts).pow(2).mean({1, 2});
    clearGrads(params);
    losses.sum().backward();
    optimizer->step();
    if (!wantLosses)
      return {};
    torch::Tensor values = losses.detach().to(torch::kFloat64).contiguous();
    return std::vector<double>(values.data_ptr<double>(),
                               values.data_ptr<double>() + values.numel());
  }

private:
  /// The data [G, B, ...] as [M, B, ...]: a broadcast view for one shared
  /// batch, as it is for a batch per member, and repeated within each
  /// ensemble otherwise.
  torch::Tensor perMember(const torch::Tensor &data) const {
    if (shape.groups == 1)
      return data.expand({shape.members, data.size(1), data.size(2)});
    if (shape.groups == shape.members)
      return data;
    return data.unsqueeze(1)
        .expand({shape.groups, shape.perGroup(), data.size(1), data.size(2)})
        .reshape({shape.members, data.size(1), data.size(2)});
  }

  MlpShape shape;
  torch::Tensor x, t;
  std::vector<torch::Tensor> params;
  std::unique_ptr<torch::optim::Adam> optimizer;
};

/// examples/tensordot.mlir over a batch of examples.
class TensordotBatched : public Step {
public:
  TensordotBatched(const std::string &dir, int64_t batch, double lr)
      : x(load(dir, "x", {batch, 3, 2})), t(load(dir, "t", {batch, 1})) {
    params = {load(dir, "w", {3, 2, 1}), load(dir, "b", {1})};
    for (torch::Tensor &tensor : params)
      tensor.requires_grad_(true);
    optimizer = std::make_unique<torch::optim::Adam>(params, adamOptions(lr));
  }

  std::vector<double> run(bool wantLosses) override {
    torch::Tensor y =
        torch::tensordot(x, params[0], {1, 2}, {0, 1}) + params[1];
    torch::Tensor loss = torch::mse_loss(y, t);
    clearGrads(params);
    loss.backward();
    optimizer->step();
    if (!wantLosses)
      return {};
    return {loss.item<double>()};
  }

private:
  torch::Tensor x, t;
  std::vector<torch::Tensor> params;
  std::unique_ptr<torch::optim::Adam> optimizer;
};

/// examples/cnn.mlir's member at the workload's shapes (Workload.h).
struct CnnShape {
  int64_t members, batch, image, c1, c2, out;
  double lr;
  int64_t features() const { return c2 * (image / 4) * (image / 4); }
};

/// w1, b1, w2, b2, w3, b3, each [M, ...], as leaves.
std::vector<torch::Tensor> loadCnnParams(const std::string &dir,
                                         const CnnShape &s) {
  std::vector<torch::Tensor> p{
      load(dir, "w1", {s.members, s.c1, 1, 3, 3}),
      load(dir, "b1", {s.members, s.c1}),
      load(dir, "w2", {s.members, s.c2, s.c1, 3, 3}),
      load(dir, "b2", {s.members, s.c2}),
      load(dir, "w3", {s.members, s.features(), s.out}),
      load(dir, "b3", {s.members, s.out})};
  return p;
}

/// conv 3x3 (padded), bias, relu, 2x2 max pooling; `groups` members.
torch::Tensor cnnBlock(const torch::Tensor &x, const torch::Tensor &w,
                       const torch::Tensor &b, int64_t groups) {
  torch::Tensor y = torch::conv2d(x, w, b, /*stride=*/1, /*padding=*/1,
                                  /*dilation=*/1, groups);
  return torch::max_pool2d(torch::relu(y), 2);
}

/// One member after another: conv2d, relu, max_pool2d, addmm,
/// cross_entropy, backward, one optim::SGD each.
class CnnLoop : public Step {
public:
  CnnLoop(const std::string &dir, const CnnShape &shape) : shape(shape) {
    x = load(dir, "x", {shape.batch, 1, shape.image, shape.image});
    t = load(dir, "t", {shape.batch}).to(torch::kLong);
    std::vector<torch::Tensor> stacked = loadCnnParams(dir, shape);
    for (int64_t m = 0; m < shape.members; ++m) {
      std::vector<torch::Tensor> p;
      for (torch::Tensor &all : stacked)
        p.push_back(all[m].clone().requires_grad_(true));
      optimizers.push_back(std::make_unique<torch::optim::SGD>(
          p, torch::optim::SGDOptions(shape.lr)));
      params.push_back(std::move(p));
    }
  }

  std::vector<double> run(bool wantLosses) override {
    return stepEachMember(
        params, optimizers, wantLosses,
        [&](int64_t, const std::vector<torch::Tensor> &p) {
          torch::Tensor h = cnnBlock(cnnBlock(x, p[0], p[1], 1), p[2], p[3], 1);
          torch::Tensor z = torch::addmm(p[5], h.flatten(1), p[4]);
          return torch::cross_entropy_loss(z, t);
        });
  }

private:
  CnnShape shape;
  torch::Tensor x, t;
  std::vector<std::vector<torch::Tensor>> params;
  std::vector<std::unique_ptr<torch::optim::SGD>> optimizers;
};

/// The members as groups of one conv2d (the images expanded over them),
/// the heads as baddbmm, the sum of the losses differentiated once, one
/// optim::SGD over the stacks.
class CnnGrouped : public Step {
public:
  CnnGrouped(const std::string &dir, const CnnShape &shape)
      : shape(shape), params(loadCnnParams(dir, shape)) {
    x = load(dir, "x", {shape.batch, 1, shape.image, shape.image});
    t = load(dir, "t", {shape.batch}).to(torch::kLong).repeat({shape.members});
    for (torch::Tensor &p : params)
      p.requires_grad_(true);
    optimizer = std::make_unique<torch::optim::SGD>(
        params, torch::optim::SGDOptions(shape.lr));
  }

  std::vector<double> run(bool wantLosses) override {
    const int64_t m = shape.members, b = shape.batch;
    torch::Tensor h = x.expand({b, m, shape.image, shape.image});
    h = cnnBlock(h, params[0].flatten(0, 1), params[1].flatten(), m);
    h = cnnBlock(h, params[2].flatten(0, 1), params[3].flatten(), m);
    torch::Tensor features = h.reshape({b, m, -1}).transpose(0, 1);
    torch::Tensor z = torch::baddbmm(params[5].unsqueeze(1), features,
                                     params[4]); // [M, B, K]
    torch::Tensor losses =
        torch::cross_entropy_loss(z.flatten(0, 1), t, {}, at::Reduction::None)
            .view({m, b})
            .mean(1);
    clearGrads(params);
    losses.sum().backward();
    optimizer->step();
    if (!wantLosses)
      return {};
    torch::Tensor values = losses.detach().to(torch::kDouble);
    return std::vector<double>(values.data_ptr<double>(),
                               values.data_ptr<double>() + m);
  }

private:
  CnnShape shape;
  torch::Tensor x, t;
  std::vector<torch::Tensor> params;
  std::unique_ptr<torch::optim::SGD> optimizer;
};

/// A heterogeneous ensemble (ens-bench's Hetero workload): a loop over the
/// members of each architecture in turn, architecture k's weights named
/// a<k>_w1, ...
class HeteroLoop : public Step {
public:
  HeteroLoop(const std::string &dir, const std::vector<MlpShape> &shapes) {
    for (size_t k = 0; k < shapes.size(); ++k)
      loops.push_back(std::make_unique<MlpLoop>(dir, shapes[k],
                                                "a" + std::to_string(k) + "_"));
  }

  std::vector<double> run(bool wantLosses) override {
    std::vector<double> losses;
    for (std::unique_ptr<MlpLoop> &loop : loops) {
      std::vector<double> some = loop->run(wantLosses);
      losses.insert(losses.end(), some.begin(), some.end());
    }
    return losses;
  }

private:
  std::vector<std::unique_ptr<MlpLoop>> loops;
};

/// The architectures of --archs=HxL,... as MLP shapes of their members.
std::vector<MlpShape> heteroShapes(const Arguments &args) {
  std::vector<MlpShape> shapes;
  std::stringstream archs(args.get("archs"));
  for (std::string arch; std::getline(archs, arch, ',');) {
    size_t x = arch.find('x');
    if (x == std::string::npos)
      throw Unavailable{"bad architecture " + arch};
    shapes.push_back({0, 1, args.integer("in"), std::stoll(arch.substr(0, x)),
                      std::stoll(arch.substr(x + 1)), args.integer("out"),
                      args.integer("batch"), args.real("lr")});
  }
  if (shapes.empty())
    throw Unavailable{"no architectures in --archs"};
  for (MlpShape &shape : shapes)
    shape.members =
        args.integer("members") / static_cast<int64_t>(shapes.size());
  return shapes;
}

std::unique_ptr<Step> makeStep(const Arguments &args, std::string &notes) {
  std::string impl = args.get("impl"), model = args.get("model");
  std::string dir = args.get("data");
  if (model == "tensordot") {
    if (impl != "bmm")
      throw Unavailable{"not applicable to one model"};
    notes = "tensordot over the batch, mse_loss, backward, optim::Adam";
    return std::make_unique<TensordotBatched>(dir, args.integer("batch"),
                                              args.real("lr"));
  }
  if (model == "cnn") {
    CnnShape shape{args.integer("members"),
                   args.integer("batch"),
                   args.integer("image"),
                   args.integer("channels1"),
                   args.integer("channels2"),
                   args.integer("out"),
                   args.real("lr")};
    if (impl == "loop") {
      notes = "a loop over members: conv2d/relu/max_pool2d, addmm, "
              "cross_entropy, backward, one optim::SGD each";
      return std::make_unique<CnnLoop>(dir, shape);
    }
    if (impl == "bmm") {
      notes = "members as groups: grouped conv2d, baddbmm, sum of "
              "cross-entropies, backward, one optim::SGD";
      return std::make_unique<CnnGrouped>(dir, shape);
    }
    throw Unavailable{"unknown implementation " + impl};
  }
  if (model == "hetero") {
    if (impl != "loop")
      throw Unavailable{"unknown implementation " + impl};
    notes = "a loop over the members of each architecture: addmm/tanh, "
            "mse_loss, backward, one optim::Adam each";
    return std::make_unique<HeteroLoop>(dir, heteroShapes(args));
  }
  if (model != "mlp")
    throw Unavailable{"unknown model " + model};
  MlpShape shape{args.integer("members"), args.integer("groups"),
                 args.integer("in"),      args.integer("hidden"),
                 args.integer("layers"),  args.integer("out"),
                 args.integer("batch"),   args.real("lr")};
  if (impl == "loop") {
    notes = "a loop over members: addmm/tanh, mse_loss, backward, "
            "one optim::Adam each";
    return std::make_unique<MlpLoop>(dir, shape);
  }
  if (impl == "bmm") {
    notes = "members stacked: baddbmm/tanh, sum of MSEs, backward, one "
            "optim::Adam";
    return std::make_unique<MlpBmm>(dir, shape);
  }
  throw Unavailable{"unknown implementation " + impl};
}

double millisecondsOf(Step &step) {
  auto start = std::chrono::steady_clock::now();
  step.run(false);
  return std::chrono::duration<double, std::milli>(
             std::chrono::steady_clock::now() - start)
      .count();
}

/// Answers ens-bench's commands until "quit" or the end of input.
void serve(Step &step) {
  for (std::string line; std::getline(std::cin, line);) {
    std::istringstream command(line);
    std::string verb;
    command >> verb;
    if (verb == "quit")
      return;
    int minSteps = 0, maxSteps = 1 << 30;
    double minMs = 0;
    command >> minSteps >> minMs;
    if (verb == "block")
      command >> maxSteps;
    std::vector<double> times;
    double total = 0;
    step.run(false);
    while (static_cast<int>(times.size()) < maxSteps &&
           (static_cast<int>(times.size()) < minSteps || total < minMs)) {
      times.push_back(millisecondsOf(step));
      total += times.back();
    }
    emit(verb == "block" ? "{\"event\":\"block\",\"ms\":" + numbers(times) + "}"
                         : "{\"event\":\"warmup\"}");
  }
}

} // namespace

int main(int argc, char **argv) {
  try {
    Arguments args(argc, argv);
    int threads = static_cast<int>(args.integer("threads"));
    at::set_num_threads(threads);
    std::string notes;
    std::unique_ptr<Step> step = makeStep(args, notes);
    std::vector<std::vector<double>> losses;
    for (int64_t i = 0, e = args.integer("check-steps"); i < e; ++i)
      losses.push_back(step->run(true));
    std::string lossText = "[";
    for (size_t i = 0; i < losses.size(); ++i)
      lossText += (i ? "," : "") + numbers(losses[i]);
    lossText += "]";
    emit("{\"event\":\"ready\",\"impl\":" + quote(args.get("impl")) +
         ",\"version\":" + quote("libtorch " TORCH_VERSION " (C++)") +
         ",\"blas\":" + quote(describeBlas()) + ",\"notes\":" + quote(notes) +
         ",\"threads\":" + std::to_string(at::get_num_threads()) +
         ",\"losses\":" + lossText + "}");
    serve(*step);
    return 0;
  } catch (const Unavailable &error) {
    emit("{\"event\":\"unavailable\",\"reason\":" + quote(error.reason) + "}");
  } catch (const std::exception &error) {
    emit("{\"event\":\"unavailable\",\"reason\":" + quote(error.what()) + "}");
  }
  return 1;
}
