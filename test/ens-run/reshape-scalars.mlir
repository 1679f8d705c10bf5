// Reshapes to and from rank 0 on every backend (tensor.expand_shape and
// collapse_shape take no reassociation groups on the scalar side).
// RUN: ens-run %s --entry=main --backend=interp | FileCheck %s
// RUN: ens-run %s --entry=main --backend=cpu | FileCheck %s
// RUN: ens-run %s --entry=main --backend=cuda-emu | FileCheck %s
// CHECK: out0 = tensor<1x1xf32> {{\[\[}}2.5]]
// CHECK: out1 = tensor<f32> 2.5
// CHECK: out2 = tensor<f32> -1
// CHECK: out3 = tensor<3x2xf32> {{\[\[}}1, 2], [3, 4], [5, 6]]

func.func @main() -> (tensor<1x1xf32>, tensor<f32>, tensor<f32>, tensor<3x2xf32>) {
  %s = ens.constant dense<2.5> : tensor<f32>
  %a = ens.reshape %s : tensor<f32> -> tensor<1x1xf32>
  %b = ens.reshape %a : tensor<1x1xf32> -> tensor<f32>
  %v = ens.constant dense<[-1.0]> : tensor<1xf32>
  %c = ens.reshape %v : tensor<1xf32> -> tensor<f32>
  %m = ens.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %d = ens.reshape %m : tensor<2x3xf32> -> tensor<3x2xf32>
  return %a, %b, %c, %d : tensor<1x1xf32>, tensor<f32>, tensor<f32>, tensor<3x2xf32>
}
