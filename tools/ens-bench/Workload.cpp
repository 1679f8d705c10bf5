//===- Workload.cpp - What ens-bench measures -----------------------------===//
//
// The benchmark's workloads, their FLOP counts, and their initial state and
// data, generated from a seed and written for the peers.
//
//===----------------------------------------------------------------------===//

#include "Workload.h"

#include "ens/ens.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>

using namespace ens_bench;

double Workload::flopsPerStep() const {
  // 2 M N K per contraction; forward once, backward twice.
  auto contraction = [](double m, double n, double k) { return 2 * m * n * k; };
  if (kind == Kind::Tensordot)
    return 3 * contraction(batch, 1, 3 * 2);
  if (kind == Kind::Hetero) {
    double total = 0;
    for (size_t k = 0; k < architectures.size(); ++k)
      total += architecture(k).flopsPerStep();
    return total;
  }
  if (kind == Kind::Cnn) {
    // A 3x3 convolution is a contraction of the pixels with Cin x 9.
    double s = static_cast<double>(image);
    double perMember =
        contraction(batch * s * s, channels1, 1 * 9) +
        contraction(batch * s * s / 4, channels2, channels1 * 9) +
        contraction(batch, out, cnnFeatures());
    return 3 * perMember * static_cast<double>(members);
  }
  std::vector<int64_t> widths = mlpWidths();
  double perMember = 0;
  for (size_t l = 1; l < widths.size(); ++l)
    perMember += contraction(batch, widths[l], widths[l - 1]);
  return 3 * perMember * static_cast<double>(members);
}

std::vector<int64_t> Workload::mlpWidths() const {
  std::vector<int64_t> widths{in};
  widths.insert(widths.end(), layers, hidden);
  widths.push_back(out);
  return widths;
}

Workload Workload::architecture(size_t k) const {
  Workload alone = *this;
  alone.kind = Kind::Mlp;
  alone.name = name + "/" + std::to_string(k);
  alone.members = members / static_cast<int64_t>(architectures.size());
  alone.groups = 1;
  alone.hidden = architectures[k].hidden;
  alone.layers = architectures[k].layers;
  alone.architectures.clear();
  return alone;
}

Workload Workload::padded() const {
  Workload widest = *this;
  widest.kind = Kind::Mlp;
  widest.groups = 1;
  widest.hidden = widest.layers = 0;
  for (const Architecture &a : architectures) {
    widest.hidden = std::max(widest.hidden, a.hidden);
    widest.layers = std::max(widest.layers, a.layers);
  }
  widest.architectures.clear();
  return widest;
}

std::vector<std::string> Workload::mlpParamNames() const {
  std::vector<std::string> names;
  for (int64_t l = 1; l <= layers + 1; ++l) {
    names.push_back("w" + std::to_string(l));
    names.push_back("b" + std::to_string(l));
  }
  return names;
}

std::map<std::string, std::string> Workload::peerArguments() const {
  auto str = [](auto value) { return std::to_string(value); };
  char lrText[32];
  std::snprintf(lrText, sizeof(lrText), "%.9g", lr);
  if (kind == Kind::Tensordot)
    return {{"model", "tensordot"}, {"batch", str(batch)}, {"lr", lrText}};
  if (kind == Kind::Hetero) {
    std::string archs;
    for (const Architecture &a : architectures)
      archs += (archs.empty() ? "" : ",") + str(a.hidden) + "x" + str(a.layers);
    return {{"model", "hetero"}, {"members", str(members)},
            {"archs", archs},    {"in", str(in)},
            {"out", str(out)},   {"batch", str(batch)},
            {"lr", lrText}};
  }
  if (kind == Kind::Cnn)
    return {{"model", "cnn"},
            {"members", str(members)},
            {"image", str(image)},
            {"channels1", str(channels1)},
            {"channels2", str(channels2)},
            {"out", str(out)},
            {"batch", str(batch)},
            {"lr", lrText}};
  return {{"model", "mlp"},  {"members", str(members)}, {"groups", str(groups)},
          {"in", str(in)},   {"hidden", str(hidden)},   {"layers", str(layers)},
          {"out", str(out)}, {"batch", str(batch)},     {"lr", lrText}};
}

