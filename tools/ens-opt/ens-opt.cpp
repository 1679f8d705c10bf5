//===- ens-opt.cpp - The ens optimizer driver -----------------------------===//
//
// An mlir-opt-style driver for the ens dialect and its passes.
//
//===----------------------------------------------------------------------===//

#include "ens/InitAllDialects.h"
#include "ens/InitAllPasses.h"

#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  mlir::ens::registerLoweringDialects(registry);
  mlir::ens::registerAllPasses();
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "ens optimizer driver\n", registry));
}
