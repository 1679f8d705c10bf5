// Softmax cross-entropy with integer labels, averaged over the batch:
//   mean_b(-log_softmax(logits)[b, labels[b]]).
//   !T: logits [batch x classes], !L: labels [batch] (i32), !S: rank 0,
//   !R: T without its last dimension.
func.func @softmax_cross_entropy(%logits: !T, %labels: !L) -> !S
    attributes {ens.stdlib.bind = "arg0"} {
  %log_probs = ens.log_softmax %logits {dim = 1 : i64} : !T
  %hot = ens.one_hot %labels : !L -> !T
  %picked = ens.mul %log_probs, %hot : !T
  %per_example = ens.reduce_sum %picked {dims = array<i64: 1>} : !T -> !R
  %mean = ens.reduce_mean %per_example {dims = array<i64: 0>} : !R -> !S
  %loss = ens.neg %mean : !S
  return %loss : !S
}
