// The normalisation and dropout functions of the standard library,
// instantiated for f64 and run on small inputs. Expected values are plain
// Python's (3.11, math only), from:
//   ln(x, g, b, eps): per row r: m = mean(r); v = mean((r - m)**2);
//                     (r - m) / sqrt(v + eps) * g + b
//   x = [[1, 2, 4], [-1, 0, 3]]; g = [1, 2, .5]; b = [0, 1, -1]; eps = 1e-5
//   X = [[1, 2, 4], [-1, 0, 3], [2, 2, 2]]; per column c of X: mean, biased
//   var; y = (X - mean) / sqrt(var + eps) * g + b; with rm = [0, .5, 1],
//   rv = [1, 2, .5], mom = .1: rm' = (1 - mom) * rm + mom * mean,
//   rv' = (1 - mom) * rv + mom * var * 3 / 2;
//   inference: (X - rm) / sqrt(rv + eps) * g + b
// Dropout of 4000 ones at rate .25: every output is 0 or 4/3, about a
// quarter are 0, and two members of a vmap draw different masks from one
// key under randomness "different" and the same mask under "same".
//
// RUN: ens-run %s --entry=main | FileCheck %s
// RUN: ens-run %s --entry=main --backend=cpu | FileCheck %s
// RUN: ens-run %s --entry=main --backend=cuda-emu | FileCheck %s
// CHECK: out0 = tensor<2x3xf64> {{\[\[}}-1.06904153145{{[0-9]*}}, 0.465479234274{{[0-9]*}}, -0.331849042843{{[0-9]*}}], [-0.980578978536{{[0-9]*}}, 0.215536817170{{[0-9]*}}, -0.313594715024{{[0-9]*}}]]
// CHECK: out1 = tensor<3x3xf64> {{\[\[}}0.267260382862{{[0-9]*}}, 2.41420560748{{[0-9]*}}, -0.387632157045{{[0-9]*}}], [-1.33630191431{{[0-9]*}}, -1.82841121497{{[0-9]*}}, -1{{(.0*[0-9]*)?}}], [1.06904153145{{[0-9]*}}, 2.41420560748{{[0-9]*}}, -1.61236784295{{[0-9]*}}]]
// CHECK: out2 = tensor<3xf64> [0.0666666666666{{[0-9]*}}, 0.583333333333{{[0-9]*}}, 1.2{{(0*[0-9]?)?}}]
// CHECK: out3 = tensor<3xf64> [1.13333333333{{[0-9]*}}, 1.93333333333{{[0-9]*}}, 0.55{{(0*[0-9]?)?}}]
// CHECK: out4 = tensor<3x3xf64> {{\[\[}}0.999995000037{{[0-9]*}}, 3.12131504027{{[0-9]*}}, 1.12129913067{{[0-9]*}}], [-0.999995000037{{[0-9]*}}, 0.292894986573{{[0-9]*}}, 0.41419942044{{[0-9]*}}], [1.99999000007{{[0-9]*}}, 3.12131504027{{[0-9]*}}, -0.292900289775{{[0-9]*}}]]
// CHECK: out5 = tensor<3xf64> [1, 1, 1]
// CHECK: out6 = tensor<2xf64> [1, 0]

func.func private @layer_norm(tensor<2x3xf64>, tensor<3xf64>, tensor<3xf64>,
    tensor<f64>) -> tensor<2x3xf64> attributes {ens.stdlib = "layer_norm"}
func.func private @batch_norm(tensor<3x3xf64>, tensor<3xf64>, tensor<3xf64>,
    tensor<3xf64>, tensor<3xf64>, tensor<f64>, tensor<f64>)
    -> (tensor<3x3xf64>, tensor<3xf64>, tensor<3xf64>)
    attributes {ens.stdlib = "batch_norm"}
