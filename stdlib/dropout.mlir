// Inverted dropout, as PyTorch's Dropout in train(): each element is kept
// with probability 1 - rate and scaled by 1 / (1 - rate), else zeroed. The
// mask is drawn from `key` with the counter-based generator, so under
// ens.vmap with randomness "different" (the default) every member draws
// its own mask from a shared key, and with "same" all share one.
//   !T: any float tensor, !B: its mask, !S: rank 0 (rate, in [0, 1)).
func.func @dropout(%key: tensor<2xi32>, %x: !T, %rate: !S) -> !T
    attributes {ens.stdlib.bind = "arg1"} {
  %u = ens.random_uniform %key : tensor<2xi32> -> !T
  %rate_t = ens.broadcast_in_dim %rate {dims = array<i64>} : !S -> !T
  %keep = ens.cmp ge, %u, %rate_t : !T
  %one = ens.constant dense<1.0> : !S
  %kept = ens.sub %one, %rate : !S
  %scale = ens.div %one, %kept : !S
  %scale_t = ens.broadcast_in_dim %scale {dims = array<i64>} : !S -> !T
  %scaled = ens.mul %x, %scale_t : !T
  %zero = ens.constant dense<0.0> : !T
  %y = ens.select %keep, %scaled, %zero : !B, !T
  return %y : !T
}
