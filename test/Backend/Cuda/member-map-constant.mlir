// A linalg.generic in a loop over members that reads an operand through a
// map with a constant term (x[d0, d1 + 1], y[d0 + 1, d1 + 1]). The member
// split (ens-fuse-members) cut such an operand with upstream tiling, whose
// slice started at the map's value at the member, constant included, while
// the map on the slice added the constant again: cuda-emu read x[m, d1 + 2]
// and, for the last element, past the end of the row. @f is written at the
// linalg level (no ens lowering makes such a map; ens.conv crops with a
// slice instead); the interpreter's oracle is @want, the same reads as
// ens.slice.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: ens-run %s --entry=want --random-inputs=1 --output-dir=%t
// RUN: ens-run %s --entry=f --random-inputs=1 --backend=cuda-emu --cuda-strategy=member-per-block --expect=%t/out0.npy --expect=%t/out1.npy
// RUN: ens-run %s --entry=f --random-inputs=1 --backend=cuda-emu --cuda-strategy=tiled --expect=%t/out0.npy --expect=%t/out1.npy
// @right alone: the wrong element, not a failure to compile, before the fix.
// RUN: ens-run %s --entry=want_right --random-inputs=1 --output-dir=%t/right
// RUN: ens-run %s --entry=right --random-inputs=1 --backend=cuda-emu --cuda-strategy=member-per-block --expect=%t/right/out0.npy
// RUN: ens-run %s --entry=right --random-inputs=1 --backend=cuda-emu --cuda-strategy=tiled --expect=%t/right/out0.npy
// The reads are in the one loop over the four members.
// RUN: ens-run %s --entry=f --random-inputs=1 --backend=cuda-emu --cuda-strategy=member-per-block --cuda-plan | FileCheck %s
// CHECK:     kernel k0_members: member-per-block, 4 members
// CHECK-NOT: kernel

#id = affine_map<(d0, d1) -> (d0, d1)>
#right = affine_map<(d0, d1) -> (d0, d1 + 1)>
#down_right = affine_map<(d0, d1) -> (d0 + 1, d1 + 1)>
func.func @f(%x: tensor<4x9xf32>, %y: tensor<5x9xf32>)
    -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %e = tensor.empty() : tensor<4x8xf32>
  %right = linalg.generic {indexing_maps = [#right, #id],
                           iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x9xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %b: f32):
    linalg.yield %a : f32
  } -> tensor<4x8xf32>
  %t = ens.tanh %right : tensor<4x8xf32>
  %down = linalg.generic {indexing_maps = [#id, #down_right, #id],
                          iterator_types = ["parallel", "parallel"]}
      ins(%t, %y : tensor<4x8xf32>, tensor<5x9xf32>)
      outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %s = arith.addf %b, %a : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  return %t, %down : tensor<4x8xf32>, tensor<4x8xf32>
}

func.func @want(%x: tensor<4x9xf32>, %y: tensor<5x9xf32>)
    -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %right = ens.slice %x {start = array<i64: 0, 1>, limit = array<i64: 4, 9>,
                         stride = array<i64: 1, 1>}
      : tensor<4x9xf32> -> tensor<4x8xf32>
  %t = ens.tanh %right : tensor<4x8xf32>
  %down = ens.slice %y {start = array<i64: 1, 1>, limit = array<i64: 5, 9>,
                        stride = array<i64: 1, 1>}
      : tensor<5x9xf32> -> tensor<4x8xf32>
  %s = ens.add %down, %t : tensor<4x8xf32>
  return %t, %s : tensor<4x8xf32>, tensor<4x8xf32>
}

func.func @right(%x: tensor<4x9xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %right = linalg.generic {indexing_maps = [#right, #id],
                           iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x9xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %b: f32):
    %t = math.tanh %a : f32
    linalg.yield %t : f32
  } -> tensor<4x8xf32>
  return %right : tensor<4x8xf32>
}

func.func @want_right(%x: tensor<4x9xf32>) -> tensor<4x8xf32> {
  %right = ens.slice %x {start = array<i64: 0, 1>, limit = array<i64: 4, 9>,
                         stride = array<i64: 1, 1>}
      : tensor<4x9xf32> -> tensor<4x8xf32>
  %t = ens.tanh %right : tensor<4x8xf32>
  return %t : tensor<4x8xf32>
}
