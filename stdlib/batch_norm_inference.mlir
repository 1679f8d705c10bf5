// Batch normalisation in evaluation mode, as PyTorch's BatchNorm in
// eval(): each channel (the last dimension) normalised with the running
// statistics, then scaled and shifted:
//   (x - running_mean) / sqrt(running_var + eps) * gamma + beta.
//   !T: any float tensor [..., C], !M: it as [n, C], !V: [C],
//   !S: rank 0 (eps).
func.func @batch_norm_inference(%x: !T, %gamma: !V, %beta: !V,
                                %running_mean: !V, %running_var: !V,
                                %eps: !S) -> !T
    attributes {ens.stdlib.bind = "arg0"} {
  %eps_v = ens.broadcast_in_dim %eps {dims = array<i64>} : !S -> !V
  %var_eps = ens.add %running_var, %eps_v : !V
  %inv = ens.rsqrt %var_eps : !V
  %scale = ens.mul %inv, %gamma : !V
  %shift_mean = ens.mul %running_mean, %scale : !V
  %shift = ens.sub %beta, %shift_mean : !V
  %rows = ens.reshape %x : !T -> !M
  %scale_m = ens.broadcast_in_dim %scale {dims = array<i64: 1>} : !V -> !M
  %shift_m = ens.broadcast_in_dim %shift {dims = array<i64: 1>} : !V -> !M
  %scaled = ens.mul %rows, %scale_m : !M
  %shifted = ens.add %scaled, %shift_m : !M
  %y = ens.reshape %shifted : !M -> !T
  return %y : !T
}
