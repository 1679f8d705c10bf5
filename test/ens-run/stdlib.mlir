// The standard library's functions, instantiated for f64 and run on small
// inputs. Expected values are NumPy's (2.4, float64), from:
//   y=[1,2,3,4]; t=[1.5,2,2,5]; mean((y-t)**2)                  -> 0.5625
//   p=[1,-2]; g=[.5,.25]; m=[.1,.2]; v=[.01,.04]; step=3; lr=.1; b1=.9;
//   b2=.999; eps=1e-8; wd=.01; m2=b1*m+(1-b1)*g; v2=b2*v+(1-b2)*g*g;
//   p - lr*(m2/(1-b1**step) / (sqrt(v2/(1-b2**step))+eps) + wd*p)
//       -> p2=[0.9710519052, -2.018700265], m2=[0.14, 0.205],
//          v2=[0.01024, 0.0400225]
//   vel=[.5,-.5]; mom=.9; vel2=mom*vel+g+wd*p; p-lr*vel2
//       -> p3=[0.904, -1.978], vel2=[0.96, -0.22]
//   logits=[[1,2,.5],[0,-1,3]]; labels=[1,2];
//   -mean(log_softmax(logits)[range(2), labels])              -> 0.265126343932687
//
// RUN: ens-run %s --entry=main | FileCheck %s
// RUN: ens-run %s --entry=main --backend=cuda-emu | FileCheck %s
// CHECK: out0 = tensor<f64> 0.5625
// CHECK: out1 = tensor<2xf64> [0.97105190{{[0-9]*}}, -2.0187002{{[0-9]*}}]
// cuda-emu computes b1*m + (1-b1)*g with one fma, rounded once where
// NumPy rounds twice (docs/cuda.md, "FMA, tolerances and hoisting"): m2[0]
// is then 0.13999999999999999, one ulp below NumPy's 0.14.
// CHECK: out2 = tensor<2xf64> [{{0.14(0*[0-9])?|0.13999999999999999}}, 0.205{{0*[0-9]?}}]
// CHECK: out3 = tensor<2xf64> [0.01024{{0*[0-9]?}}, 0.0400225{{0*[0-9]?}}]
// CHECK: out4 = tensor<2xf64> [0.904{{0*[0-9]?}}, -1.978{{0*[0-9]?}}]
// CHECK: out5 = tensor<2xf64> [0.96{{0*[0-9]?}}, -0.22{{0*[0-9]?}}]
// CHECK: out6 = tensor<f64> 0.2651263439326{{[0-9]*}}

func.func private @mse(tensor<4xf64>, tensor<4xf64>) -> tensor<f64>
    attributes {ens.stdlib = "mse"}
func.func private @adam(tensor<2xf64>, tensor<2xf64>, tensor<2xf64>,
    tensor<2xf64>, tensor<f64>, tensor<f64>, tensor<f64>, tensor<f64>,
    tensor<f64>, tensor<f64>) -> (tensor<2xf64>, tensor<2xf64>, tensor<2xf64>)
    attributes {ens.stdlib = "adam"}
func.func private @sgd(tensor<2xf64>, tensor<2xf64>, tensor<2xf64>,
    tensor<f64>, tensor<f64>, tensor<f64>) -> (tensor<2xf64>, tensor<2xf64>)
    attributes {ens.stdlib = "sgd_momentum"}
func.func private @ce(tensor<2x3xf64>, tensor<2xi32>) -> tensor<f64>
    attributes {ens.stdlib = "softmax_cross_entropy"}

func.func @main() -> (tensor<f64>, tensor<2xf64>, tensor<2xf64>,
                      tensor<2xf64>, tensor<2xf64>, tensor<2xf64>,
                      tensor<f64>) {
  %y = ens.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf64>
  %t = ens.constant dense<[1.5, 2.0, 2.0, 5.0]> : tensor<4xf64>
  %mse = call @mse(%y, %t) : (tensor<4xf64>, tensor<4xf64>) -> tensor<f64>

  %p = ens.constant dense<[1.0, -2.0]> : tensor<2xf64>
  %g = ens.constant dense<[0.5, 0.25]> : tensor<2xf64>
  %m = ens.constant dense<[0.1, 0.2]> : tensor<2xf64>
  %v = ens.constant dense<[0.01, 0.04]> : tensor<2xf64>
  %step = ens.constant dense<3.0> : tensor<f64>
  %lr = ens.constant dense<0.1> : tensor<f64>
  %b1 = ens.constant dense<0.9> : tensor<f64>
  %b2 = ens.constant dense<0.999> : tensor<f64>
  %eps = ens.constant dense<1.0e-8> : tensor<f64>
  %wd = ens.constant dense<0.01> : tensor<f64>
  %p2, %m2, %v2 = call @adam(%p, %g, %m, %v, %step, %lr, %b1, %b2, %eps, %wd)
      : (tensor<2xf64>, tensor<2xf64>, tensor<2xf64>, tensor<2xf64>,
         tensor<f64>, tensor<f64>, tensor<f64>, tensor<f64>, tensor<f64>,
         tensor<f64>) -> (tensor<2xf64>, tensor<2xf64>, tensor<2xf64>)

  %vel = ens.constant dense<[0.5, -0.5]> : tensor<2xf64>
  %p3, %vel2 = call @sgd(%p, %g, %vel, %lr, %b1, %wd)
      : (tensor<2xf64>, tensor<2xf64>, tensor<2xf64>, tensor<f64>,
         tensor<f64>, tensor<f64>) -> (tensor<2xf64>, tensor<2xf64>)

  %logits = ens.constant dense<[[1.0, 2.0, 0.5], [0.0, -1.0, 3.0]]> : tensor<2x3xf64>
  %labels = ens.constant dense<[1, 2]> : tensor<2xi32>
  %ce = call @ce(%logits, %labels) : (tensor<2x3xf64>, tensor<2xi32>) -> tensor<f64>
  return %mse, %p2, %m2, %v2, %p3, %vel2, %ce
      : tensor<f64>, tensor<2xf64>, tensor<2xf64>, tensor<2xf64>,
        tensor<2xf64>, tensor<2xf64>, tensor<f64>
}
