//===- main.cpp - Embedding ens in a C++ program --------------------------===//
//
// Builds one member of a small ensemble with the C++ builder API, lifts it
// over 16 members with vmap, JIT-compiles it for the CPU and runs it on the
// application's own buffers through DLPack. Each member's result is checked
// against the reference interpreter running the single-member function.
// Exits 0 when everything agrees.
//
//===----------------------------------------------------------------------===//

#include <ens/ens.h>

#include <cmath>
#include <cstdio>
#include <vector>

int main() {
  constexpr int64_t kMembers = 16, kBatch = 8, kIn = 4, kOut = 3;
  try {
    ens::Context context;
    ens::Module module = context.createModule();

    // predict(x, w, b) = tanh(x @ w + b), written for one member.
    ens::FunctionBuilder f =
        module.function("predict", {{ens::DType::F32, {kBatch, kIn}},
                                    {ens::DType::F32, {kIn, kOut}},
                                    {ens::DType::F32, {kOut}}});
    ens::Value z = f.matmul(f.arg(0), f.arg(1));
    ens::Value bias = f.broadcastInDim(f.arg(2), {kBatch, kOut}, {1});
    f.ret({f.tanh(f.add(z, bias))});

    // All members on one shared batch: x shared, parameters stacked.
    std::string ensemble = module.vmap("predict", {-1, 0, 0}, {0}, kMembers);
    ens::Executable compiled = module.compile(ensemble, ens::Target::Cpu);
    ens::Executable reference =
        module.compile("predict", ens::Target::Interpreter);

    // The application's own memory.
    std::vector<float> x(kBatch * kIn), w(kMembers * kIn * kOut),
        b(kMembers * kOut), y(kMembers * kBatch * kOut);
    for (size_t i = 0; i < x.size(); ++i)
      x[i] = std::sin(0.3f * i);
    for (size_t i = 0; i < w.size(); ++i)
      w[i] = std::cos(0.7f * i);
    for (size_t i = 0; i < b.size(); ++i)
      b[i] = 0.01f * i;
    int64_t xShape[] = {kBatch, kIn}, wShape[] = {kMembers, kIn, kOut},
            bShape[] = {kMembers, kOut}, yShape[] = {kMembers, kBatch, kOut};
    DLDataType f32{kDLFloat, 32, 1};
    DLTensor dx{x.data(), {kDLCPU, 0}, 2, f32, xShape, nullptr, 0};
    DLTensor dw{w.data(), {kDLCPU, 0}, 3, f32, wShape, nullptr, 0};
    DLTensor db{b.data(), {kDLCPU, 0}, 2, f32, bShape, nullptr, 0};
    DLTensor dy{y.data(), {kDLCPU, 0}, 3, f32, yShape, nullptr, 0};
    compiled.run({&dx, &dw, &db}, {&dy});

    ens::Tensor xs({ens::DType::F32, {kBatch, kIn}},
                   std::vector<double>(x.begin(), x.end()));
    double worst = 0;
    for (int64_t m = 0; m < kMembers; ++m) {
      ens::Tensor wm({ens::DType::F32, {kIn, kOut}},
                     std::vector<double>(w.begin() + m * kIn * kOut,
                                         w.begin() + (m + 1) * kIn * kOut));
      ens::Tensor bm({ens::DType::F32, {kOut}},
                     std::vector<double>(b.begin() + m * kOut,
                                         b.begin() + (m + 1) * kOut));
      std::vector<double> want = reference.run({xs, wm, bm})[0].values();
      for (int64_t i = 0; i < kBatch * kOut; ++i)
        worst = std::max(worst, std::fabs(y[m * kBatch * kOut + i] - want[i]));
    }
    std::printf("%lld members, largest difference from the interpreter: "
                "%g\n",
                static_cast<long long>(kMembers), worst);
    return worst < 1e-5 ? 0 : 1;
  } catch (const ens::Error &error) {
    std::fprintf(stderr, "embed: %s\n", error.what());
    return 1;
  }
}
