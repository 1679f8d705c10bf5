/*===- FakeCuda.c - A libcuda.so.1 that finds no device -------------------===*
 *
 * Stands in for the CUDA driver on machines without a GPU, so that tests
 * reach the paths after dlopen: cuInit answers $FAKE_CUDA_INIT (default 0,
 * success), and the driver counts $FAKE_CUDA_DEVICES devices (default
 * none). cuDeviceGet prints the device asked for to stderr and, after
 * $FAKE_CUDA_DELAY seconds (default none; so that every process of an
 * mpirun prints before the first failure ends them all), fails: the tests
 * of device choice read it. Built with every entry point ens
 * uses, or (FAKE_CUDA_INCOMPLETE) with cuInit alone.
 *
 *===----------------------------------------------------------------------===*/

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define UNREACHABLE 999

int cuInit(unsigned flags) {
  const char *result = getenv("FAKE_CUDA_INIT");
  (void)flags;
  return result ? atoi(result) : 0;
}

#ifndef FAKE_CUDA_INCOMPLETE
int cuDeviceGetCount(int *count) {
  const char *devices = getenv("FAKE_CUDA_DEVICES");
  *count = devices ? atoi(devices) : 0;
  return 0;
}

int cuDeviceGet(int *device, int ordinal) {
  const char *delay = getenv("FAKE_CUDA_DELAY");
  fprintf(stderr, "fake cuda: cuDeviceGet(%d)\n", ordinal);
  fflush(stderr);
  if (delay)
    sleep((unsigned)atoi(delay));
  *device = ordinal;
  return UNREACHABLE;
}

int cuGetErrorName(int error, const char **name) {
  (void)error;
  *name = "CUDA_ERROR_FAKE";
  return 0;
}

#define STUB(name)                                                             \
  int name(void) { return UNREACHABLE; }
STUB(cuDeviceGetAttribute)
STUB(cuDevicePrimaryCtxRetain)
STUB(cuDevicePrimaryCtxRelease_v2)
STUB(cuCtxSetCurrent)
STUB(cuModuleLoadData)
STUB(cuModuleUnload)
STUB(cuModuleGetFunction)
STUB(cuFuncGetAttribute)
STUB(cuFuncSetAttribute)
STUB(cuMemAlloc_v2)
STUB(cuMemFree_v2)
STUB(cuMemcpyHtoDAsync_v2)
STUB(cuMemcpyDtoHAsync_v2)
STUB(cuMemcpyDtoDAsync_v2)
STUB(cuStreamCreate)
STUB(cuStreamDestroy_v2)
STUB(cuStreamSynchronize)
STUB(cuLaunchKernel)
STUB(cuStreamBeginCapture_v2)
STUB(cuStreamEndCapture)
STUB(cuGraphInstantiateWithFlags)
STUB(cuGraphLaunch)
STUB(cuGraphExecDestroy)
STUB(cuGraphDestroy)
STUB(cuEventCreate)
STUB(cuEventDestroy_v2)
STUB(cuEventRecord)
STUB(cuEventSynchronize)
STUB(cuEventElapsedTime)
#endif
