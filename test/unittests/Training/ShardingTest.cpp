//===- ShardingTest.cpp - Tests of ens-train's member shards
//---------------===//
//
// The shards of members over processes, and the gathering of every
// process's members back into the global order, with a stand-in for MPI
// that plays every rank's part of a gather.
//
//===----------------------------------------------------------------------===//

#include "ens/Train/Sharding.h"
#include "ens/Train/Communicator.h"
#include "ens/Train/Failure.h"

#include "gtest/gtest.h"

#include <cstdlib>
#include <numeric>

using namespace ens::train;
using ens::train::Failure;

namespace {

TEST(ShardingTest, SpreadsTheRemainderEvenly) {
  // 8 members over 3 processes: 2, 3 and 3.
  int64_t expected[][2] = {{0, 2}, {2, 5}, {5, 8}};
  for (int rank = 0; rank < 3; ++rank) {
    MemberShard shard = MemberShard::of(8, 1, rank, 3);
    EXPECT_EQ(shard.begin, expected[rank][0]) << "rank " << rank;
    EXPECT_EQ(shard.end, expected[rank][1]) << "rank " << rank;
  }
  EXPECT_TRUE(MemberShard::of(8, 2, 0, 1).isWhole());
}

/// Rank 0 of `size` processes whose allGather returns `gathered`, what the
/// other ranks would have sent with it.
class FakeComm final : public Communicator {
public:
  FakeComm(int size, std::vector<float> gathered)
      : size_(size), gathered(std::move(gathered)) {}
  int rank() const override { return 0; }
  int size() const override { return size_; }
  int localRank() const override { return 0; }
  std::vector<float> allGather(llvm::ArrayRef<float>) override {
    return gathered;
  }
  bool allTrue(bool value) override { return value; }
  [[noreturn]] void abort(const std::string &message) override {
    throw Failure(message);
  }

private:
  int size_;
  std::vector<float> gathered;
};

TEST(ShardingTest, GathersEveryRanksMembersInTheGlobalOrder) {
  // 2 ensembles of 5 members, a value of 3 floats each: member i of
  // ensemble k holds 100 k + 10 i + j.
  const int64_t ensembles = 2, members = 5, width = 3, ranks = 2;
  std::vector<float> global;
  for (int64_t k = 0; k < ensembles; ++k)
    for (int64_t i = 0; i < members; ++i)
      for (int64_t j = 0; j < width; ++j)
        global.push_back(100 * k + 10 * i + j);
  ens::Tensor globalTensor(
      ens::TensorType{ens::DType::F32, {ensembles * members, width}});
  std::copy(global.begin(), global.end(),
            static_cast<float *>(globalTensor.data()));

  // Each rank's slice, then what a gather in rank order concatenates.
  std::vector<float> gathered;
  for (int rank = 0; rank < ranks; ++rank) {
    MemberShard shard = MemberShard::of(members, ensembles, rank, ranks);
    ens::Tensor local = shard.localize(globalTensor);
    ASSERT_EQ(local.type().shape[0], ensembles * shard.count());
    const float *values = static_cast<const float *>(local.data());
    // The slice holds ensemble 0's members [begin, end), then ensemble 1's.
    EXPECT_EQ(values[0], 10 * shard.begin);
    EXPECT_EQ(values[shard.count() * width], 100 + 10 * shard.begin);
    gathered.insert(gathered.end(), values,
                    values + local.type().numElements());
  }
  FakeComm comm(ranks, gathered);
  MemberShard first = MemberShard::of(members, ensembles, 0, ranks);
  ens::Tensor back = first.globalize(first.localize(globalTensor), comm);
  ASSERT_EQ(back.type().shape, globalTensor.type().shape);
  const float *values = static_cast<const float *>(back.data());
  EXPECT_EQ(std::vector<float>(values, values + global.size()), global);
}

TEST(CommunicatorTest, OneProcessOutsideMpirun) {
  ::unsetenv("OMPI_COMM_WORLD_SIZE");
  ::unsetenv("PMI_SIZE");
  std::unique_ptr<Communicator> comm = createCommunicator();
  EXPECT_EQ(comm->size(), 1);
  EXPECT_EQ(comm->allGather({1.0f, 2.0f}), (std::vector<float>{1, 2}));
}

TEST(CommunicatorTest, SaysThatMpirunNeedsMpi) {
  // This test's copy of Communicator.cpp is built without MPI, as an
  // ens-train built where OpenMPI is missing.
  ASSERT_FALSE(hasMpi());
  ::setenv("OMPI_COMM_WORLD_SIZE", "2", 1);
  try {
    createCommunicator();
    ADD_FAILURE() << "no error";
  } catch (const Failure &failure) {
    EXPECT_STREQ(failure.what(),
                 "mpirun started 2 processes, but this ens-train is built "
                 "without MPI: install OpenMPI (libopenmpi-dev) and build ens "
                 "again to share members over processes");
  }
  ::unsetenv("OMPI_COMM_WORLD_SIZE");
}

} // namespace