func.func private @batch_norm_inference(tensor<3x3xf64>, tensor<3xf64>,
    tensor<3xf64>, tensor<3xf64>, tensor<3xf64>, tensor<f64>)
    -> tensor<3x3xf64> attributes {ens.stdlib = "batch_norm_inference"}
func.func private @dropout(tensor<2xi32>, tensor<4000xf64>, tensor<f64>)
    -> tensor<4000xf64> attributes {ens.stdlib = "dropout"}

/// [1] where `c` holds, else [0].
func.func private @flag(%c: tensor<i1>) -> tensor<1xf64> {
  %f = ens.convert %c : tensor<i1> -> tensor<f64>
  %v = ens.reshape %f : tensor<f64> -> tensor<1xf64>
  return %v : tensor<1xf64>
}

func.func private @member_dropout(%key: tensor<2xi32>, %x: tensor<4000xf64>,
                                  %rate: tensor<f64>) -> tensor<4000xf64> {
  %y = call @dropout(%key, %x, %rate)
      : (tensor<2xi32>, tensor<4000xf64>, tensor<f64>) -> tensor<4000xf64>
  return %y : tensor<4000xf64>
}

/// Whether two members' masks differ anywhere.
func.func private @members_differ(%y: tensor<2x4000xf64>)
    -> tensor<1xf64> {
  %a = ens.slice %y {start = array<i64: 0, 0>, limit = array<i64: 1, 4000>,
                     stride = array<i64: 1, 1>}
      : tensor<2x4000xf64> -> tensor<1x4000xf64>
  %b = ens.slice %y {start = array<i64: 1, 0>, limit = array<i64: 2, 4000>,
                     stride = array<i64: 1, 1>}
      : tensor<2x4000xf64> -> tensor<1x4000xf64>
  %d = ens.sub %a, %b : tensor<1x4000xf64>
  %ad = ens.abs %d : tensor<1x4000xf64>
  %s = ens.reduce_sum %ad {dims = array<i64: 0, 1>}
      : tensor<1x4000xf64> -> tensor<f64>
  %zero = ens.constant dense<0.0> : tensor<f64>
  %c = ens.cmp gt, %s, %zero : tensor<f64>
  %f = call @flag(%c) : (tensor<i1>) -> tensor<1xf64>
  return %f : tensor<1xf64>
}

