//===- Gemm.cpp - Vendor GEMM steps of a launch plan ----------------------===//
//
// A launch plan may hand a batched matrix product to the vendor's GEMM
// (cuBLAS on a GPU, lib/Runtime/Cublas.cpp) instead of a generated kernel.
// This file holds what every runner shares about such a step: its text, the
// order of the plan's steps, and the host GEMM with which
// the emulator runs it. The host GEMM is written plainly from the BLAS
// definition, so that a wrong parameter in a plan gives a wrong answer on
// the emulator as it would on a GPU.
//
//===----------------------------------------------------------------------===//

#include "ens/Runtime/Plan.h"

#include <sstream>

using namespace ens::runtime;

std::string ens::runtime::printGemmStep(const GemmStep &gemm) {
  std::ostringstream os;
  auto operand = [&](const char *name, const GemmOperand &x) {
    os << ", " << name << " buffer " << x.buffer << " + " << x.offset << " ld"
       << static_cast<char>(name[0] - 'A' + 'a') << " " << x.ld << " stride "
       << x.stride;
  };
  os << "sgemm strided batched: trans" << (gemm.transA ? "a T" : "a N")
     << ", trans" << (gemm.transB ? "b T" : "b N") << ", m " << gemm.m << ", n "
     << gemm.n << ", k " << gemm.k << ", batch " << gemm.batch << ", alpha "
     << gemm.alpha << ", beta " << gemm.beta;
  operand("A", gemm.a);
  operand("B", gemm.b);
  operand("C", gemm.c);
  return os.str();
}

void ens::runtime::runHostGemm(const GemmStep &gemm, const float *a,
                               const float *b, float *c) {
  for (int64_t i = 0; i < gemm.batch; ++i) {
    const float *ai = a + gemm.a.offset + i * gemm.a.stride;
    const float *bi = b + gemm.b.offset + i * gemm.b.stride;
    float *ci = c + gemm.c.offset + i * gemm.c.stride;
    for (int64_t col = 0; col < gemm.n; ++col)
      for (int64_t row = 0; row < gemm.m; ++row) {
        // op(A)(row, p) and op(B)(p, col), column-major.
        float sum = 0;
        for (int64_t p = 0; p < gemm.k; ++p) {
          float x =
              gemm.transA ? ai[p + row * gemm.a.ld] : ai[row + p * gemm.a.ld];
          float y =
              gemm.transB ? bi[col + p * gemm.b.ld] : bi[p + col * gemm.b.ld];
          sum += x * y;
        }
        float &out = ci[row + col * gemm.c.ld];
        // With beta 0, C is not read: it may hold anything, NaN included.
        out = gemm.beta == 0 ? gemm.alpha * sum
                             : gemm.alpha * sum + gemm.beta * out;
      }
  }
}

Error ens::runtime::runSteps(
    const LaunchPlan &plan,
    const std::function<Error(const KernelLaunch &)> &launch,
    const std::function<Error(const GemmStep &)> &gemm) {
  size_t next = 0;
  for (size_t i = 0; i <= plan.launches.size(); ++i) {
    for (; next < plan.gemms.size() && plan.gemms[next].after == i; ++next)
      if (Error failure = gemm(plan.gemms[next]))
        return failure;
    if (i < plan.launches.size())
      if (Error failure = launch(plan.launches[i]))
        return failure;
  }
  return Error::success();
}
