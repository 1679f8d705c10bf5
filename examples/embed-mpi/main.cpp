//===- main.cpp - An ensemble's members over MPI processes ----------------===//
//
// Each process runs its share of 7 members (ens::distributed::memberRange)
// of a small model, lifted with vmap over just those members, and the
// processes gather every member's outputs (allGatherMembers). The first
// then runs all 7 members alone and checks that the gathered outputs are
// the same, bit for bit: a member's result does not depend on which
// process ran it. Exits 0 when they agree.
//
//===----------------------------------------------------------------------===//

#include <ens/distributed.h>
#include <ens/ens.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>

namespace {
constexpr int64_t kMembers = 7, kBatch = 5, kIn = 4, kOut = 3;

/// Member m's weights, a function of m alone: [kIn x kOut].
std::vector<double> weightsOf(int64_t m) {
  std::vector<double> w;
  for (int64_t i = 0; i < kIn * kOut; ++i)
    w.push_back(std::cos(0.7 * i + 1.3 * m));
  return w;
}

/// The members [begin, end)'s weights, stacked.
ens::Tensor stackedWeights(int64_t begin, int64_t end) {
  std::vector<double> values;
  for (int64_t m = begin; m < end; ++m) {
    std::vector<double> w = weightsOf(m);
    values.insert(values.end(), w.begin(), w.end());
  }
  return ens::Tensor({ens::DType::F32, {end - begin, kIn, kOut}}, values);
}

/// Every member in [begin, end)'s tanh(x @ w) on the shared `x`, through
/// a vmap of the member named `name`.
ens::Tensor runMembers(ens::Module &module, const std::string &name,
                       const ens::Tensor &x, int64_t begin, int64_t end) {
  std::string lifted = module.vmap("member", {-1, 0}, {0}, end - begin, name);
  return module.compile(lifted).run({x, stackedWeights(begin, end)})[0];
}
} // namespace

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1, status = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  try {
    ens::Context context;
    ens::Module module = context.createModule();
    ens::FunctionBuilder f =
        module.function("member", {{ens::DType::F32, {kBatch, kIn}},
                                   {ens::DType::F32, {kIn, kOut}}});
    f.ret({f.tanh(f.matmul(f.arg(0), f.arg(1)))});

    std::vector<double> xs;
    for (int64_t i = 0; i < kBatch * kIn; ++i)
      xs.push_back(std::sin(0.3 * i));
    ens::Tensor x({ens::DType::F32, {kBatch, kIn}}, xs);

    ens::distributed::MemberRange mine =
        ens::distributed::memberRange(kMembers);
    ens::Tensor local = runMembers(module, "mine", x, mine.begin, mine.end);
    ens::Tensor all = ens::distributed::allGatherMembers(local);
    if (rank == 0) {
      ens::Tensor alone = runMembers(module, "all", x, 0, kMembers);
      bool same = all.type().shape == alone.type().shape &&
                  std::memcmp(all.data(), alone.data(), all.byteSize()) == 0;
      std::printf("%lld members over %d processes: %s\n",
                  static_cast<long long>(kMembers), size,
                  same ? "the same as one process, bit for bit"
                       : "DIFFERENT from one process");
      status = same ? 0 : 1;
    }
  } catch (const ens::Error &error) {
    std::fprintf(stderr, "embed-mpi: rank %d: %s\n", rank, error.what());
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  MPI_Finalize();
  return status;
}
