// --cuda-strategy takes only the names of strategies; any other name is
// refused before the program is read, with one message and exit status 1,
// whether or not a CUDA backend would run.
//
// RUN: not ens-run %s --cuda-plan --cuda-strategy=member-per-warp 2>&1 | FileCheck %s
// RUN: not ens-run %s --backend=cuda-emu --random-inputs=1 --cuda-strategy=member-per-warp 2>&1 | FileCheck %s
// RUN: not ens-run %s --random-inputs=1 --cuda-strategy= 2>&1 | FileCheck %s --check-prefix=EMPTY
// CHECK: ens-run: error: unknown CUDA strategy 'member-per-warp' for --cuda-strategy (known: member-per-block)
// EMPTY: ens-run: error: unknown CUDA strategy '' for --cuda-strategy (known: member-per-block)

func.func @double(%a: tensor<4xf32>) -> tensor<4xf32> {
  %b = ens.add %a, %a : tensor<4xf32>
  return %b : tensor<4xf32>
}
