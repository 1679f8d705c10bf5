//===- MmaEmulationTest.cpp - The emulator's TF32 tensor-core helpers -----===//
//
// The emulation header's ens_cvt_tf32 and ens_mma_tf32_m16n8k8 (the device
// prelude's helpers for --gpu-precision=tf32 and 3xtf32) against
// references that know nothing of fragments: TF32 rounding worked out by
// hand and by scaling in double, and the plain matrix product of the
// rounded matrices. The kernels below load each thread's fragments as the
// PTX ISA lays them out for mma.m16n8k8 with .tf32 (section "Matrix
// Fragments for mma.m16n8k8"), so a helper that gathered or scattered
// another layout, mixed the warps of a block or kept the bits below TF32's
// would compute another product.
//
//===----------------------------------------------------------------------===//

#include "EmulatedKernelTest.h"

#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cmath>
#include <cstring>

using namespace mlir;
using namespace mlir::ens;
using namespace mlir::ens::cuda;

namespace {

/// `x` rounded to 10 mantissa bits, to nearest with ties away from zero,
/// by scaling in double: std::round rounds halfway cases away from zero.
/// TF32's ulp is 2^(e - 10) for 2^e <= |x| < 2^(e + 1), and 2^-136 for
/// subnormals, as f32's exponent range is TF32's.
float roundToTf32(float x) {
  if (x == 0 || !std::isfinite(x))
    return x;
  int exponent;
  std::frexp(x, &exponent); // |x| = m 2^exponent, 0.5 <= m < 1.
  double ulp = std::ldexp(1.0, std::max(exponent - 11, -136));
  return static_cast<float>(std::round(x / ulp) * ulp);
}

/// `x` with the 13 bits below TF32's cleared: what the tensor cores read
/// of an operand that was not rounded first.
float truncateToTf32(float x) {
  unsigned bits;
  std::memcpy(&bits, &x, 4);
  bits &= 0xffffe000u;
  std::memcpy(&x, &bits, 4);
  return x;
}

/// The source of kernel `mma` over `warps` warps: warp w multiplies its
/// own 16x8 a (row-major) and 8x8 b and adds its 16x8 c into d, loading
/// the fragments as the PTX ISA lays them out; `operand` turns an element
/// into the bits the mma reads.
std::string getMmaSource(StringRef operand) {
  std::string source;
  llvm::raw_string_ostream os(source);
  os << "extern \"C\" __global__ void mma(float *a, float *b, float *c, "
        "float *d) {\n"
        "  unsigned w = threadIdx.x / 32, g = threadIdx.x % 32 / 4, t = "
        "threadIdx.x % 4;\n"
        "  a += w * 128; b += w * 64; c += w * 128; d += w * 128;\n"
        "  unsigned fa[4] = {"
     << operand << "(a[g * 8 + t]), " << operand << "(a[(g + 8) * 8 + t]), "
     << operand << "(a[g * 8 + t + 4]), " << operand
     << "(a[(g + 8) * 8 + t + 4])};\n"
        "  unsigned fb[2] = {"
     << operand << "(b[t * 8 + g]), " << operand
     << "(b[(t + 4) * 8 + g])};\n"
        "  float fc[4] = {c[g * 8 + 2 * t], c[g * 8 + 2 * t + 1], "
        "c[(g + 8) * 8 + 2 * t], c[(g + 8) * 8 + 2 * t + 1]};\n"
        "  float fd[4];\n"
        "  ens_mma_tf32_m16n8k8(fd, fa, fb, fc);\n"
        "  d[g * 8 + 2 * t] = fd[0]; d[g * 8 + 2 * t + 1] = fd[1];\n"
        "  d[(g + 8) * 8 + 2 * t] = fd[2]; d[(g + 8) * 8 + 2 * t + 1] = "
        "fd[3];\n"
        "}\n";
  return source;
}

class MmaEmulationTest : public EmulatedKernelTest {
protected:
  /// Multiplies, for each of `warps` warps, its a and b of pseudo-random
  /// values with 23-bit mantissas and adds its c, through `operand`, and
  /// checks d against the product of the matrices rounded by `reference`
  /// and summed in order of k in f32 (each product of TF32 numbers is exact
  /// in f32).
  void expectProducts(int64_t warps, StringRef operand,
                      float (*reference)(float)) {
    HostTensor a(DType::F32, {warps, 16, 8}), b(DType::F32, {warps, 8, 8}),
        c(DType::F32, {warps, 16, 8});
    unsigned state = 12345;
    auto next = [&] {
      state = state * 1103515245u + 12345u;
      return static_cast<float>((state >> 8) % 2000001) / 1e6f - 1.0f;
    };
    for (HostTensor *tensor : {&a, &b, &c})
      for (double &value : tensor->values)
        value = next();
    std::vector<double> d =
        run(makeProgram(
                getMmaSource(operand), "mma",
                {{warps, 16, 8}, {warps, 8, 8}, {warps, 16, 8}, {warps, 16, 8}},
                static_cast<unsigned>(32 * warps)),
            {a, b, c});
    ASSERT_EQ(d.size(), warps * 128u);
    int differFromF32 = 0;
    for (int64_t w = 0; w < warps; ++w)
      for (unsigned i = 0; i < 16; ++i)
        for (unsigned j = 0; j < 8; ++j) {
          float want = c.values[w * 128 + i * 8 + j], exact = want;
          for (unsigned k = 0; k < 8; ++k) {
            float x = a.values[w * 128 + i * 8 + k];
            float y = b.values[w * 64 + k * 8 + j];
            want += reference(x) * reference(y);
            exact += x * y;
          }
          EXPECT_EQ(d[w * 128 + i * 8 + j], want)
              << "warp " << w << ", d[" << i << "][" << j << "]";
          differFromF32 += want != exact;
        }
    // The inputs are such that TF32 changes most results.
    EXPECT_GT(differFromF32, static_cast<int>(warps * 100));
  }
};

TEST_F(MmaEmulationTest, RoundsToNearestTiesAwayFromZero) {
  // 2^-10 is TF32's ulp at 1: 1 + 2^-11 is a tie (away: up, where ties to
  // even would give 1), 1 + 2^-12 below it and 1 + 3 * 2^-12 above it.
  // The largest float rounds up to infinity. Subnormals keep TF32's ulp
  // 2^-136: 3 * 2^-137 = 1.5 ulps is a tie (up to 2 ulps), 2^-138 a
  // quarter of one (0).
  std::vector<double> inputs = {1 + std::ldexp(1.0, -11),
                                -(1 + std::ldexp(1.0, -11)),
                                1 + std::ldexp(1.0, -12),
                                1 + 3 * std::ldexp(1.0, -12),
                                1 + std::ldexp(1.0, -10) + std::ldexp(1.0, -11),
                                0x1.fffffep127,
                                std::ldexp(3.0, -137),
                                std::ldexp(1.0, -138),
                                0.0};
  std::vector<double> want = {1 + std::ldexp(1.0, -10),
                              -(1 + std::ldexp(1.0, -10)),
                              1.0,
                              1 + std::ldexp(1.0, -10),
                              1 + 2 * std::ldexp(1.0, -10),
                              INFINITY,
                              std::ldexp(1.0, -135),
                              0.0,
                              0.0};
  int64_t n = inputs.size();
  HostTensor x(DType::F32, {n});
  x.values = inputs;
  std::vector<double> got =
      run(makeProgram("extern \"C\" __global__ void cvt(float *x, float *y) {\n"
                      "  if (threadIdx.x < " +
                          std::to_string(n) +
                          ") y[threadIdx.x] = "
                          "__uint_as_float(ens_cvt_tf32(x[threadIdx.x]));\n}\n",
                      "cvt", {{n}, {n}}, 32),
          x);
  EXPECT_EQ(got, want);
  // The reference of the product tests agrees on these.
  for (int64_t i = 0; i < n; ++i)
    EXPECT_EQ(roundToTf32(inputs[i]), static_cast<float>(want[i])) << i;
}

TEST_F(MmaEmulationTest, MultipliesInThePtxFragmentLayout) {
  expectProducts(1, "ens_cvt_tf32", roundToTf32);
}

TEST_F(MmaEmulationTest, KeepsTheWarpsOfABlockApart) {
  expectProducts(3, "ens_cvt_tf32", roundToTf32);
}

TEST_F(MmaEmulationTest, ReadsOnlyTheTf32BitsOfItsOperands) {
  expectProducts(1, "__float_as_uint", truncateToTf32);
}

} // namespace
