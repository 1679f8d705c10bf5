// Without a GPU driver, --backend=cuda fails cleanly.
//
// RUN: not ens-run %ens_src_root/examples/mlp.mlir --entry=loss --random-inputs=1 --backend=cuda 2>&1 | FileCheck %s
// CHECK: no CUDA device: cannot load libcuda.so.1
