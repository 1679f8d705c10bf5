// RUN: ens-opt %s --convert-ens-to-linalg -verify-diagnostics

// A `?` size reaches no target: the lowering names the first op that has
// one and says to specialize (docs/shapes.md), instead of building an
// invalid tensor.empty.
func.func @unspecialized(%x: tensor<?x4xf32>, %w: tensor<4x3xf32>) -> tensor<?x3xf32> {
  // expected-error @+1 {{'ens.matmul' op has the type 'tensor<?x4xf32>', with a `?` size, which no target lowers; specialize the program first (ens-specialize)}}
  %y = ens.matmul %x, %w : tensor<?x4xf32>, tensor<4x3xf32> -> tensor<?x3xf32>
  return %y : tensor<?x3xf32>
}
