//===- NpzTest.cpp - NumPy .npz archives ----------------------------------===//
//
// The reader against archives the writer makes and their corruptions; the
// archives np.savez writes are read in the ens-train and ens-run lit tests
// (made by test/ens-train/Inputs/make_data.py with Python's zipfile).
//
//===----------------------------------------------------------------------===//

#include "ens/Support/Npz.h"

#include "gtest/gtest.h"

using namespace mlir::ens;

namespace {

std::vector<NamedArray> makeArrays() {
  return {{"x", HostTensor(DType::F32, {2, 3}, {1, 2, 3, 4, 5, 6})},
          {"step", HostTensor(DType::I32, {}, {7})}};
}

/// The message of `result`'s error, or "" if it has none.
template <typename T> std::string errorOf(llvm::Expected<T> result) {
  if (result)
    return "";
  return llvm::toString(result.takeError());
}

TEST(NpzTest, ReadsWhatItWrites) {
  llvm::Expected<std::string> bytes = serializeNpz(makeArrays());
  ASSERT_TRUE(bool(bytes)) << llvm::toString(bytes.takeError());
  llvm::Expected<std::vector<NamedArray>> arrays = parseNpz(*bytes, "a.npz");
  ASSERT_TRUE(bool(arrays)) << llvm::toString(arrays.takeError());
  ASSERT_EQ(arrays->size(), 2u);
  EXPECT_EQ((*arrays)[0].first, "x");
  EXPECT_EQ((*arrays)[0].second.dtype, DType::F32);
  EXPECT_EQ(llvm::ArrayRef<int64_t>((*arrays)[0].second.shape),
            llvm::ArrayRef<int64_t>({2, 3}));
  EXPECT_EQ((*arrays)[0].second.values,
            (std::vector<double>{1, 2, 3, 4, 5, 6}));
  EXPECT_EQ((*arrays)[1].first, "step");
  EXPECT_EQ((*arrays)[1].second.dtype, DType::I32);
  EXPECT_EQ((*arrays)[1].second.values, std::vector<double>{7});
  // The same arrays always give the same bytes.
  EXPECT_EQ(*serializeNpz(makeArrays()), *bytes);
}

TEST(NpzTest, RefusesEveryTruncation) {
  std::string bytes = *serializeNpz(makeArrays());
  // Every prefix is an error, never a crash or a partial result.
  for (size_t size = 0; size < bytes.size(); ++size)
    EXPECT_NE(
        errorOf(parseNpz(llvm::StringRef(bytes).take_front(size), "cut.npz")),
        "")
        << "a prefix of " << size << " bytes";
  EXPECT_EQ(errorOf(parseNpz("", "empty.npz")),
            "empty.npz is not a .npz file (no ZIP end-of-central-directory "
            "record)");
}

TEST(NpzTest, ChecksEachEntrysCrc) {
  std::string bytes = *serializeNpz(makeArrays());
  // The last element of x, inside the first entry's data.
  size_t at = bytes.find(".npy") + 4 + 128 + 5 * 4;
  bytes[at] ^= 1;
  EXPECT_EQ(errorOf(parseNpz(bytes, "flipped.npz")),
            "flipped.npz entry 'x.npy' is corrupt (CRC mismatch)");
}

TEST(NpzTest, RefusesTwoArraysOfOneName) {
  std::vector<NamedArray> twice = makeArrays();
  twice[1].first = "x";
  EXPECT_EQ(errorOf(parseNpz(*serializeNpz(twice), "twice.npz")),
            "twice.npz has two arrays named 'x'");
}

TEST(NpzTest, ReadsFilesAsReadNpyDoes) {
  EXPECT_NE(errorOf(readNpz("/nonexistent/a.npz")).find("/nonexistent/a.npz"),
            std::string::npos);
  EXPECT_NE(errorOf(readNpz("/dev/zero")), "");
}

} // namespace
