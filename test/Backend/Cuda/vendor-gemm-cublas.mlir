// REQUIRES: cublas
//
// Where cuBLAS is installed (the CUDA toolkit's libcublas.so.13 here), the
// runtime finds it under its default names, with every entry point it
// binds: a plan with a vendor GEMM step gets past loading cuBLAS to the
// device, which the stand-in driver (%fake_cuda, one device) then fails.
// vendor-gemm-errors.mlir checks the failures before that point.
//
// RUN: env -u ENS_CUBLAS_LIBRARY LD_LIBRARY_PATH=%fake_cuda/no-device FAKE_CUDA_DEVICES=1 not ens-run %S/config_vendor_gemm.mlir --entry=matmul --random-inputs=1 --backend=cuda --cuda-strategy=tiled --cuda-gemm=cublas 2>&1 | FileCheck %s
// CHECK: ens-run: error: cuDeviceGet failed: CUDA_ERROR_FAKE
// CHECK-NOT: cuBLAS
