//===- CpuRunner.cpp - CPU code of exported programs ----------------------===//

#include "ens/Runtime/Runner.h"

using namespace ens::runtime;

Expected<std::unique_ptr<Runner>>
ens::runtime::createCpuRunner(const Signature &, std::string_view) {
  return Error("cpu artifacts cannot run yet");
}
