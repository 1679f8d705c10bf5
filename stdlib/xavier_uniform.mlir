// Xavier/Glorot uniform initialisation: U(-b, b) with
//   b = sqrt(6 / (fan_in + fan_out)).
// The fans are arguments, since which dimensions are fans depends on how a
// model uses the tensor. Under ens.vmap with randomness "different", each
// member draws its own values from the one key.
func.func @xavier_uniform(%key: tensor<2xi32>, %fan_in: !S, %fan_out: !S)
    -> !T attributes {ens.stdlib.bind = "result0"} {
  %fans = ens.add %fan_in, %fan_out : !S
  %six = ens.constant dense<6.0> : !S
  %ratio = ens.div %six, %fans : !S
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
