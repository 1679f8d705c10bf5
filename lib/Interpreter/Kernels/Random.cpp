//===- Random.cpp - Random-number reference kernels -----------------------===//
//
// Threefry-2x32 and the draws, splits and fold-ins built on it. Keys are
// pairs of i32 elements; the counter's first word tells a draw (0), a
// split (1) and a fold-in (2) apart, so their streams never overlap.
//
//===----------------------------------------------------------------------===//

#include "ens/Interpreter/Kernels.h"

#include <cmath>

using namespace mlir::ens;
using llvm::ArrayRef;
using llvm::SmallVector;

std::array<uint32_t, 2> ref::threefry2x32(std::array<uint32_t, 2> key,
                                          std::array<uint32_t, 2> counter) {
  static constexpr int kRotations[2][4] = {{13, 15, 26, 6}, {17, 29, 16, 24}};
  uint32_t ks[3] = {key[0], key[1], key[0] ^ key[1] ^ 0x1BD11BDAu};
  uint32_t x0 = counter[0] + ks[0], x1 = counter[1] + ks[1];
  for (uint32_t group = 0; group < 5; ++group) {
    for (int rotation : kRotations[group % 2]) {
      x0 += x1;
      x1 = (x1 << rotation) | (x1 >> (32 - rotation));
      x1 ^= x0;
    }
    x0 += ks[(group + 1) % 3];
    x1 += ks[(group + 2) % 3] + group + 1;
  }
  return {x0, x1};
}

/// The key at `offset` (in elements) of a key tensor.
static std::array<uint32_t, 2> keyAt(const HostTensor &keys, int64_t offset) {
  return {static_cast<uint32_t>(static_cast<int64_t>(keys.values[offset])),
          static_cast<uint32_t>(static_cast<int64_t>(keys.values[offset + 1]))};
}

/// Stores a key as two i32 elements.
static void storeKey(HostTensor &keys, int64_t offset,
                     std::array<uint32_t, 2> key) {
  keys.values[offset] = static_cast<int32_t>(key[0]);
  keys.values[offset + 1] = static_cast<int32_t>(key[1]);
}

/// A float in [0, 1) built from random mantissa bits, as a GPU would.
static double uniformFromBits(std::array<uint32_t, 2> bits, DType dtype) {
  if (dtype == DType::F64) {
    uint64_t word = (uint64_t(bits[0]) << 32 | bits[1]) >> 12;
    return std::ldexp(static_cast<double>(word), -52);
  }
  return std::ldexp(static_cast<double>(bits[0] >> 9), -23);
}

HostTensor ref::randomDraw(Distribution distribution, const HostTensor &keys,
                           ArrayRef<int64_t> blockShape, DType dtype) {
  SmallVector<int64_t, 4> shape(ArrayRef<int64_t>(keys.shape).drop_back());
  int64_t numKeys = getNumElements(shape);
  shape.append(blockShape.begin(), blockShape.end());
  HostTensor result(dtype, shape);
  int64_t block = getNumElements(blockShape);
  for (int64_t k = 0; k < numKeys; ++k) {
    std::array<uint32_t, 2> key = keyAt(keys, 2 * k);
    for (int64_t i = 0; i < block; ++i) {
      std::array<uint32_t, 2> bits =
          threefry2x32(key, {0u, static_cast<uint32_t>(i)});
      double value;
      if (distribution == Distribution::Uniform) {
        value = uniformFromBits(bits, dtype);
      } else {
        // Box-Muller on (0, 1) uniforms, so the logarithm stays finite.
        double u1 = (bits[0] + 0.5) * 0x1p-32, u2 = (bits[1] + 0.5) * 0x1p-32;
        value = std::sqrt(-2 * std::log(u1)) * std::cos(2 * M_PI * u2);
      }
      result.values[k * block + i] = value;
    }
  }
  result.roundToDType();
  return result;
}

HostTensor ref::randomSplit(const HostTensor &keys, int64_t count) {
  SmallVector<int64_t, 4> shape(ArrayRef<int64_t>(keys.shape).drop_back());
  int64_t numKeys = getNumElements(shape);
  shape.append({count, 2});
  HostTensor result(DType::I32, shape);
  for (int64_t k = 0; k < numKeys; ++k)
    for (int64_t j = 0; j < count; ++j)
      storeKey(
          result, 2 * (k * count + j),
          threefry2x32(keyAt(keys, 2 * k), {1u, static_cast<uint32_t>(j)}));
  return result;
}

HostTensor ref::randomFoldIn(const HostTensor &keys, const HostTensor &data) {
  HostTensor result(DType::I32, keys.shape);
  for (int64_t k = 0, e = data.getNumElements(); k < e; ++k)
    storeKey(result, 2 * k,
             threefry2x32(keyAt(keys, 2 * k),
                          {2u, static_cast<uint32_t>(
                                   static_cast<int64_t>(data.values[k]))}));
  return result;
}
