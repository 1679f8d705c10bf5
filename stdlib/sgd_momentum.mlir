// One step of SGD with momentum and L2 weight decay (PyTorch's convention):
//   g' = grad + weight_decay * param
//   velocity' = momentum * velocity + g'
//   param' = param - lr * velocity'
// Hyperparameters are rank-0 arguments, so under ens.vmap each member can
// have its own. Returns (param', velocity').
func.func @sgd_momentum(%param: !T, %grad: !T, %velocity: !T, %lr: !S,
                        %momentum: !S, %weight_decay: !S) -> (!T, !T)
    attributes {ens.stdlib.bind = "arg0"} {
  %lr_t = ens.broadcast_in_dim %lr {dims = array<i64>} : !S -> !T
  %momentum_t = ens.broadcast_in_dim %momentum {dims = array<i64>} : !S -> !T
  %decay_t = ens.broadcast_in_dim %weight_decay {dims = array<i64>} : !S -> !T
  %decay = ens.mul %decay_t, %param : !T
  %g = ens.add %grad, %decay : !T
  %kept = ens.mul %momentum_t, %velocity : !T
  %new_velocity = ens.add %kept, %g : !T
  %step = ens.mul %lr_t, %new_velocity : !T
  %new_param = ens.sub %param, %step : !T
  return %new_param, %new_velocity : !T, !T
}
