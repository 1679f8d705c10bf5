//===- Cublas.cpp - cuBLAS, loaded at run time ----------------------------===//
//
// Loads cuBLAS for the vendor GEMM steps of launch plans, only when a plan
// has one: $ENS_CUBLAS_LIBRARY if set, else the first of libcublas.so.13,
// .so.12 and .so that loads. The GPU runner (DeviceRunner.cpp) calls it on
// its stream, in order with its kernel launches.
//
//===----------------------------------------------------------------------===//

#include "Cublas.h"
#include "SharedObject.h"

#include "ens/Runtime/Runner.h"

#include <cstdlib>
#include <dlfcn.h>
#include <vector>

using namespace ens::runtime;

/// cublasOperation_t's CUBLAS_OP_N and CUBLAS_OP_T.
static constexpr int kOpN = 0, kOpT = 1;

Error Cublas::check(Status status, const std::string &call) const {
  if (status == 0)
    return Error::success();
  const char *name = getStatusName ? getStatusName(status) : nullptr;
  return Error(call + " failed: " + (name ? name : std::to_string(status)));
}

Error Cublas::gemm(Handle handle, void *stream, const GemmStep &step,
                   unsigned long long a, unsigned long long b,
                   unsigned long long c) const {
  if (Error failure = check(setStream(handle, stream), "cublasSetStream"))
    return failure;
  auto at = [](unsigned long long base, const GemmOperand &x) {
    return reinterpret_cast<float *>(base + x.offset * sizeof(float));
  };
  // verifyPlan keeps every size and leading dimension within int.
  return check(sgemmStridedBatched(
                   handle, step.transA ? kOpT : kOpN, step.transB ? kOpT : kOpN,
                   static_cast<int>(step.m), static_cast<int>(step.n),
                   static_cast<int>(step.k), &step.alpha, at(a, step.a),
                   static_cast<int>(step.a.ld), step.a.stride, at(b, step.b),
                   static_cast<int>(step.b.ld), step.b.stride, &step.beta,
                   at(c, step.c), static_cast<int>(step.c.ld), step.c.stride,
                   static_cast<int>(step.batch)),
               "cublasSgemmStridedBatched(" + step.sourceOps + ")");
}

Expected<const Cublas *> ens::runtime::getCublas() {
  static Cublas cublas;
  static std::string failure = []() -> std::string {
    std::vector<std::string> names = {"libcublas.so.13", "libcublas.so.12",
                                      "libcublas.so"};
    if (const char *chosen = std::getenv("ENS_CUBLAS_LIBRARY"))
      names = {chosen};
    void *library = nullptr;
    std::string tried;
    for (const std::string &name : names) {
      library = dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL);
      if (library)
        break;
      tried += (tried.empty() ? "" : ", ") + name;
    }
    if (!library)
      return "cannot load " + tried;
    SymbolBinder binder(library);
    binder.bind(cublas.create, "cublasCreate_v2");
    binder.bind(cublas.destroy, "cublasDestroy_v2");
    binder.bind(cublas.setStream, "cublasSetStream_v2");
    binder.bind(cublas.setWorkspace, "cublasSetWorkspace_v2");
    binder.bind(cublas.getStatusName, "cublasGetStatusName");
    binder.bind(cublas.sgemmStridedBatched, "cublasSgemmStridedBatched");
    if (!binder.isComplete())
      return "the library lacks a cuBLAS entry point ens needs "
             "(cublasSgemmStridedBatched and the handle's)";
    return "";
  }();
  if (!failure.empty())
    return Error("the plan calls cuBLAS for a GEMM step: " + failure);
  return &cublas;
}

Error ens::runtime::loadCublas() {
  Expected<const Cublas *> cublas = getCublas();
  return cublas ? Error::success() : cublas.takeError();
}
