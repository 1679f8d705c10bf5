//===- Peak.h - The measured FP32 peak of the cores ens-bench uses -*- C++
//-*-===//
//
// "% of peak" is only as honest as the peak: a datasheet's figure assumes
// clocks and FMA units a virtual machine may not give. ens-bench therefore
// measures the peak it divides by, with a loop of independent FMAs (12
// vector accumulators, enough to hide the FMA latency on two pipes) on
// every core it uses at once, in the widest vectors the processor has.
//
//===----------------------------------------------------------------------===//

#ifndef ENS_BENCH_PEAK_H
#define ENS_BENCH_PEAK_H

#include <string>

namespace ens_bench {

/// The FP32 FMA peak measured on `threads` cores at once.
struct MeasuredPeak {
  /// GFLOP/s of all the threads together (an FMA counts 2 FLOPs).
  double gflops = 0;
  /// The instructions the loop used: "AVX-512 FMA", "AVX2 FMA" or "SSE
  /// (no FMA)".
  std::string isa;
};

/// Runs the FMA loop on `threads` threads for about `seconds` each, best of
/// three, and returns their summed rate.
MeasuredPeak measureFp32Peak(int threads, double seconds = 0.2);

} // namespace ens_bench

#endif // ENS_BENCH_PEAK_H
