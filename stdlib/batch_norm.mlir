// Batch normalisation in training mode over a channels-last tensor, as
// PyTorch's BatchNorm in train(): each channel (the last dimension) is
// normalised with the mean and biased variance of all other positions,
// then scaled and shifted. The running statistics are explicit state, in
// and out, never a hidden mutation, so a vmap gives each member its own:
//   running_mean' = (1 - momentum) * running_mean + momentum * mean
//   running_var'  = (1 - momentum) * running_var
//                   + momentum * var * n / (n - 1)   (unbiased, n rows)
// For NCHW, transpose the channels last first.
//   !T: any float tensor [..., C], !M: it as [n, C], !N: [n], !V: [C],
//   !S: rank 0 (momentum, eps).
func.func @batch_norm(%x: !T, %gamma: !V, %beta: !V, %running_mean: !V,
                      %running_var: !V, %momentum: !S, %eps: !S)
    -> (!T, !V, !V) attributes {ens.stdlib.bind = "arg0"} {
  %rows = ens.reshape %x : !T -> !M
  %mean = ens.reduce_mean %rows {dims = array<i64: 0>} : !M -> !V
  %mean_m = ens.broadcast_in_dim %mean {dims = array<i64: 1>} : !V -> !M
  %centered = ens.sub %rows, %mean_m : !M
  %squared = ens.square %centered : !M
  %var = ens.reduce_mean %squared {dims = array<i64: 0>} : !M -> !V
  %eps_v = ens.broadcast_in_dim %eps {dims = array<i64>} : !S -> !V
  %var_eps = ens.add %var, %eps_v : !V
  %inv = ens.rsqrt %var_eps : !V
  %inv_m = ens.broadcast_in_dim %inv {dims = array<i64: 1>} : !V -> !M
  %normed = ens.mul %centered, %inv_m : !M
  %gamma_m = ens.broadcast_in_dim %gamma {dims = array<i64: 1>} : !V -> !M
  %beta_m = ens.broadcast_in_dim %beta {dims = array<i64: 1>} : !V -> !M
  %scaled = ens.mul %normed, %gamma_m : !M
  %shifted = ens.add %scaled, %beta_m : !M
  %y = ens.reshape %shifted : !M -> !T

  // n / (n - 1), with n counted from the rows so that one text serves
  // every shape.
  %ones = ens.constant dense<1.0> : !N
  %n = ens.reduce_sum %ones {dims = array<i64: 0>} : !N -> !S
  %one = ens.constant dense<1.0> : !S
  %n_minus_one = ens.sub %n, %one : !S
  %unbias = ens.div %n, %n_minus_one : !S
  %keep = ens.sub %one, %momentum : !S
  %keep_v = ens.broadcast_in_dim %keep {dims = array<i64>} : !S -> !V
  %momentum_v = ens.broadcast_in_dim %momentum {dims = array<i64>} : !S -> !V
  %unbias_v = ens.broadcast_in_dim %unbias {dims = array<i64>} : !S -> !V
  %old_mean = ens.mul %running_mean, %keep_v : !V
  %new_mean = ens.mul %mean, %momentum_v : !V
  %mean_out = ens.add %old_mean, %new_mean : !V
  %unbiased = ens.mul %var, %unbias_v : !V
  %old_var = ens.mul %running_var, %keep_v : !V
  %new_var = ens.mul %unbiased, %momentum_v : !V
  %var_out = ens.add %old_var, %new_var : !V
  return %y, %mean_out, %var_out : !T, !V, !V
}
