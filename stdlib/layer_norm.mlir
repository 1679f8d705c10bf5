// Layer normalisation over the last dimension, as PyTorch's LayerNorm(D):
//   (x - mean) / sqrt(var + eps) * gamma + beta, with the mean and the
//   biased variance of each row of D elements.
//   !T: any float tensor [..., D], !M: it as [rows, D], !N: [rows],
//   !V: [D] (gamma and beta), !S: rank 0 (eps).
func.func @layer_norm(%x: !T, %gamma: !V, %beta: !V, %eps: !S) -> !T
    attributes {ens.stdlib.bind = "arg0"} {
  %rows = ens.reshape %x : !T -> !M
  %mean = ens.reduce_mean %rows {dims = array<i64: 1>} : !M -> !N
  %mean_m = ens.broadcast_in_dim %mean {dims = array<i64: 0>} : !N -> !M
  %centered = ens.sub %rows, %mean_m : !M
  %squared = ens.square %centered : !M
  %var = ens.reduce_mean %squared {dims = array<i64: 1>} : !M -> !N
  %eps_n = ens.broadcast_in_dim %eps {dims = array<i64>} : !S -> !N
  %var_eps = ens.add %var, %eps_n : !N
  %inv = ens.rsqrt %var_eps : !N
  %inv_m = ens.broadcast_in_dim %inv {dims = array<i64: 0>} : !N -> !M
  %normed = ens.mul %centered, %inv_m : !M
  %gamma_m = ens.broadcast_in_dim %gamma {dims = array<i64: 1>} : !V -> !M
  %beta_m = ens.broadcast_in_dim %beta {dims = array<i64: 1>} : !V -> !M
  %scaled = ens.mul %normed, %gamma_m : !M
  %shifted = ens.add %scaled, %beta_m : !M
  %y = ens.reshape %shifted : !M -> !T
  return %y : !T
}
