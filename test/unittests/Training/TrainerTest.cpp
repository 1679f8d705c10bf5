//===- TrainerTest.cpp - The trainer library's C++ API --------------------===//
//
// ens::train::Trainer on data and starting weights in memory: the errors
// that only a C++ caller can meet (ens-train and Python always pass what
// they check), and a run whose result a hand computation gives.
//
//===----------------------------------------------------------------------===//

#include "ens/Train/Trainer.h"
#include "ens/Train/Failure.h"
#include "ens/Train/Groups.h"
#include "ens/Train/Predict.h"

#include "gtest/gtest.h"

using namespace ens::train;

namespace {

/// One member: y = x w, with x [4 x 2] and w [2 x 1].
const char kLinear[] = R"(
func.func @forward(%x: tensor<4x2xf32>, %w: tensor<2x1xf32>) -> tensor<4x1xf32> {
  %y = ens.matmul %x, %w : tensor<4x2xf32>, tensor<2x1xf32> -> tensor<4x1xf32>
  return %y : tensor<4x1xf32>
}
)";

/// Options for `members` members of kLinear, `ensembles` of them, on 4
/// rows whose targets are 1, starting from w = 0.
TrainOptions linearOptions(int64_t members, int64_t ensembles) {
  TrainOptions options;
  Settings &settings = options.settings;
  settings.members = members;
  settings.ensembles = ensembles;
  settings.modelText = kLinear;
  settings.lrMin = settings.lrMax = 0.1;
  settings.batching.batchSize = 4;
  options.modelText = kLinear;
  options.modelName = "linear";
  options.steps = 1;
  Dataset data;
  data.rows = 4, data.features = 2, data.outputs = ensembles;
  data.x = {1, 0, 0, 1, 1, 1, 0, 0};
  data.y.assign(4 * ensembles, 1.0f);
  options.trainData = data;
  options.initialParams.emplace_back(
      ens::TensorType{ens::DType::F32, {members, 2, 1}});
  return options;
}

TEST(TrainerTest, TrainsFromWeightsInMemory) {
  ens::Context context;
  std::unique_ptr<Communicator> comm = createSingleProcess();
  Trainer trainer(context, linearOptions(2, 1), *comm);
  trainer.loadData();
  trainer.compile();
  trainer.initialize();
  // From w = 0 the loss is the mean of 1^2; Adam's first step moves each
  // weight by the rate against its gradient's sign (both are negative).
  EXPECT_FLOAT_EQ(trainer.getState().initialLoss[0], 1.0f);
  trainer.train({});
  std::optional<TrainSummary> summary = trainer.finish(0);
  ASSERT_TRUE(summary);
  const float *w =
      static_cast<const float *>(trainer.getState().params[0].data());
  for (int i = 0; i < 4; ++i)
    EXPECT_NEAR(w[i], 0.1f, 1e-6) << i;
}

TEST(TrainerTest, RefusesStartingWeightsOfAnotherShape) {
  ens::Context context;
  std::unique_ptr<Communicator> comm = createSingleProcess();
  TrainOptions options = linearOptions(2, 1);
  options.initialParams[0] =
      ens::Tensor(ens::TensorType{ens::DType::F32, {3, 2, 1}});
  Trainer trainer(context, std::move(options), *comm);
  trainer.loadData();
  trainer.compile();
  try {
    trainer.initialize();
    ADD_FAILURE() << "no error";
  } catch (const Failure &failure) {
    EXPECT_STREQ(failure.what(),
                 "starting weights of parameter w are tensor<3x2x1xf32>, "
                 "expected tensor<2x2x1xf32> (one per member)");
  }
}

TEST(TrainerTest, PredictsOneEnsembleInMemory) {
  ens::Context context;
  std::unique_ptr<Communicator> comm = createSingleProcess();
  Trainer trainer(context, linearOptions(1, 2), *comm);
  trainer.loadData();
  trainer.compile();
  trainer.initialize();
  trainer.finish(0);
  try {
    trainer.predict(trainer.getTrainData());
    ADD_FAILURE() << "no error";
  } catch (const Failure &failure) {
    EXPECT_STREQ(failure.what(),
                 "predicting in memory takes one ensemble; there are 2");
  }
}

/// Expects `call` to throw a Failure whose message is `message`.
template <typename Call> void expectFailure(Call call, const char *message) {
  try {
    call();
    ADD_FAILURE() << "no error";
  } catch (const Failure &failure) {
    EXPECT_STREQ(failure.what(), message);
  }
}

/// kLinear with two outputs: y = x w, w [2 x 2].
const char kTwoOutputs[] = R"(
func.func @forward(%x: tensor<4x2xf32>, %w: tensor<2x2xf32>) -> tensor<4x2xf32> {
  %y = ens.matmul %x, %w : tensor<4x2xf32>, tensor<2x2xf32> -> tensor<4x2xf32>
  return %y : tensor<4x2xf32>
}
)";

TEST(TrainerTest, PredictsAnEnsembleOfMembersThatPredictAlike) {
  ens::Context context;
  std::unique_ptr<Communicator> comm = createSingleProcess();
  Trainer one(context, linearOptions(2, 1), *comm);
  TrainOptions options = linearOptions(1, 1);
  options.settings.modelText = options.modelText = kTwoOutputs;
  options.trainData->outputs = 2;
  options.trainData->y.assign(8, 1.0f);
  options.initialParams[0] =
      ens::Tensor(ens::TensorType{ens::DType::F32, {1, 2, 2}});
  Trainer two(context, std::move(options), *comm);
  for (Trainer *trainer : {&one, &two}) {
    trainer->loadData();
    trainer->compile();
    trainer->initialize();
  }
  const Dataset &data = one.getTrainData();
  expectFailure([&] { predictEnsemble({}, data); },
                "an ensemble to predict with needs members");
  EnsembleMembers parts[] = {
      {one.getPrograms(), one.getModel(), 4, one.getState().params},
      {two.getPrograms(), two.getModel(), 4, two.getState().params}};
  expectFailure([&] { predictEnsemble(parts, data); },
                "the members of an ensemble must predict the same outputs "
                "for the same task: tensor<4x2xf32> against tensor<4x1xf32>");
}

TEST(TrainerTest, RefusesAHeterogeneousEnsembleOfNoModel) {
  ens::Context context;
  std::unique_ptr<Communicator> comm = createSingleProcess();
  TrainOptions options = linearOptions(2, 1);
  options.initialParams.clear();
  expectFailure([&] { GroupTrainer(context, options, {}, *comm); },
                "a heterogeneous ensemble needs at least one model");
}

} // namespace
