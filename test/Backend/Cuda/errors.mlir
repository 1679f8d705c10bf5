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

// The emulator bounds its work: a vmap over 4,000,000 members would run for
// minutes thread by thread; it is refused at once.
// RUN: not ens-run %s --entry=many_members --random-inputs=1 --backend=cuda-emu 2>&1 | FileCheck %s --check-prefix=WORK
// WORK: ens-run: error: cuda-emu runs at most 67108864 threads a call; this plan launches {{[0-9]+}} (cuda-emu is for checking programs: run large ones with --backend=cpu or cuda)
func.func @twice(%a: tensor<2xf32>) -> tensor<2xf32> {
  %b = ens.add %a, %a : tensor<2xf32>
  return %b : tensor<2xf32>
}

func.func @many_members(%a: tensor<4000000x2xf32>) -> tensor<4000000x2xf32> {
  %r = ens.vmap @twice(%a) {in_axes = array<i64: 0>, out_axes = array<i64: 0>, size = 4000000 : i64} : (tensor<4000000x2xf32>) -> tensor<4000000x2xf32>
  return %r : tensor<4000000x2xf32>
}
