// One step of Adam with bias correction and decoupled weight decay (AdamW):
//   m' = beta1 m + (1 - beta1) g        v' = beta2 v + (1 - beta2) g^2
//   m^ = m' / (1 - beta1^step)          v^ = v' / (1 - beta2^step)
//   param' = param - lr (m^ / (sqrt(v^) + eps) + weight_decay param)
// `step` counts from 1. Hyperparameters are rank-0 arguments, so under
// ens.vmap each member can have its own. Returns (param', m', v').
func.func @adam(%param: !T, %grad: !T, %m: !T, %v: !T, %step: !S, %lr: !S,
                %beta1: !S, %beta2: !S, %eps: !S, %weight_decay: !S)
    -> (!T, !T, !T) attributes {ens.stdlib.bind = "arg0"} {
  %one = ens.constant dense<1.0> : !S
  %one_minus_beta1 = ens.sub %one, %beta1 : !S
  %one_minus_beta2 = ens.sub %one, %beta2 : !S
  %beta1_t = ens.broadcast_in_dim %beta1 {dims = array<i64>} : !S -> !T
  %beta2_t = ens.broadcast_in_dim %beta2 {dims = array<i64>} : !S -> !T
  %omb1_t = ens.broadcast_in_dim %one_minus_beta1 {dims = array<i64>} : !S -> !T
  %omb2_t = ens.broadcast_in_dim %one_minus_beta2 {dims = array<i64>} : !S -> !T
  %m_kept = ens.mul %beta1_t, %m : !T
  %m_new_part = ens.mul %omb1_t, %grad : !T
  %new_m = ens.add %m_kept, %m_new_part : !T
  %grad_sq = ens.square %grad : !T
  %v_kept = ens.mul %beta2_t, %v : !T
  %v_new_part = ens.mul %omb2_t, %grad_sq : !T
  %new_v = ens.add %v_kept, %v_new_part : !T
  // Bias corrections 1 - beta^step, on scalars.
  %beta1_pow = ens.pow %beta1, %step : !S
  %beta2_pow = ens.pow %beta2, %step : !S
  %correction1 = ens.sub %one, %beta1_pow : !S
  %correction2 = ens.sub %one, %beta2_pow : !S
  %correction1_t = ens.broadcast_in_dim %correction1 {dims = array<i64>} : !S -> !T
  %correction2_t = ens.broadcast_in_dim %correction2 {dims = array<i64>} : !S -> !T
  %m_hat = ens.div %new_m, %correction1_t : !T
  %v_hat = ens.div %new_v, %correction2_t : !T
  %eps_t = ens.broadcast_in_dim %eps {dims = array<i64>} : !S -> !T
  %root = ens.sqrt %v_hat : !T
  %denominator = ens.add %root, %eps_t : !T
  %direction = ens.div %m_hat, %denominator : !T
  %decay_t = ens.broadcast_in_dim %weight_decay {dims = array<i64>} : !S -> !T
  %decay = ens.mul %decay_t, %param : !T
  %update = ens.add %direction, %decay : !T
  %lr_t = ens.broadcast_in_dim %lr {dims = array<i64>} : !S -> !T
  %step_t = ens.mul %lr_t, %update : !T
  %new_param = ens.sub %param, %step_t : !T
  return %new_param, %new_m, %new_v : !T, !T, !T
}
