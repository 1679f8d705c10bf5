//===- CpAsyncEmulationTest.cpp - The emulator's cp.async -----------------===//
//
// The emulation header's ens_cp_async, ens_cp_async_commit and
// ens_cp_async_wait (the device prelude's helpers for cp.async,
// cp.async.commit_group and cp.async.wait_group) against what the PTX ISA
// defines: a copy's bytes are in shared memory only after a wait that
// covers its group, copies not yet committed are not waited for,
// wait_group N leaves the N most recent groups pending, and the bytes past
// src-size are zero. The expected values are worked out below from the
// input and the sentinels the kernel writes first, by rules that know
// nothing of the emulation. A copy whose addresses are not aligned to its
// size faults, as on a GPU: the call fails and names the kernel.
//
//===----------------------------------------------------------------------===//

#include "EmulatedKernelTest.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace mlir::ens;
using namespace mlir::ens::cuda;

namespace {

constexpr int64_t kThreads = 64;
/// The rows of each thread's observations, 4 values a row.
constexpr int64_t kRows = 6;

/// Thread t stages a 16-byte copy into a (group 1; its odd threads copy 8
/// bytes of the 16), an 8-byte, a 4-byte and a 4-byte zero-fill copy into b
/// (group 2) and a 4-byte copy into c (committed last), each over the
/// sentinel -1 - t, and records what it reads in between.
const char *const kSource = R"(
extern "C" __global__ void stage(float *x, float *y) {
  alignas(16) __shared__ float s[2 * 4 * 64 + 64];
  unsigned t = threadIdx.x;
  float *a = s + 4 * t, *b = s + 256 + 4 * t, *c = s + 512 + t;
  float *row = y + t * 24;
  for (int i = 0; i < 4; ++i)
    a[i] = b[i] = -1.0f - t;
  *c = -1.0f - t;
  ens_cp_async<16>(a, x + 4 * t, t % 2 ? 8 : 16);
  for (int i = 0; i < 4; ++i) row[i] = a[i];
  ens_cp_async_commit();
  ens_cp_async<8>(b, x + 256 + 4 * t, 8);
  ens_cp_async<4>(b + 2, x + 256 + 4 * t + 2, 4);
  ens_cp_async<4>(b + 3, x + 256 + 4 * t + 3, 0);
  ens_cp_async_commit();
  for (int i = 0; i < 4; ++i) row[4 + i] = a[i];
  ens_cp_async<4>(c, x + 512 + t, 4);
  ens_cp_async_wait<1>();
  for (int i = 0; i < 4; ++i) row[8 + i] = a[i];
  for (int i = 0; i < 4; ++i) row[12 + i] = b[i];
  ens_cp_async_wait<0>();
  for (int i = 0; i < 4; ++i) row[16 + i] = b[i];
  row[20] = *c;
  ens_cp_async_commit();
  ens_cp_async_wait<0>();
  row[21] = *c;
  __syncthreads();
  row[22] = s[4 * ((t + 1) % 64)];
  row[23] = s[512 + (t + 63) % 64];
}
)";

class CpAsyncEmulationTest : public EmulatedKernelTest {};

TEST_F(CpAsyncEmulationTest, CopiesOnlyAtTheWaitThatCoversTheirGroup) {
  HostTensor x(DType::F32, {576});
  for (int64_t i = 0; i < 576; ++i)
    x.values[i] = 1000 + i;
  std::vector<double> y =
      run(makeProgram(kSource, "stage", {{576}, {kThreads, kRows, 4}},
                      static_cast<unsigned>(kThreads)),
          x);
  ASSERT_EQ(y.size(), static_cast<size_t>(kThreads * kRows * 4));
  for (int64_t t = 0; t < kThreads; ++t) {
    double sentinel = -1.0 - t;
    // a's copy: 16 bytes from x[4t], of which odd threads' last 8 are zero.
    auto a = [&](int64_t i) {
      return t % 2 && i >= 2 ? 0.0 : x.values[4 * t + i];
    };
    // b's copies: 8 and 4 bytes from x[256 + 4t], then 4 zero bytes.
    auto b = [&](int64_t i) {
      return i == 3 ? 0.0 : x.values[256 + 4 * t + i];
    };
    std::vector<double> want(24);
    for (int64_t i = 0; i < 4; ++i) {
      want[i] = sentinel;      // Started, not committed.
      want[4 + i] = sentinel;  // Committed, not waited for.
      want[8 + i] = a(i);      // Group 1 waited for by wait_group 1...
      want[12 + i] = sentinel; // ... which leaves group 2 pending.
      want[16 + i] = b(i);     // wait_group 0.
    }
    want[20] = sentinel; // Not committed at wait_group 0.
    want[21] = x.values[512 + t];
    // After the barrier, the neighbours' copies.
    int64_t next = (t + 1) % kThreads, previous = (t + kThreads - 1) % kThreads;
    want[22] = x.values[4 * next];
    want[23] = x.values[512 + previous];
    for (int64_t i = 0; i < 24; ++i)
      EXPECT_EQ(y[t * 24 + i], want[i]) << "thread " << t << ", value " << i;
  }
}

/// Thread t copies 16 bytes from x + 4t + `global` floats to the shared
/// array at 4t + `shared` floats, then stores what arrived.
std::string getOffsetCopy(int shared, int global) {
  return R"(
extern "C" __global__ void offset(float *x, float *y) {
  alignas(16) __shared__ float s[4 * 32 + 4];
  unsigned t = threadIdx.x;
  ens_cp_async<16>(s + 4 * t + )" +
         std::to_string(shared) + R"(, x + 4 * t + )" + std::to_string(global) +
         R"(, 16);
  ens_cp_async_commit();
  ens_cp_async_wait<0>();
  for (int i = 0; i < 4; ++i)
    y[4 * t + i] = s[4 * t + )" +
         std::to_string(shared) + R"( + i];
}
)";
}

TEST_F(CpAsyncEmulationTest, MisalignedCopiesFault) {
  HostTensor x(DType::F32, {4 * 32 + 4});
  for (int64_t i = 0; i < 4 * 32 + 4; ++i)
    x.values[i] = i;
  auto program = [&](int shared, int global) {
    return makeProgram(getOffsetCopy(shared, global), "offset",
                       {{4 * 32 + 4}, {4 * 32}}, 32u);
  };
  // Aligned: each thread's 4 words arrive.
  std::vector<double> y = run(program(0, 0), x);
  ASSERT_EQ(y.size(), 4u * 32);
  for (int64_t i = 0; i < 4 * 32; ++i)
    EXPECT_EQ(y[i], x.values[i]);
  // A word off in shared or in global memory: the launch faults.
  for (auto [shared, global] : {std::pair(1, 0), std::pair(0, 2)}) {
    std::string message = runForError(program(shared, global), x);
    EXPECT_NE(message.find("kernel offset faulted on cuda-emu: misaligned "
                           "address: a 16-byte cp.async"),
              std::string::npos)
        << "shared + " << shared << ", global + " << global << ": " << message;
  }
}

} // namespace
