// The CPU backend keeps the shared objects of compiled functions in the
// "cpu" subdirectory of the cache directory ($ENS_CACHE_DIR here), and a
// later process loads them instead of compiling. A hit computes exactly
// what the compile did and leaves the entry alone; an entry that is not
// exactly what ens wrote for the function is compiled again and replaced,
// never loaded; other options are another entry; processes that compile at
// once leave one whole entry; an empty ENS_CACHE_DIR turns the cache off.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: env ENS_CACHE_DIR=%t/cache ens-run %ens_src_root/examples/mlp.mlir --entry=loss --random-inputs=1 --backend=cpu --cpu-threads=1 --output-dir=%t/first
// RUN: ls %t/cache/cpu | count 1
// RUN: stat -c %%i %t/cache/cpu/* > %t/inode
//
// The interpreter agrees with the compiled code, and the hit with both.
// RUN: ens-run %ens_src_root/examples/mlp.mlir --entry=loss --random-inputs=1 --backend=interp --rtol=1e-5 --atol=1e-6 --expect=%t/first/out0.npy
// RUN: env ENS_CACHE_DIR=%t/cache ens-run %ens_src_root/examples/mlp.mlir --entry=loss --random-inputs=1 --backend=cpu --cpu-threads=1 --rtol=0 --atol=0 --expect=%t/first/out0.npy
// RUN: stat -c %%i %t/cache/cpu/* | cmp - %t/inode
//
// Truncated, then one bit flipped: compiled again, the same results, the
// entry replaced.
// RUN: for f in %t/cache/cpu/*; do head -c 5000 $f > %t/head && cp %t/head $f; done
// RUN: env ENS_CACHE_DIR=%t/cache ens-run %ens_src_root/examples/mlp.mlir --entry=loss --random-inputs=1 --backend=cpu --cpu-threads=1 --rtol=0 --atol=0 --expect=%t/first/out0.npy
// RUN: not cmp -s %t/head %t/cache/cpu/$(ls %t/cache/cpu)
// RUN: python3 -c "import sys; p = sys.argv[1]; b = bytearray(open(p, 'rb').read()); b[len(b) // 2] ^= 4; open(sys.argv[2], 'wb').write(b)" %t/cache/cpu/$(ls %t/cache/cpu) %t/flipped
// RUN: cp %t/flipped %t/cache/cpu/$(ls %t/cache/cpu)
// RUN: env ENS_CACHE_DIR=%t/cache ens-run %ens_src_root/examples/mlp.mlir --entry=loss --random-inputs=1 --backend=cpu --cpu-threads=1 --rtol=0 --atol=0 --expect=%t/first/out0.npy
// RUN: not cmp -s %t/flipped %t/cache/cpu/$(ls %t/cache/cpu)
//
// A shared object planted under the entry's name is not loaded: its
// constructor would create %t/planted.
// RUN: printf '#include <stdio.h>\n__attribute__((constructor)) static void plant(void) { FILE *f = fopen("%t/planted", "w"); if (f) fclose(f); }\n' > %t/plant.c
// RUN: c++ -x c -shared -fPIC %t/plant.c -o %t/plant.so
// RUN: for f in %t/cache/cpu/*; do cp %t/plant.so $f; done
// RUN: env ENS_CACHE_DIR=%t/cache ens-run %ens_src_root/examples/mlp.mlir --entry=loss --random-inputs=1 --backend=cpu --cpu-threads=1 --rtol=0 --atol=0 --expect=%t/first/out0.npy
// RUN: test ! -e %t/planted
// RUN: ls %t/cache/cpu | count 1
//
// Other options, another entry.
// RUN: env ENS_CACHE_DIR=%t/cache ens-run %ens_src_root/examples/mlp.mlir --entry=loss --random-inputs=1 --backend=cpu --cpu-threads=3 --rtol=0 --atol=0 --expect=%t/first/out0.npy
// RUN: ls %t/cache/cpu | count 2
//
// Four processes compile one function at once: all succeed with the same
// results, and the one entry they leave is whole (the next run hits it and
// leaves it alone).
// RUN: bash -c 'for i in 1 2 3 4; do env ENS_CACHE_DIR=%t/race ens-run %ens_src_root/examples/mlp.mlir --entry=loss --random-inputs=1 --backend=cpu --cpu-threads=1 --rtol=0 --atol=0 --expect=%t/first/out0.npy > %t/race-$i.log 2>&1 & done; status=0; for job in $(jobs -p); do wait $job || status=1; done; exit $status'
// RUN: ls %t/race/cpu | count 1
// RUN: stat -c %%i %t/race/cpu/* > %t/race-inode
// RUN: env ENS_CACHE_DIR=%t/race ens-run %ens_src_root/examples/mlp.mlir --entry=loss --random-inputs=1 --backend=cpu --cpu-threads=1 --rtol=0 --atol=0 --expect=%t/first/out0.npy
// RUN: stat -c %%i %t/race/cpu/* | cmp - %t/race-inode
//
// A cache directory that is a symbolic link is refused, with one error.
// RUN: mkdir -p %t/elsewhere && ln -s %t/elsewhere %t/link
// RUN: env ENS_CACHE_DIR=%t/link not ens-run %ens_src_root/examples/mlp.mlir --entry=loss --random-inputs=1 --backend=cpu 2>&1 | FileCheck %s --check-prefix=LINK
// LINK: ens-run: error: {{.*}}/link is a symbolic link; ens's cache directory must be a directory of the user's own
//
// Without ENS_CACHE_DIR, the cache is $XDG_CACHE_HOME/ens, else
// ~/.cache/ens; an empty ENS_CACHE_DIR turns it off, with the JIT's same
// results.
// RUN: env -u ENS_CACHE_DIR XDG_CACHE_HOME=%t/xdg ens-run %ens_src_root/examples/mlp.mlir --entry=loss --random-inputs=1 --backend=cpu --cpu-threads=1 --rtol=0 --atol=0 --expect=%t/first/out0.npy
// RUN: ls %t/xdg/ens/cpu | count 1
// RUN: env -u ENS_CACHE_DIR -u XDG_CACHE_HOME HOME=%t/home ens-run %ens_src_root/examples/mlp.mlir --entry=loss --random-inputs=1 --backend=cpu --cpu-threads=1 --rtol=0 --atol=0 --expect=%t/first/out0.npy
// RUN: ls %t/home/.cache/ens/cpu | count 1
// RUN: env ENS_CACHE_DIR= HOME=%t/off XDG_CACHE_HOME= ens-run %ens_src_root/examples/mlp.mlir --entry=loss --random-inputs=1 --backend=cpu --cpu-threads=1 --rtol=0 --atol=0 --expect=%t/first/out0.npy
// RUN: test ! -e %t/off
