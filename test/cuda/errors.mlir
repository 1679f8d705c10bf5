// What the CUDA paths of ens-run refuse, each with one message.
//
// RUN: rm -rf %t && mkdir -p %t/tmp
// RUN: not ens-run %s --entry=half --kernel-report=table 2>&1 | FileCheck %s --check-prefix=HALF
// HALF: ens-run: error: the CUDA backend does not support buffers of f16 yet
// RUN: not ens-run %s --entry=double --kernel-report=bogus 2>&1 | FileCheck %s --check-prefix=FLAG
// FLAG: for the --kernel-report option: Cannot find option named 'bogus'!
// RUN: env ENS_HOST_CXX=no-such-compiler not ens-run %s --entry=double --random-inputs=1 --backend=cuda-emu 2>&1 | FileCheck %s --check-prefix=CXX
// CXX: ens-run: error: cuda-emu needs a host C++ compiler: cannot find 'no-such-compiler' (set ENS_HOST_CXX)
// The caches are used only if their directory is the user's own and no
// one else can write it.
// RUN: mkdir -p %t/cache && chmod 777 %t/cache
// RUN: env ENS_CACHE_DIR=%t/cache not ens-run %s --entry=double --random-inputs=1 --backend=cuda-emu 2>&1 | FileCheck %s --check-prefix=CACHE
// CACHE: ens-run: error: {{.*}}/cache belongs to another user or others can write it
// The kernel report of a program the backend compiles.
// RUN: ens-run %s --entry=double --kernel-report=table | FileCheck %s --check-prefix=REPORT
// REPORT: 1 kernels, 4 FLOPs, 32 bytes of global memory traffic (minimum 32: 1.00x)

func.func @half(%a: tensor<4xf16>) -> tensor<4xf16> {
  %b = ens.add %a, %a : tensor<4xf16>
  return %b : tensor<4xf16>
}

func.func @double(%a: tensor<4xf32>) -> tensor<4xf32> {
  %b = ens.add %a, %a : tensor<4xf32>
  return %b : tensor<4xf32>
}
