// Without a GPU driver, or with a driver that finds no device, or with one
// that lacks what ens needs, --backend=cuda fails with one clear message.
//
// RUN: not ens-run %ens_src_root/examples/mlp.mlir --entry=loss --random-inputs=1 --backend=cuda 2>&1 | FileCheck %s --check-prefix=NO-DRIVER
// RUN: not ens-run %ens_src_root/examples/mlp.mlir --entry=loss --random-inputs=1 --backend=cuda --cuda-graph 2>&1 | FileCheck %s --check-prefix=NO-DRIVER
// NO-DRIVER: ens-run: error: no CUDA device: cannot load libcuda.so.1
// NO-DRIVER-NOT: error
//
// RUN: env LD_LIBRARY_PATH=%fake_cuda/no-device not ens-run %ens_src_root/examples/mlp.mlir --entry=loss --random-inputs=1 --backend=cuda 2>&1 | FileCheck %s --check-prefix=NO-DEVICE
// RUN: env LD_LIBRARY_PATH=%fake_cuda/no-device FAKE_CUDA_INIT=100 not ens-run %ens_src_root/examples/mlp.mlir --entry=loss --random-inputs=1 --backend=cuda 2>&1 | FileCheck %s --check-prefix=NO-DEVICE
// NO-DEVICE: ens-run: error: no CUDA device: the driver finds no device
//
// RUN: env LD_LIBRARY_PATH=%fake_cuda/incomplete not ens-run %ens_src_root/examples/mlp.mlir --entry=loss --random-inputs=1 --backend=cuda 2>&1 | FileCheck %s --check-prefix=INCOMPLETE
// INCOMPLETE: ens-run: error: no CUDA device: libcuda.so.1 lacks a Driver API entry point ens needs