std::vector<Workload> ens_bench::defaultWorkloads() {
  std::vector<Workload> list;
  Workload shared;
  shared.name = "mlp-shared";
  shared.description = "128 members of 64-32(tanh)-8, batch 256 shared";
  shared.members = 128;
  shared.groups = 1;
  shared.in = 64;
  shared.hidden = 32;
  shared.out = 8;
  shared.batch = 256;
  list.push_back(shared);

  Workload perMember = shared;
  perMember.name = "mlp-per-member";
  perMember.description = "128 members of 64-32(tanh)-8, a batch of 256 each";
  perMember.groups = 128;
  list.push_back(perMember);

  Workload active;
  active.name = "al-10x8";
  active.description =
      "10 ensembles x 8 members of 8-16(tanh)-1, a batch of 64 per ensemble";
  active.members = 80;
  active.groups = 10;
  active.in = 8;
  active.hidden = 16;
  active.out = 1;
  active.batch = 64;
  list.push_back(active);

  Workload tensordot;
  tensordot.name = "tensordot";
  tensordot.description =
      "examples/tensordot.mlir, one model, 4096 examples per step";
  tensordot.kind = Workload::Kind::Tensordot;
  tensordot.batch = 4096;
  tensordot.lr = 1e-2;
  list.push_back(tensordot);

  Workload cnn;
  cnn.name = "cnn";
  cnn.description = "examples/cnn.mlir: 8 members of conv 1->4, conv 4->8 "
                    "(3x3, relu, 2x2 pool), linear 72->4, on 8 shared 12x12 "
                    "images; cross-entropy, SGD";
  cnn.kind = Workload::Kind::Cnn;
  cnn.members = 8;
  cnn.batch = 8;
  cnn.image = 12;
  cnn.channels1 = 4;
  cnn.channels2 = 8;
  cnn.out = 4;
  cnn.lr = 0.1;
  list.push_back(cnn);

  Workload cnnWide = cnn;
  cnnWide.name = "cnn-wide";
  cnnWide.description = "cnn's member wider: 32 members of conv 1->8, conv "
                        "8->16, linear 256->10, on 64 shared 16x16 images";
  cnnWide.members = 32;
  cnnWide.batch = 64;
  cnnWide.image = 16;
  cnnWide.channels1 = 8;
  cnnWide.channels2 = 16;
  cnnWide.out = 10;
  list.push_back(cnnWide);

  // Compute-bound members (issue #28): wider and deeper than the examples,
  // the class where blocking and packing decide the speed.
  Workload mnist = shared;
  mnist.name = "mlp-784";
  mnist.description = "10 members of 784-128(tanh)-128(tanh)-10, batch 256 "
                      "shared (PyTorch's model-ensembling tutorial's shape)";
  mnist.members = 10;
  mnist.in = 784;
  mnist.hidden = 128;
  mnist.layers = 2;
  mnist.out = 10;
  list.push_back(mnist);

  Workload wide = shared;
  wide.name = "mlp-512";
  wide.description = "16 members of 512-512(tanh)-512, batch 256 shared";
  wide.members = 16;
  wide.in = wide.hidden = wide.out = 512;
  list.push_back(wide);

  Workload wideBatch = wide;
  wideBatch.name = "mlp-512-b1024";
  wideBatch.description = "4 members of 512-512(tanh)-512, batch 1024 shared";
  wideBatch.members = 4;
  wideBatch.batch = 1024;
  list.push_back(wideBatch);

  Workload deep = shared;
  deep.name = "mlp-deep";
  deep.description = "8 members of four layers of 256: 256-256(tanh)-"
                     "256(tanh)-256(tanh)-256, batch 512 shared";
  deep.members = 8;
  deep.in = deep.hidden = deep.out = 256;
  deep.layers = 3;
  deep.batch = 512;
  list.push_back(deep);

  // A heterogeneous ensemble (issue #30): three architectures side by side.
  Workload hetero = shared;
  hetero.name = "hetero";
  hetero.description = "24 members of three architectures, 8 each: "
                       "32-16(tanh)-8, 32-64(tanh)-64(tanh)-8, "
                       "32-128(tanh)-8, batch 256 shared";
  hetero.kind = Workload::Kind::Hetero;
  hetero.members = 24;
  hetero.in = 32;
  hetero.out = 8;
  hetero.architectures = {{16, 1}, {64, 2}, {128, 1}};
  list.push_back(hetero);
  return list;
}

