//===- Communicator.cpp - The processes of a distributed run --------------===//
//
// A process knows that mpirun started it from the environment OpenMPI (and
// MPICH, through PMI) gives it; only then is MPI initialised, so that a run
// of one process neither pays for MPI_Init nor needs a launcher.
//
//===----------------------------------------------------------------------===//

#include "ens/Train/Communicator.h"

#include "ens/Train/Failure.h"

#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

// Targets built from ens-train's sources without its CMake target (the
// fuzzers') have no MPI.
#ifndef ENS_TRAIN_HAVE_MPI
#define ENS_TRAIN_HAVE_MPI 0
#endif
#if ENS_TRAIN_HAVE_MPI
// MPI's C API only (not OpenMPI's deprecated C++ bindings).
#define OMPI_SKIP_MPICXX 1
#define MPICH_SKIP_MPICXX 1
#include <mpi.h>
#endif

using namespace ens::train;
using ens::train::Failure;

Communicator::~Communicator() = default;

bool ens::train::hasMpi() { return ENS_TRAIN_HAVE_MPI; }

/// The number of processes mpirun started, from the environment: 1 outside
/// mpirun.
static int getLaunchedSize() {
  for (const char *name : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE"})
    if (const char *value = std::getenv(name))
      return std::max(1, std::atoi(value));
  return 1;
}

namespace {
/// One process: every collective is a copy.
class SingleProcess final : public Communicator {
public:
  int rank() const override { return 0; }
  int size() const override { return 1; }
  int localRank() const override { return 0; }
  std::vector<float> allGather(llvm::ArrayRef<float> local) override {
    return local.vec();
  }
  bool allTrue(bool value) override { return value; }
  [[noreturn]] void abort(const std::string &message) override {
    llvm::WithColor::error(llvm::errs(), "ens-train") << message << "\n";
    std::exit(1);
  }
};

#if ENS_TRAIN_HAVE_MPI
/// MPI_COMM_WORLD.
class MpiCommunicator final : public Communicator {
public:
  MpiCommunicator() {
    MPI_Init(nullptr, nullptr);
    // Errors end the run with a message rather than return codes that
    // every call would have to check (MPI_ERRORS_ARE_FATAL, the default,
    // stated so).
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    MPI_Comm_size(MPI_COMM_WORLD, &size_);
    // The processes that share this machine's memory: this machine's.
    MPI_Comm machine;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank_,
                        MPI_INFO_NULL, &machine);
    MPI_Comm_rank(machine, &localRank_);
    MPI_Comm_free(&machine);
  }
  ~MpiCommunicator() override { MPI_Finalize(); }

  int rank() const override { return rank_; }
  int size() const override { return size_; }
  int localRank() const override { return localRank_; }

  std::vector<float> allGather(llvm::ArrayRef<float> local) override {
    int count = static_cast<int>(local.size());
    std::vector<int> counts(size_), offsets(size_);
    MPI_Allgather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT,
                  MPI_COMM_WORLD);
    int64_t total = 0;
    for (int r = 0; r < size_; ++r) {
      offsets[r] = static_cast<int>(total);
      total += counts[r];
    }
    if (total > INT32_MAX)
      abort("cannot gather " + std::to_string(total) +
            " values across processes: MPI counts them in int");
    std::vector<float> all(total);
    MPI_Allgatherv(local.data(), count, MPI_FLOAT, all.data(), counts.data(),
                   offsets.data(), MPI_FLOAT, MPI_COMM_WORLD);
    return all;
  }

  bool allTrue(bool value) override {
    int mine = value, all = 0;
    MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
    return all;
  }

  [[noreturn]] void abort(const std::string &message) override {
    llvm::outs().flush();
    llvm::WithColor::error(llvm::errs(), "ens-train")
        << "rank " << rank_ << ": " << message << "\n";
    llvm::errs().flush();
    MPI_Abort(MPI_COMM_WORLD, 1);
    std::exit(1);
  }

private:
  int rank_ = 0, size_ = 1, localRank_ = 0;
};
#endif
} // namespace

std::unique_ptr<Communicator> ens::train::createSingleProcess() {
  return std::make_unique<SingleProcess>();
}

std::unique_ptr<Communicator> ens::train::createCommunicator() {
  int launched = getLaunchedSize();
#if ENS_TRAIN_HAVE_MPI
  if (launched > 1)
    return std::make_unique<MpiCommunicator>();
#else
  if (launched > 1)
    throw Failure("mpirun started " + std::to_string(launched) +
                  " processes, but this ens-train is built without MPI: "
                  "install OpenMPI (libopenmpi-dev) and build ens again to "
                  "share members over processes");
#endif
  return std::make_unique<SingleProcess>();
}
