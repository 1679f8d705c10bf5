//===- HeteroRunner.cpp - ens's implementations of Hetero -----------------===//
//
// Compiles a heterogeneous ensemble's step as one program, as one program
// per architecture, or padded to the widest architecture, loads the shared
// initial state and runs it in place.
//
//===----------------------------------------------------------------------===//

#include "HeteroRunner.h"

#include "EnsProgram.h"
#include "EnsRunner.h"
#include "ens/ens.h"

#include <chrono>

using namespace ens_bench;

HeteroRunner::HeteroRunner(const ens::Context &context,
                           const Workload &workload,
                           const std::vector<Array> &data, int threads,
                           int checkSteps, Mode mode)
    : mode(mode) {
  info_.version =
      "ens " ENS_BENCH_ENS_VERSION " (LLVM " ENS_BENCH_LLVM_VERSION ")";
  info_.blas = "none: ens-generated code";
  const size_t numArchitectures = workload.architectures.size();
  auto start = std::chrono::steady_clock::now();
  switch (mode) {
  case Mode::OneProgram: {
    info_.impl = "ens";
    info_.notes = "one program: one vmap(value_and_grad + Adam) per "
                  "architecture, side by side";
    ens::Module module = context.parse(memberProgram(workload));
    compile(module, addWorkloadStep(module, workload), threads);
    break;
  }
  case Mode::Separate:
    info_.impl = "ens-separate";
    info_.ensVariant = true;
    info_.notes = "one program per architecture, run one after another";
    for (size_t k = 0; k < numArchitectures; ++k) {
      Workload alone = workload.architecture(k);
      ens::Module module = context.parse(memberProgram(alone));
      compile(module, addWorkloadStep(module, alone), threads);
    }
    break;
  case Mode::Padded: {
    Workload widest = workload.padded();
    info_.impl = "ens-padded";
    info_.ensVariant = true;
    info_.notes = "one program of all members padded to " +
                  std::to_string(widest.hidden) + " units x " +
                  std::to_string(widest.layers) +
                  " layers, weights masked, layers gated";
    ens::Module module = context.parse(paddedMemberProgram(workload));
    compile(module, addPaddedStep(module, workload), threads);
    break;
  }
  }
  info_.threads = static_cast<int>(programs.front().executable->threads());
  compileSeconds_ =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();

  // The shared inputs, step, lr, x and targets: the first program's first
  // arguments (OneProgram) or its last.
  const ens::Signature &first = programs.front().executable->signature();
  size_t shared = mode == Mode::OneProgram ? 0 : first.inputs.size() - 4;
  for (size_t i = shared; i < shared + 4; ++i)
    inputs.emplace_back(first.inputs[i]);
  fillTensor(inputs[1], {static_cast<float>(workload.lr)}, "lr");
  fillTensor(inputs[2], findArray(data, "x").values, "x");
  fillTensor(inputs[3], findArray(data, "t").values, "targets");
  if (mode == Mode::Padded)
    loadPaddedState(workload, data);
  else
    loadState(workload, data);

  for (int from = 0; from < 2; ++from) {
    auto stateRange = [&](int copy, size_t k) {
      std::vector<ens::Tensor *> range;
      for (size_t i = offsets[k]; i < offsets[k + 1]; ++i)
        range.push_back(&state[copy][i]);
      return range;
    };
    std::vector<ens::Tensor *> shared;
    for (ens::Tensor &input : inputs)
      shared.push_back(&input);
    if (mode == Mode::Separate) {
      for (size_t k = 0; k < numArchitectures; ++k) {
        std::vector<ens::Tensor *> args = stateRange(from, k),
                                   results = stateRange(1 - from, k);
        args.insert(args.end(), shared.begin(), shared.end());
        results.push_back(&losses[k]);
        bind(programs[k], from, args, results);
      }
      continue;
    }
    // OneProgram: the shared inputs, then each architecture's state; each
    // architecture's new state and losses. Padded: the one state, the
    // masks, the shared inputs; the new state and the losses.
    std::vector<ens::Tensor *> args, results;
    if (mode == Mode::OneProgram)
      args = shared;
    for (size_t k = 0; k + 1 < offsets.size(); ++k) {
      std::vector<ens::Tensor *> in = stateRange(from, k),
                                 out = stateRange(1 - from, k);
      args.insert(args.end(), in.begin(), in.end());
      results.insert(results.end(), out.begin(), out.end());
      results.push_back(&losses[k]);
    }
    if (mode == Mode::Padded) {
      for (ens::Tensor &mask : masks)
        args.push_back(&mask);
      args.insert(args.end(), shared.begin(), shared.end());
    }
    bind(programs.front(), from, args, results);
  }

  for (int i = 0; i < checkSteps; ++i) {
    step();
    std::vector<double> all;
    for (const ens::Tensor &loss : losses) {
      std::vector<double> values = loss.values();
      all.insert(all.end(), values.begin(), values.end());
    }
    info_.checkLosses.push_back(all);
  }
  info_.available = true;
}

HeteroRunner::Program &HeteroRunner::compile(const ens::Module &module,
                                             const std::string &function,
                                             int threads) {
  ens::CompileOptions options;
  options.threads = threads;
  programs.emplace_back();
  programs.back().executable = std::make_unique<ens::Executable>(
      module.compile(function, ens::Target::Cpu, options));
  return programs.back();
}

