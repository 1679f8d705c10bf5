// --cuda-strategy takes only "auto" and the names of strategies; any other name is
// refused before the program is read, with one message and exit status 1,
// whether or not a CUDA backend would run.
//
// RUN: not ens-run %s --cuda-plan --cuda-strategy=member-per-warp 2>&1 | FileCheck %s
// RUN: not ens-run %s --backend=cuda-emu --random-inputs=1 --cuda-strategy=member-per-warp 2>&1 | FileCheck %s
// "auto", the default, and an empty name are the model's pick.
// RUN: ens-run %s --random-inputs=1 --backend=cuda-emu --cuda-strategy=auto | FileCheck %s --check-prefix=AUTO
// RUN: ens-run %s --random-inputs=1 --backend=cuda-emu --cuda-strategy= | FileCheck %s --check-prefix=AUTO
// AUTO: out0 = tensor<4xf32>
// CHECK: ens-run: error: unknown CUDA strategy 'member-per-warp' for --cuda-strategy (known: auto, member-per-block, tiled, members-per-block)

func.func @double(%a: tensor<4xf32>) -> tensor<4xf32> {
  %b = ens.add %a, %a : tensor<4xf32>
  return %b : tensor<4xf32>
}