namespace {
/// SplitMix64: a small, fast generator whose stream is fixed by its seed on
/// every platform (unlike <random>'s distributions).
class Random {
public:
  explicit Random(uint64_t seed) : state(seed) {}
  uint64_t next() {
    uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  /// Uniform in [lo, hi).
  float uniform(double lo, double hi) {
    double unit = static_cast<double>(next() >> 11) * 0x1.0p-53;
    return static_cast<float>(lo + (hi - lo) * unit);
  }

private:
  uint64_t state;
};

int64_t product(const std::vector<int64_t> &shape) {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

/// An array of `shape` with elements uniform in [-bound, bound).
Array uniform(Random &random, std::string name, std::vector<int64_t> shape,
              double bound) {
  Array array{std::move(name), std::move(shape), {}};
  array.values.resize(product(array.shape));
  for (float &value : array.values)
    value = random.uniform(-bound, bound);
  return array;
}

/// targets[r, o] = sin(sum_i x[r, i] p[i, o]) for the rows r of x [R, in],
/// with p uniform in +-sqrt(3 / in) (so the sum has unit variance when x is
/// uniform in +-1).
std::vector<float> smoothTargets(Random &random, const std::vector<float> &x,
                                 int64_t in, int64_t out) {
  std::vector<float> p(in * out);
  double bound = std::sqrt(3.0 / static_cast<double>(in));
  for (float &value : p)
    value = random.uniform(-bound, bound);
  int64_t rows = static_cast<int64_t>(x.size()) / in;
  std::vector<float> targets(rows * out);
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t o = 0; o < out; ++o) {
      double sum = 0;
      for (int64_t i = 0; i < in; ++i)
        sum += static_cast<double>(x[r * in + i]) * p[i * out + o];
      targets[r * out + o] = static_cast<float>(std::sin(sum));
    }
  return targets;
}
} // namespace

std::vector<Array> ens_bench::makeData(const Workload &workload,
                                       uint64_t seed) {
  Random random(seed);
  std::vector<Array> arrays;
  if (workload.kind == Workload::Kind::Tensordot) {
    const int64_t b = workload.batch;
    Array x = uniform(random, "x", {b, 3, 2}, 1.0);
    Array t{"t", {b, 1}, smoothTargets(random, x.values, 6, 1)};
    arrays.push_back(std::move(x));
    arrays.push_back(std::move(t));
    arrays.push_back(uniform(random, "w", {3, 2, 1}, std::sqrt(6.0 / 7.0)));
    arrays.push_back(uniform(random, "b", {1}, 0.1));
    return arrays;
  }
  auto xavier = [](int64_t fanIn, int64_t fanOut) {
    return std::sqrt(6.0 / static_cast<double>(fanIn + fanOut));
  };
  if (workload.kind == Workload::Kind::Cnn) {
    const int64_t m = workload.members, b = workload.batch, s = workload.image,
                  c1 = workload.channels1, c2 = workload.channels2,
                  k = workload.out, f = workload.cnnFeatures();
    arrays.push_back(uniform(random, "x", {b, 1, s, s}, 1.0));
    Array labels{"t", {b}, std::vector<float>(b)};
    for (float &label : labels.values)
      label = static_cast<float>(random.next() % static_cast<uint64_t>(k));
    arrays.push_back(std::move(labels));
    // Xavier over the receptive fields, as for the MLP's layers.
    arrays.push_back(
        uniform(random, "w1", {m, c1, 1, 3, 3}, xavier(1 * 9, c1 * 9)));
    arrays.push_back(uniform(random, "b1", {m, c1}, 0.1));
    arrays.push_back(
        uniform(random, "w2", {m, c2, c1, 3, 3}, xavier(c1 * 9, c2 * 9)));
    arrays.push_back(uniform(random, "b2", {m, c2}, 0.1));
    arrays.push_back(uniform(random, "w3", {m, f, k}, xavier(f, k)));
    arrays.push_back(uniform(random, "b3", {m, k}, 0.1));
    return arrays;
  }
  const int64_t g = workload.groups, b = workload.batch, in = workload.in,
                out = workload.out;
  Array x = uniform(random, "x", {g, b, in}, 1.0);
  Array t{"t", {g, b, out}, smoothTargets(random, x.values, in, out)};
  arrays.push_back(std::move(x));
  arrays.push_back(std::move(t));
  // The layers of `mlp`'s members, their names prefixed with `prefix`.
  auto addLayers = [&](const Workload &mlp, const std::string &prefix) {
    std::vector<int64_t> widths = mlp.mlpWidths();
    for (size_t l = 1; l < widths.size(); ++l) {
      std::string layer = std::to_string(l);
      int64_t from = widths[l - 1], to = widths[l];
      arrays.push_back(uniform(random, prefix + "w" + layer,
                               {mlp.members, from, to}, xavier(from, to)));
      arrays.push_back(
          uniform(random, prefix + "b" + layer, {mlp.members, to}, 0.1));
    }
  };
  if (workload.kind != Workload::Kind::Hetero) {
    addLayers(workload, "");
    return arrays;
  }
  for (size_t k = 0; k < workload.architectures.size(); ++k)
    addLayers(workload.architecture(k), "a" + std::to_string(k) + "_");
  return arrays;
}

void ens_bench::writeData(const std::vector<Array> &arrays,
                          const std::string &dir) {
  for (const Array &array : arrays) {
    std::string path = dir + "/" + array.name + ".bin";
    std::unique_ptr<FILE, int (*)(FILE *)> file(std::fopen(path.c_str(), "wb"),
                                                &std::fclose);
    if (!file ||
        std::fwrite(array.values.data(), sizeof(float), array.values.size(),
                    file.get()) != array.values.size())
      throw ens::Error("cannot write " + path);
  }
}
