//===- EnsRunner.cpp - ens's implementation of a workload -----------------===//
//
// Compiles the step, loads the shared initial state and runs it in place.
//
//===----------------------------------------------------------------------===//

#include "EnsRunner.h"

#include "EnsProgram.h"
#include "ens/ens.h"

#include <chrono>
#include <cstring>

using namespace ens_bench;

void StepRunner::warmup(int minSteps, double minMs) {
  BlockSpec spec;
  spec.minSteps = minSteps;
  spec.minMs = minMs;
  spec.maxSteps = 1 << 30;
  block(spec);
}

std::vector<double> StepRunner::block(const BlockSpec &spec) {
  using Clock = std::chrono::steady_clock;
  step();
  std::vector<double> times;
  double total = 0;
  while (
      static_cast<int>(times.size()) < spec.maxSteps &&
      (static_cast<int>(times.size()) < spec.minSteps || total < spec.minMs)) {
    Clock::time_point start = Clock::now();
    step();
    double ms =
        std::chrono::duration<double, std::milli>(Clock::now() - start).count();
    times.push_back(ms);
    total += ms;
  }
  return times;
}

void ens_bench::fillTensor(ens::Tensor &tensor,
                           const std::vector<float> &values,
                           const std::string &name) {
  ens::DType dtype = tensor.type().dtype;
  if ((dtype != ens::DType::F32 && dtype != ens::DType::I32) ||
      tensor.byteSize() != values.size() * 4)
    throw ens::Error("ens step argument for " + name + " is " +
                     tensor.type().str() + ", which does not fit its " +
                     std::to_string(values.size()) + " values");
  if (dtype == ens::DType::F32) {
    std::memcpy(tensor.data(), values.data(), tensor.byteSize());
    return;
  }
  auto *out = static_cast<int32_t *>(tensor.data());
  for (size_t i = 0; i < values.size(); ++i)
    out[i] = static_cast<int32_t>(values[i]);
}

const Array &ens_bench::findArray(const std::vector<Array> &data,
                                  const std::string &name) {
  for (const Array &array : data)
    if (array.name == name)
      return array;
  throw ens::Error("no array " + name + " in the workload's data");
}

EnsRunner::EnsRunner(const ens::Context &context, const Workload &workload,
                     const std::vector<Array> &data, int threads,
                     int checkSteps) {
  info_.impl = "ens";
  info_.version =
      "ens " ENS_BENCH_ENS_VERSION " (LLVM " ENS_BENCH_LLVM_VERSION ")";
  info_.blas = "none: ens-generated code";
  bool nested = workload.groups > 1 && workload.groups < workload.members;
  switch (workload.kind) {
  case Workload::Kind::Mlp:
    info_.notes = nested ? "one program: vmap(vmap(value_and_grad + Adam))"
                         : "one program: vmap(value_and_grad + Adam)";
    break;
  case Workload::Kind::Tensordot:
    info_.notes = "one program: value_and_grad(mse(vmap(predict))) + Adam";
    break;
  case Workload::Kind::Cnn:
    info_.notes = "one program: vmap(value_and_grad + SGD), the members' "
                  "convolutions grouped";
    break;
  case Workload::Kind::Hetero:
    throw ens::Error("EnsRunner cannot run " + workload.name +
                     ", a heterogeneous ensemble: HeteroRunner does");
  }

  auto start = std::chrono::steady_clock::now();
  ens::Module module = context.parse(memberProgram(workload));
  std::string name = addWorkloadStep(module, workload);
  ens::CompileOptions options;
  options.threads = threads;
  executable = std::make_unique<ens::Executable>(
      module.compile(name, ens::Target::Cpu, options));
  info_.threads = static_cast<int>(executable->threads());
  compileSeconds_ =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();

  // Arguments: the state (params, and Adam's m and v), step, lr, x,
  // targets; results: the new state and the losses.
  const ens::Signature &signature = executable->signature();
  const size_t numState = signature.results.size() - 1;
  if (signature.inputs.size() != numState + 4)
    throw ens::Error("the ens step of " + workload.name +
                     " has an unexpected signature");
  for (std::vector<ens::Tensor> &copy : state)
    for (size_t i = 0; i < numState; ++i)
      copy.emplace_back(signature.inputs[i]);
  for (size_t i = numState; i < signature.inputs.size(); ++i)
    inputs.emplace_back(signature.inputs[i]);
  losses = ens::Tensor(signature.results.back());

  std::vector<std::string> params;
  switch (workload.kind) {
  case Workload::Kind::Mlp:
    params = workload.mlpParamNames();
    break;
  case Workload::Kind::Tensordot:
    params = {"w", "b"};
    break;
  case Workload::Kind::Cnn:
    params = {"w1", "b1", "w2", "b2", "w3", "b3"};
    break;
  case Workload::Kind::Hetero: // refused above
    break;
  }
  // SGD keeps no moments.
  size_t perParam = workload.kind == Workload::Kind::Cnn ? 1 : 3;
  if (numState != perParam * params.size())
    throw ens::Error("the ens step of " + workload.name +
                     " has an unexpected number of state arguments");
  for (size_t i = 0; i < params.size(); ++i)
    fillTensor(state[0][i], findArray(data, params[i]).values, params[i]);
  // Moments start at zero, as ens::Tensor does.
  fillTensor(inputs[1], {static_cast<float>(workload.lr)}, "lr");
  fillTensor(inputs[2], findArray(data, "x").values, "x");
  fillTensor(inputs[3], findArray(data, "t").values, "targets");

  for (int from = 0; from < 2; ++from) {
    for (ens::Tensor &tensor : state[from])
      argViews[from].push_back(tensor.dlpack());
    for (ens::Tensor &tensor : inputs)
      argViews[from].push_back(tensor.dlpack());
    for (ens::Tensor &tensor : state[1 - from])
      resultViews[from].push_back(tensor.dlpack());
    resultViews[from].push_back(losses.dlpack());
    for (DLTensor &view : argViews[from])
      args[from].push_back(&view);
    for (DLTensor &view : resultViews[from])
      results[from].push_back(&view);
  }

  for (int i = 0; i < checkSteps; ++i) {
    step();
    info_.checkLosses.push_back(losses.values());
  }
  info_.available = true;
}

void EnsRunner::step() {
  steps += 1;
  *static_cast<float *>(inputs[0].data()) = static_cast<float>(steps);
  executable->run(args[current], results[current]);
  current = 1 - current;
}
