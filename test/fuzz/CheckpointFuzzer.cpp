//===- CheckpointFuzzer.cpp - Fuzz ens-train's checkpoint loader ----------===//
//
// The input is a checkpoint packed into one byte string: a 4-byte
// little-endian length N and N bytes of manifest.json, then the arrays of
// state.npz, each as its name, a NUL, a 4-byte length M and M bytes of a
// .npy file. The arrays that parse are written with serializeNpz (a .npz
// that the fuzzer wrote itself would rarely pass the entries' CRC check;
// NpzFuzzer.cpp fuzzes the container). Both files are then read back as
// `ens-train --resume` does (a checkpoint of format version 1, whose files
// lie in the directory itself), for the model in
// Inputs/checkpoint-model.mlir.
// The input's length decides whether the state of early stopping is read
// too. The properties: no crash or unbounded allocation, and no exception
// other than Failure.
//
//===----------------------------------------------------------------------===//

#include "FuzzSupport.h"
#include "ens/Train/Checkpoint.h"
#include "ens/Train/Failure.h"

#include "ens/Support/Npz.h"
#include "ens/Train/Program.h"

#include "ens/Support/Npy.h"

#include "llvm/Support/MemoryBuffer.h"

#include <cstdint>
#include <cstdlib>

using namespace ens::train;
using ens::train::Failure;
using mlir::ens::NamedArray;

namespace {
/// The model every checkpoint is read for, loaded once.
const Model &getModel() {
  static const ens::Context context;
  static const Model model = [] {
    auto file = llvm::MemoryBuffer::getFile(ENS_FUZZ_CHECKPOINT_MODEL);
    if (!file) {
      llvm::errs() << "fuzz: cannot read " ENS_FUZZ_CHECKPOINT_MODEL "\n";
      std::abort();
    }
    return loadModel(context, "checkpoint-model.mlir",
                     (*file)->getBuffer().str(), Task::Regress);
  }();
  return model;
}
/// Reads a 4-byte little-endian length and that many bytes (fewer at the
/// end of the input) from the front of `input`.
llvm::StringRef takeSized(llvm::StringRef &input) {
  if (input.size() < 4) {
    input = {};
    return {};
  }
  const auto *bytes = reinterpret_cast<const uint8_t *>(input.data());
  size_t size = bytes[0] | bytes[1] << 8 | bytes[2] << 16 |
                static_cast<size_t>(bytes[3]) << 24;
  llvm::StringRef taken = input.drop_front(4).take_front(size);
  input = input.drop_front(4 + taken.size());
  return taken;
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::StringRef input(reinterpret_cast<const char *>(data), size);
  llvm::StringRef manifest = takeSized(input);
  std::vector<NamedArray> arrays;
  while (!input.empty()) {
    auto [name, rest] = input.split('\0');
    input = rest;
    llvm::Expected<mlir::ens::HostTensor> array =
        mlir::ens::parseNpy(takeSized(input), name);
    if (array)
      arrays.emplace_back(name.str(), std::move(*array));
    else
      llvm::consumeError(array.takeError());
  }
  const Model &model = getModel();
  ens_fuzz::writeScratchFile("manifest.json", manifest);
  llvm::Expected<std::string> state = mlir::ens::serializeNpz(arrays);
  if (!state) {
    llvm::consumeError(state.takeError());
    return 0;
  }
  ens_fuzz::writeScratchFile("state.npz", *state);
  const std::string &directory = ens_fuzz::scratchDirectory();
  // Half the inputs are read with early stopping's state, as a run with
  // --patience reads them.
  bool earlyStopping = size % 2;
  try {
    readCheckpoint(findCheckpoint(directory), model, earlyStopping);
  } catch (const Failure &) {
  }
  return 0;
}
