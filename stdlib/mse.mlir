// Mean squared error: mean((predictions - targets)^2) over all elements.
//   !T: any float tensor type (the predictions), !S: its rank-0 type,
//   !F: T flattened to one dimension.
func.func @mse(%predictions: !T, %targets: !T) -> !S
    attributes {ens.stdlib.bind = "arg0"} {
  %error = ens.sub %predictions, %targets : !T
  %squared = ens.square %error : !T
  %flat = ens.reshape %squared : !T -> !F
  %mean = ens.reduce_mean %flat {dims = array<i64: 0>} : !F -> !S
  return %mean : !S
}