void HeteroRunner::bind(Program &program, int from,
                        const std::vector<ens::Tensor *> &args,
                        const std::vector<ens::Tensor *> &results) {
  const ens::Signature &signature = program.executable->signature();
  if (args.size() != signature.inputs.size() ||
      results.size() != signature.results.size())
    throw ens::Error("an ens step of the heterogeneous workload has an "
                     "unexpected signature");
  for (ens::Tensor *tensor : args)
    program.argViews[from].push_back(tensor->dlpack());
  for (ens::Tensor *tensor : results)
    program.resultViews[from].push_back(tensor->dlpack());
  for (DLTensor &view : program.argViews[from])
    program.args[from].push_back(&view);
  for (DLTensor &view : program.resultViews[from])
    program.results[from].push_back(&view);
}

void HeteroRunner::allocateState(const std::vector<ens::TensorType> &types) {
  for (std::vector<ens::Tensor> &copy : state)
    for (const ens::TensorType &type : types)
      copy.emplace_back(type);
}

void HeteroRunner::loadState(const Workload &workload,
                             const std::vector<Array> &data) {
  // Architecture k's state is its program's (or its group's) parameters and
  // moments; each program's results end with its losses.
  std::vector<ens::TensorType> types;
  offsets = {0};
  for (size_t k = 0; k < workload.architectures.size(); ++k) {
    Workload alone = workload.architecture(k);
    size_t numState = 3 * alone.mlpParamNames().size();
    std::vector<int64_t> widths = alone.mlpWidths();
    for (int copy = 0; copy < 3; ++copy)
      for (size_t l = 1; l < widths.size(); ++l) {
        types.push_back(
            {ens::DType::F32, {alone.members, widths[l - 1], widths[l]}});
        types.push_back({ens::DType::F32, {alone.members, widths[l]}});
      }
    offsets.push_back(offsets.back() + numState);
    losses.emplace_back(ens::TensorType{ens::DType::F32, {alone.members}});
  }
  allocateState(types);
  for (size_t k = 0; k < workload.architectures.size(); ++k) {
    std::vector<std::string> params = workload.architecture(k).mlpParamNames();
    for (size_t i = 0; i < params.size(); ++i) {
      std::string name = "a" + std::to_string(k) + "_" + params[i];
      // Moments start at zero, as ens::Tensor does.
      fillTensor(state[0][offsets[k] + i], findArray(data, name).values, name);
    }
  }
}

void HeteroRunner::loadPaddedState(const Workload &workload,
                                   const std::vector<Array> &data) {
  const Workload widest = workload.padded();
  const std::vector<int64_t> widths = widest.mlpWidths();
  const std::vector<std::string> params = widest.mlpParamNames();
  const size_t numLayers = widths.size() - 1;
  std::vector<ens::TensorType> types;
  for (int copy = 0; copy < 3; ++copy)
    for (size_t l = 1; l <= numLayers; ++l) {
      types.push_back(
          {ens::DType::F32, {widest.members, widths[l - 1], widths[l]}});
      types.push_back({ens::DType::F32, {widest.members, widths[l]}});
    }
  allocateState(types);
  offsets = {0, types.size()};
  losses.emplace_back(ens::TensorType{ens::DType::F32, {widest.members}});
  for (size_t i = 0; i < params.size(); ++i)
    masks.emplace_back(types[i]);
  for (size_t l = 2; l < numLayers; ++l)
    masks.emplace_back(ens::TensorType{ens::DType::F32, {widest.members}});

  // Member j of architecture k is member k * perArchitecture + j of the
  // padded program. Its hidden layers are the first of the widest's, its
  // output layer the widest's last; the layers it lacks pass through.
  auto *gates = masks.data() + params.size();
  int64_t member = 0;
  for (size_t k = 0; k < workload.architectures.size(); ++k) {
    Workload alone = workload.architecture(k);
    std::vector<int64_t> own = alone.mlpWidths();
    size_t ownLayers = own.size() - 1;
    for (int64_t j = 0; j < alone.members; ++j, ++member) {
      for (size_t l = 1; l <= ownLayers; ++l) {
        size_t target = l == ownLayers ? numLayers : l;
        std::string prefix = "a" + std::to_string(k) + "_";
        const Array &w = findArray(data, prefix + "w" + std::to_string(l));
        const Array &b = findArray(data, prefix + "b" + std::to_string(l));
        int64_t rows = own[l - 1], cols = own[l];
        int64_t paddedRows = widths[target - 1], paddedCols = widths[target];
        auto *pw = static_cast<float *>(state[0][2 * (target - 1)].data()) +
                   member * paddedRows * paddedCols;
        auto *pb = static_cast<float *>(state[0][2 * target - 1].data()) +
                   member * paddedCols;
        auto *mw = static_cast<float *>(masks[2 * (target - 1)].data()) +
                   member * paddedRows * paddedCols;
        auto *mb = static_cast<float *>(masks[2 * target - 1].data()) +
                   member * paddedCols;
        for (int64_t r = 0; r < rows; ++r)
          for (int64_t c = 0; c < cols; ++c) {
            pw[r * paddedCols + c] = w.values[(j * rows + r) * cols + c];
            mw[r * paddedCols + c] = 1;
          }
        for (int64_t c = 0; c < cols; ++c) {
          pb[c] = b.values[j * cols + c];
          mb[c] = 1;
        }
      }
      for (size_t l = 2; l < numLayers; ++l)
        static_cast<float *>(gates[l - 2].data())[member] =
            l < ownLayers ? 1.0f : 0.0f;
    }
  }
}

void HeteroRunner::step() {
  steps += 1;
  *static_cast<float *>(inputs[0].data()) = static_cast<float>(steps);
  for (Program &program : programs)
    program.executable->run(program.args[current], program.results[current]);
  current = 1 - current;
}
