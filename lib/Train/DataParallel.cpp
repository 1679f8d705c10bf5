//===- DataParallel.cpp - One member's batch over processes ---------------===//

#include "ens/Train/DataParallel.h"

#include "ens/Train/Sharding.h"

#include <cstring>

using namespace ens::train;

/// Rows [begin, end) along `axis` of `tensor`: the batch's rows of x or of
/// the targets (axis 1 with a batch per member).
static ens::Tensor takeRows(const ens::Tensor &tensor, size_t axis,
                            int64_t begin, int64_t end) {
  ens::TensorType type = tensor.type();
  const int64_t rows = type.shape[axis];
  int64_t outer = 1;
  for (size_t d = 0; d < axis; ++d)
    outer *= type.shape[d];
  type.shape[axis] = end - begin;
  return takeRowsOfBlocks(tensor, outer, rows, begin, end, std::move(type));
}

/// `tensor`'s f32 values.
static std::vector<float> valuesOf(const ens::Tensor &tensor) {
  const float *values = static_cast<const float *>(tensor.data());
  return std::vector<float>(values, values + tensor.type().numElements());
}

std::vector<ens::Tensor>
ens::train::runDataParallelStep(Programs &programs, Communicator &comm,
                                const std::vector<ens::Tensor> &args) {
  const size_t p = (args.size() - 4) / 3;
  const ens::Tensor &x = args[3 * p + 2], &targets = args[3 * p + 3];
  const size_t axis = programs.getShape().batchPerMember ? 1 : 0;
  const int64_t batch = targets.type().shape[axis];
  const int64_t begin = batch * comm.rank() / comm.size(),
                end = batch * (comm.rank() + 1) / comm.size();

  std::vector<ens::Tensor> inputs{takeRows(x, axis, begin, end)};
  inputs.insert(inputs.begin() + 1, args.begin(), args.begin() + p);
  inputs.push_back(takeRows(targets, axis, begin, end));
  // The losses, then each parameter's gradients.
  std::vector<ens::Tensor> parts = programs.grads(end - begin).run(inputs);

  // Each process's values weighted by its share of the rows, then summed
  // in rank order, the same on every process.
  const float weight = static_cast<float>(end - begin) / batch;
  std::vector<float> mine;
  for (const ens::Tensor &part : parts)
    for (float value : valuesOf(part))
      mine.push_back(weight * value);
  std::vector<float> all = comm.allGather(mine);
  std::vector<float> sum(mine.size(), 0.0f);
  for (int r = 0; r < comm.size(); ++r)
    for (size_t i = 0; i < sum.size(); ++i)
      sum[i] += all[r * mine.size() + i];
  std::vector<ens::Tensor> averaged;
  size_t at = 0;
  for (const ens::Tensor &part : parts) {
    ens::Tensor tensor(part.type());
    std::memcpy(tensor.data(), sum.data() + at, tensor.byteSize());
    at += part.type().numElements();
    averaged.push_back(std::move(tensor));
  }

  // The update: parameters, gradients, moments, the step, the rates.
  std::vector<ens::Tensor> update(args.begin(), args.begin() + p);
  update.insert(update.end(), averaged.begin() + 1, averaged.end());
  update.insert(update.end(), args.begin() + p, args.begin() + 3 * p + 2);
  std::vector<ens::Tensor> results = programs.update().run(update);
  results.push_back(std::move(averaged.front()));
  return results;
}