func.func @main() -> (tensor<2x3xf64>, tensor<3x3xf64>, tensor<3xf64>,
                      tensor<3xf64>, tensor<3x3xf64>, tensor<3xf64>,
                      tensor<2xf64>) {
  %x = ens.constant dense<[[1.0, 2.0, 4.0], [-1.0, 0.0, 3.0]]>
      : tensor<2x3xf64>
  %g = ens.constant dense<[1.0, 2.0, 0.5]> : tensor<3xf64>
  %b = ens.constant dense<[0.0, 1.0, -1.0]> : tensor<3xf64>
  %eps = ens.constant dense<1.0e-5> : tensor<f64>
  %ln = call @layer_norm(%x, %g, %b, %eps)
      : (tensor<2x3xf64>, tensor<3xf64>, tensor<3xf64>, tensor<f64>)
      -> tensor<2x3xf64>

  %xx = ens.constant dense<[[1.0, 2.0, 4.0], [-1.0, 0.0, 3.0],
                            [2.0, 2.0, 2.0]]> : tensor<3x3xf64>
  %rm = ens.constant dense<[0.0, 0.5, 1.0]> : tensor<3xf64>
  %rv = ens.constant dense<[1.0, 2.0, 0.5]> : tensor<3xf64>
  %mom = ens.constant dense<0.1> : tensor<f64>
  %bn, %rm2, %rv2 = call @batch_norm(%xx, %g, %b, %rm, %rv, %mom, %eps)
      : (tensor<3x3xf64>, tensor<3xf64>, tensor<3xf64>, tensor<3xf64>,
         tensor<3xf64>, tensor<f64>, tensor<f64>)
      -> (tensor<3x3xf64>, tensor<3xf64>, tensor<3xf64>)
  %bni = call @batch_norm_inference(%xx, %g, %b, %rm, %rv, %eps)
      : (tensor<3x3xf64>, tensor<3xf64>, tensor<3xf64>, tensor<3xf64>,
         tensor<3xf64>, tensor<f64>) -> tensor<3x3xf64>

  // Dropout: values, rate, and masks per member.
  %key = ens.constant dense<[7, 42]> : tensor<2xi32>
  %ones = ens.constant dense<1.0> : tensor<4000xf64>
  %rate = ens.constant dense<0.25> : tensor<f64>
  %y = call @dropout(%key, %ones, %rate)
      : (tensor<2xi32>, tensor<4000xf64>, tensor<f64>) -> tensor<4000xf64>
  %zero = ens.constant dense<0.0> : tensor<4000xf64>
  %kept = ens.constant dense<1.3333333333333333> : tensor<4000xf64>
  %is_zero = ens.cmp eq, %y, %zero : tensor<4000xf64>
  %is_kept = ens.cmp eq, %y, %kept : tensor<4000xf64>
  %zf = ens.convert %is_zero : tensor<4000xi1> -> tensor<4000xf64>
  %kf = ens.convert %is_kept : tensor<4000xi1> -> tensor<4000xf64>
  %either = ens.add %zf, %kf : tensor<4000xf64>
  %min = ens.neg %either : tensor<4000xf64>
  %nmin = ens.reduce_max %min {dims = array<i64: 0>}
      : tensor<4000xf64> -> tensor<f64>
  %minus_one = ens.constant dense<-1.0> : tensor<f64>
  %valid = ens.cmp eq, %nmin, %minus_one : tensor<f64>
  %frac = ens.reduce_mean %zf {dims = array<i64: 0>}
      : tensor<4000xf64> -> tensor<f64>
  %lo = ens.constant dense<0.22> : tensor<f64>
  %hi = ens.constant dense<0.28> : tensor<f64>
  %above = ens.cmp gt, %frac, %lo : tensor<f64>
  %below = ens.cmp lt, %frac, %hi : tensor<f64>
  %vf = call @flag(%valid) : (tensor<i1>) -> tensor<1xf64>
  %af = call @flag(%above) : (tensor<i1>) -> tensor<1xf64>
  %bf = call @flag(%below) : (tensor<i1>) -> tensor<1xf64>
  %flags = ens.concat %vf, %af, %bf {dim = 0 : i64}
      : tensor<1xf64>, tensor<1xf64>, tensor<1xf64> -> tensor<3xf64>

  %diff = ens.vmap @member_dropout(%key, %ones, %rate)
      {in_axes = array<i64: -1, -1, -1>, out_axes = array<i64: 0>,
       size = 2 : i64, randomness = "different"}
      : (tensor<2xi32>, tensor<4000xf64>, tensor<f64>) -> tensor<2x4000xf64>
  %same = ens.vmap @member_dropout(%key, %ones, %rate)
      {in_axes = array<i64: -1, -1, -1>, out_axes = array<i64: 0>,
       size = 2 : i64, randomness = "same"}
      : (tensor<2xi32>, tensor<4000xf64>, tensor<f64>) -> tensor<2x4000xf64>
  %d1 = call @members_differ(%diff) : (tensor<2x4000xf64>) -> tensor<1xf64>
  %d2 = call @members_differ(%same) : (tensor<2x4000xf64>) -> tensor<1xf64>
  %differ = ens.concat %d1, %d2 {dim = 0 : i64}
      : tensor<1xf64>, tensor<1xf64> -> tensor<2xf64>
  return %ln, %bn, %rm2, %rv2, %bni, %flags, %differ
      : tensor<2x3xf64>, tensor<3x3xf64>, tensor<3xf64>, tensor<3xf64>,
        tensor<3x3xf64>, tensor<3xf64>, tensor<2xf64>
}
