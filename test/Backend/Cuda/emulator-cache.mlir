// cuda-emu keeps the shared objects it builds in the "emu" subdirectory of
// the cache directory ($ENS_CACHE_DIR here). An entry that is not exactly
// what ens wrote for the program is rebuilt and replaced, never loaded;
// builds leave no directory behind, also when they fail; a failed write is
// one error; a cache directory that is a symbolic link is refused.
//
// RUN: rm -rf %t && mkdir -p %t/tmp
// RUN: env TMPDIR=%t/tmp ENS_CACHE_DIR=%t/cache ens-run %ens_src_root/examples/mlp.mlir --entry=loss --random-inputs=1 --backend=cuda-emu --output-dir=%t/first
// RUN: ls %t/cache/emu | count 1
// RUN: ls %t/tmp | count 0
//
// An object truncated to 5000 bytes made every later run die of SIGBUS in
// dlopen.
// RUN: for f in %t/cache/emu/*; do head -c 5000 $f > %t/head && cp %t/head $f; done
// RUN: env TMPDIR=%t/tmp ENS_CACHE_DIR=%t/cache ens-run %ens_src_root/examples/mlp.mlir --entry=loss --random-inputs=1 --backend=cuda-emu --rtol=0 --atol=0 --expect=%t/first/out0.npy
// RUN: ls %t/cache/emu | count 1
// RUN: not cmp -s %t/head %t/cache/emu/$(ls %t/cache/emu)
//
// A shared object planted under the entry's name is not loaded: its
// constructor would create %t/planted.
// RUN: printf '#include <stdio.h>\n__attribute__((constructor)) static void plant(void) { FILE *f = fopen("%t/planted", "w"); if (f) fclose(f); }\n' > %t/plant.c
// RUN: c++ -x c -shared -fPIC %t/plant.c -o %t/plant.so
// RUN: for f in %t/cache/emu/*; do cp %t/plant.so $f; done
// RUN: env TMPDIR=%t/tmp ENS_CACHE_DIR=%t/cache ens-run %ens_src_root/examples/mlp.mlir --entry=loss --random-inputs=1 --backend=cuda-emu --rtol=0 --atol=0 --expect=%t/first/out0.npy
// RUN: test ! -e %t/planted
// RUN: not cmp -s %t/plant.so %t/cache/emu/$(ls %t/cache/emu)
//
// A failed build says why and leaves no build directory.
// RUN: printf '#!/bin/sh\necho "shim.cpp: broken" >&2\nexit 1\n' > %t/broken-cxx && chmod +x %t/broken-cxx
// RUN: env TMPDIR=%t/tmp ENS_CACHE_DIR=%t/cache ENS_HOST_CXX=%t/broken-cxx not ens-run %ens_src_root/examples/mlp.mlir --entry=loss --random-inputs=1 --backend=cuda-emu 2>&1 | FileCheck %s --check-prefix=BROKEN
// BROKEN: ens-run: error: the host compiler cannot build the emulated kernels:
// BROKEN-NEXT: shim.cpp: broken
// RUN: ls %t/tmp | count 0
// RUN: ls %t/cache/emu | count 1
//
// A write that fails (here: past the file-size limit, as on a full disk)
// is an error that names the file, not a truncated source or an abort.
// RUN: not bash -c "trap '' XFSZ; ulimit -f 1; exec env TMPDIR=%t/tmp ENS_CACHE_DIR=%t/full ens-run %ens_src_root/examples/mlp.mlir --entry=loss --random-inputs=1 --backend=cuda-emu" 2>&1 | FileCheck %s --check-prefix=FULL
// FULL: ens-run: error: cannot write {{.*}}/ens_cuda_emu.h: File too large
// RUN: ls %t/tmp | count 0
//
// A cache directory that is a link is refused, not followed.
// RUN: ln -s %t/cache %t/link
// RUN: env TMPDIR=%t/tmp ENS_CACHE_DIR=%t/link not ens-run %ens_src_root/examples/mlp.mlir --entry=loss --random-inputs=1 --backend=cuda-emu 2>&1 | FileCheck %s --check-prefix=LINK
// LINK: ens-run: error: {{.*}}/link is a symbolic link; ens's cache directory must be a directory of the user's own
