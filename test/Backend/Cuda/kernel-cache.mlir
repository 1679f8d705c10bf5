// ens-run keeps NVRTC's CUBIN for sm_80 and sm_90 in the kernel cache
// ($ENS_CACHE_DIR here); corrupted or truncated entries, FIFOs and links are
// rebuilt.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: env ENS_CACHE_DIR=%t/cache ens-run %ens_src_root/examples/mlp.mlir --entry=loss --random-inputs=1 --backend=cuda-emu --output-dir=%t/first
// RUN: ls %t/cache/nvrtc | count 2
// RUN: for f in %t/cache/nvrtc/*.cubin; do head -c 100 $f > %t/head && cp %t/head $f; done
// RUN: env ENS_CACHE_DIR=%t/cache ens-run %ens_src_root/examples/mlp.mlir --entry=loss --random-inputs=1 --backend=cuda-emu --rtol=0 --atol=0 --expect=%t/first/out0.npy
// RUN: ls %t/cache/nvrtc | count 2
// RUN: not cmp -s %t/head %t/cache/nvrtc/$(ls %t/cache/nvrtc | head -1)
//
// An unusable cache directory costs only the cache.
// RUN: echo file > %t/not-a-directory
// RUN: env ENS_CACHE_DIR=%t/not-a-directory/cache ens-run %ens_src_root/examples/mlp.mlir --entry=loss --random-inputs=1 --backend=cuda-emu --rtol=0 --atol=0 --expect=%t/first/out0.npy

// REQUIRES: nvrtc
//
// A FIFO in place of an entry made every run hang, and a link to /dev/zero
// made it read until memory ran out: both are now misses, and the rebuilt
// entries replace them.
// RUN: for f in %t/cache/nvrtc/*.cubin; do rm $f && mkfifo $f; done
// RUN: env ENS_CACHE_DIR=%t/cache ens-run %ens_src_root/examples/mlp.mlir --entry=loss --random-inputs=1 --backend=cuda-emu --rtol=0 --atol=0 --expect=%t/first/out0.npy
// RUN: for f in %t/cache/nvrtc/*.cubin; do test -f $f && test ! -L $f && rm $f && ln -s /dev/zero $f; done
// RUN: env ENS_CACHE_DIR=%t/cache ens-run %ens_src_root/examples/mlp.mlir --entry=loss --random-inputs=1 --backend=cuda-emu --rtol=0 --atol=0 --expect=%t/first/out0.npy
// RUN: for f in %t/cache/nvrtc/*.cubin; do test -f $f && test ! -L $f; done
