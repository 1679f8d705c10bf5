//===- Peak.cpp - The measured FP32 peak of the cores ens-bench uses ------===//
//
// Each loop keeps 12 vector accumulators, acc = acc * a + b, with a just
// below 1 so that the values stay finite and normal; GCC and Clang
// contract the multiply-add into one FMA where the target has it, and the
// sum of the accumulators leaves the loop so that none of it is dead.
//
//===----------------------------------------------------------------------===//

#include "Peak.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <thread>
#include <vector>

using namespace ens_bench;

namespace {
constexpr int kAccumulators = 12;
/// The loop's constants, read at run time so that the compiler cannot fold
/// an accumulator that a constant start would keep at a fixed point.
volatile float kMultiplier = 0.999999f, kAddend = 1e-6f;
constexpr int64_t kIterationsPerCheck = 1 << 16;

typedef float Floats16 __attribute__((vector_size(64)));
typedef float Floats8 __attribute__((vector_size(32)));
typedef float Floats4 __attribute__((vector_size(16)));

/// Runs `iterations` of the loop on vectors of `Lanes` floats; returns a
/// value that depends on every accumulator.
template <typename Vector, int Lanes> struct FmaLoop {
  __attribute__((always_inline)) static float run(int64_t iterations) {
    Vector acc[kAccumulators];
    Vector a, b;
    for (int lane = 0; lane < Lanes; ++lane) {
      a[lane] = kMultiplier;
      b[lane] = kAddend;
    }
    for (int k = 0; k < kAccumulators; ++k)
      acc[k] = a * static_cast<float>(k + 2);
    for (int64_t i = 0; i < iterations; ++i)
      for (int k = 0; k < kAccumulators; ++k)
        acc[k] = acc[k] * a + b;
    float sum = 0;
    for (int k = 0; k < kAccumulators; ++k)
      for (int lane = 0; lane < Lanes; ++lane)
        sum += acc[k][lane];
    return sum;
  }
};

__attribute__((target("avx512f"))) float runAvx512(int64_t iterations) {
  return FmaLoop<Floats16, 16>::run(iterations);
}
__attribute__((target("avx2,fma"))) float runAvx2(int64_t iterations) {
  return FmaLoop<Floats8, 8>::run(iterations);
}
float runSse(int64_t iterations) {
  return FmaLoop<Floats4, 4>::run(iterations);
}

/// GFLOP/s of one thread running `loop` (of `lanes` lanes) for `seconds`.
double measureOne(float (*loop)(int64_t), int lanes, double seconds,
                  float &sink) {
  using Clock = std::chrono::steady_clock;
  auto start = Clock::now();
  int64_t iterations = 0;
  double elapsed = 0;
  while (elapsed < seconds) {
    sink += loop(kIterationsPerCheck);
    iterations += kIterationsPerCheck;
    elapsed = std::chrono::duration<double>(Clock::now() - start).count();
  }
  return 2.0 * kAccumulators * lanes * static_cast<double>(iterations) /
         elapsed * 1e-9;
}
} // namespace

MeasuredPeak ens_bench::measureFp32Peak(int threads, double seconds) {
  float (*loop)(int64_t) = runSse;
  int lanes = 4;
  MeasuredPeak peak{0, "SSE (no FMA)"};
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f")) {
    loop = runAvx512;
    lanes = 16;
    peak.isa = "AVX-512 FMA";
  } else if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) {
    loop = runAvx2;
    lanes = 8;
    peak.isa = "AVX2 FMA";
  }
  threads = std::max(threads, 1);
  for (int round = 0; round < 3; ++round) {
    std::vector<double> rates(threads);
    std::vector<float> sinks(threads);
    std::vector<std::thread> workers;
    for (int t = 0; t < threads; ++t)
      workers.emplace_back(
          [&, t] { rates[t] = measureOne(loop, lanes, seconds, sinks[t]); });
    for (std::thread &worker : workers)
      worker.join();
    double total = 0;
    for (double rate : rates)
      total += rate;
    // The sinks keep the loops alive; a NaN would mean the loop misbehaved.
    for (float sink : sinks)
      if (sink != sink)
        total = 0;
    peak.gflops = std::max(peak.gflops, total);
  }
  return peak;
}
