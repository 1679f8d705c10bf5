//===- ExampleSupport.h - Loading and feeding the examples ------*- C++ -*-===//
//
// What the training tests share: an example of examples/ after the
// transform pipeline, and seeded normal f32 data.
//
//===----------------------------------------------------------------------===//

#ifndef ENS_TEST_TRAINING_EXAMPLESUPPORT_H
#define ENS_TEST_TRAINING_EXAMPLESUPPORT_H

#include "ens/Dialect/Ens/Transforms/Passes.h"
#include "ens/Support/HostTensor.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"

#include <random>
#include <string>

namespace ens_test {

/// examples/`name` parsed, with the transform pipeline (ens-stdlib,
/// ens-autodiff, ens-batch) run on it; null if either fails.
inline mlir::OwningOpRef<mlir::ModuleOp> loadExample(mlir::MLIRContext &context,
                                                     llvm::StringRef name) {
  std::string path = std::string(ENS_SOURCE_DIR) + "/examples/" + name.str();
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceFile<mlir::ModuleOp>(path, &context);
  if (!module)
    return {};
  mlir::PassManager pm(&context);
  pm.addPass(mlir::ens::createEnsStdlib());
  pm.addPass(mlir::ens::createEnsAutodiff());
  pm.addPass(mlir::ens::createEnsBatch());
  if (mlir::failed(pm.run(*module)))
    return {};
  return module;
}

/// An f32 tensor of `shape` drawn from N(0, scale^2) by `rng`.
inline mlir::ens::HostTensor normal(llvm::ArrayRef<int64_t> shape, double scale,
                                    std::mt19937 &rng) {
  std::normal_distribution<double> distribution(0.0, scale);
  mlir::ens::HostTensor tensor(mlir::ens::DType::F32, shape);
  for (double &value : tensor.values)
    value = distribution(rng);
  tensor.roundToDType();
  return tensor;
}

} // namespace ens_test

#endif // ENS_TEST_TRAINING_EXAMPLESUPPORT_H
