// A plan with a vendor GEMM step needs cuBLAS on a GPU: the runtime loads
// it (dlopen, never linked) only for such a plan, before it sets up the
// device, and without it fails with one clear message. The stand-in driver
// (%fake_cuda) with one device gets ens past loading the driver; the
// device itself then fails (cuDeviceGet), which a plan without steps
// reaches.
//
// $ENS_CUBLAS_LIBRARY names a library that does not exist:
// RUN: env LD_LIBRARY_PATH=%fake_cuda/no-device FAKE_CUDA_DEVICES=1 ENS_CUBLAS_LIBRARY=libcublas-missing.so.13 not ens-run %S/config_vendor_gemm.mlir --entry=matmul --random-inputs=1 --backend=cuda --cuda-strategy=tiled --cuda-gemm=cublas 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: ens-run: error: the plan calls cuBLAS for a GEMM step: cannot load libcublas-missing.so.13
// MISSING-NOT: error
//
// ... or one without cuBLAS's entry points (the stand-in driver itself):
// RUN: env LD_LIBRARY_PATH=%fake_cuda/no-device FAKE_CUDA_DEVICES=1 ENS_CUBLAS_LIBRARY=%fake_cuda/no-device/libcuda.so.1 not ens-run %S/config_vendor_gemm.mlir --entry=matmul --random-inputs=1 --backend=cuda --cuda-strategy=tiled --cuda-gemm=cublas 2>&1 | FileCheck %s --check-prefix=INCOMPLETE
// INCOMPLETE: ens-run: error: the plan calls cuBLAS for a GEMM step: the library lacks a cuBLAS entry point ens needs (cublasSgemmStridedBatched and the handle's)
//
// A plan without steps never loads cuBLAS: the error is the device's.
// RUN: env LD_LIBRARY_PATH=%fake_cuda/no-device FAKE_CUDA_DEVICES=1 ENS_CUBLAS_LIBRARY=libcublas-missing.so.13 not ens-run %S/config_vendor_gemm.mlir --entry=matmul --random-inputs=1 --backend=cuda --cuda-strategy=tiled --cuda-gemm=generated 2>&1 | FileCheck %s --check-prefix=UNUSED
// UNUSED: ens-run: error: cuDeviceGet failed: CUDA_ERROR_FAKE
// UNUSED-NOT: cuBLAS
//
// An unknown --cuda-gemm is an error of its own, before anything runs.
// RUN: not ens-run %S/config_vendor_gemm.mlir --entry=matmul --random-inputs=1 --backend=cuda-emu --cuda-gemm=cuBLAS 2>&1 | FileCheck %s --check-prefix=NAME
// NAME: ens-run: error: unknown CUDA GEMM choice 'cuBLAS' for --cuda-gemm (known: auto, generated, cublas)
