//===- Cublas.h - cuBLAS, loaded at run time --------------------*- C++ -*-===//
//
// Private to the runtime: the few cuBLAS entry points a launch plan's
// vendor GEMM steps call, loaded with dlopen like the driver, so that
// nothing of ens links against CUDA.
//
//===----------------------------------------------------------------------===//

#ifndef ENS_LIB_RUNTIME_CUBLAS_H
#define ENS_LIB_RUNTIME_CUBLAS_H

#include "ens/Runtime/Error.h"
#include "ens/Runtime/Plan.h"

#include <string>

namespace ens::runtime {

/// The entry points of cuBLAS (cublas_api.h, CUDA 12/13) that ens uses.
struct Cublas {
  using Handle = struct cublasContext *;
  using Status = int;
  Status (*create)(Handle *);
  Status (*destroy)(Handle);
  Status (*setStream)(Handle, void *);
  Status (*setWorkspace)(Handle, void *, size_t);
  const char *(*getStatusName)(Status);
  Status (*sgemmStridedBatched)(Handle, int, int, int, int, int, const float *,
                                const float *, int, long long, const float *,
                                int, long long, const float *, float *, int,
                                long long, int);

  /// An error for `status` of `call`, or success.
  Error check(Status status, const std::string &call) const;

  /// Runs `gemm` on `stream` through `handle`, with `a`, `b` and `c` the
  /// device addresses of its buffers.
  Error gemm(Handle handle, void *stream, const GemmStep &step,
             unsigned long long a, unsigned long long b,
             unsigned long long c) const;
};

/// cuBLAS, loaded once per process (see loadCublas in Runner.h).
Expected<const Cublas *> getCublas();

} // namespace ens::runtime

#endif // ENS_LIB_RUNTIME_CUBLAS_H
