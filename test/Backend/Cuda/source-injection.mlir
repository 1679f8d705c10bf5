// Input text never becomes code: a location that tries to end the comment
// it is written into, and to run a command when the emulator loads the
// kernels, stays an escaped comment. Without the escaping, NVRTC skips the
// injected lines (__CUDACC_RTC__), the emulator's host compiler builds the
// initialiser, and dlopen runs it.
//
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: ens-run %s --random-inputs=1 --backend=cuda-emu --print | FileCheck %s --check-prefix=RESULT
// RESULT: tensor<4xf32>
// RUN: not ls %t/PWNED
// RUN: ens-run %s --random-inputs=1 --backend=cuda-emu --cuda-dump=%t/dump
// RUN: FileCheck %s --check-prefix=SOURCE < %t/dump/main.cu
// SOURCE-NOT: {{^}}{{ *}}static int pwn
// SOURCE: // ens.add, ens.x\x0a#ifndef PWN_ONCE\x0a#define PWN_ONCE\x0a#ifndef __CUDACC_RTC__\x0aextern \x22C\x22 int system(const char\x2a);\x0astatic int pwn = system(\x22touch PWNED\x22);\x0a#endif\x0a#endif\x0a\x2f\x2f{{$}}
// SOURCE-NOT: {{^}}{{ *}}static int pwn
//
// The same source compiles with NVRTC, where the injection would have been
// device code.
// RUN: %if nvrtc %{ ens-run --cuda-nvrtc-compile=%t/dump/main.cu %s 2>&1 | FileCheck %s --check-prefix=NVRTC %}
// NVRTC: Compiling entry function 'k0_members' for 'sm_90'
// NVRTC-NOT: error

func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {
  %b = ens.add %a, %a : tensor<4xf32> loc("ens.x\n#ifndef PWN_ONCE\n#define PWN_ONCE\n#ifndef __CUDACC_RTC__\nextern \"C\" int system(const char*);\nstatic int pwn = system(\"touch PWNED\");\n#endif\n#endif\n//")
  return %b : tensor<4xf32>
}
