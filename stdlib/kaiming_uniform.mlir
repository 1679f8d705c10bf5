// Kaiming/He uniform initialisation for ReLU layers: U(-b, b) with
//   b = sqrt(6 / fan_in)   (gain sqrt(2), as PyTorch's kaiming_uniform_).
func.func @kaiming_uniform(%key: tensor<2xi32>, %fan_in: !S) -> !T
    attributes {ens.stdlib.bind = "result0"} {
  %six = ens.constant dense<6.0> : !S
  %ratio = ens.div %six, %fan_in : !S
  %bound = ens.sqrt %ratio : !S
  %bound_t = ens.broadcast_in_dim %bound {dims = array<i64>} : !S -> !T
  %u = ens.random_uniform %key : tensor<2xi32> -> !T
  %two = ens.constant dense<2.0> : !T
  %one = ens.constant dense<1.0> : !T
  %scaled = ens.mul %u, %two : !T
  %centered = ens.sub %scaled, %one : !T
  %w = ens.mul %centered, %bound_t : !T
  return %w : !T
}
