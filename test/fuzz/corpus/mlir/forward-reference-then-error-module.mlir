#layout = affine_map<(d0) -> (d0)>
module attributes {ens.note = "func.func in a string"} {
  // func.func in a comment
  func.func @f(%x: tensor<4xf32>)
      -> tensor<4xf32> {
    %0 = ens.neg %x : tensor<4xf32>
    return %b : tensor<4xf32>
  }
  func.func @g(%x: tensor<4xf32>) -> tensor<4xf32> {
    %c = ens.neg %x : tensor<4xf32>
    return %c : tensor<4xf32>
  }
  func.func @h() {
    %b = ens.neg %y : tensor<4xf32>
