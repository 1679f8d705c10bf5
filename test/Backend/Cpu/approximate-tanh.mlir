// RUN: ens-opt %s --ens-cpu-approximate-tanh | FileCheck %s

// f32 tanh, on vectors and scalars, becomes a rational function of its
// argument clamped to a bounded range (odd polynomial over even
// polynomial, with small arguments returned as they are); f64 tanh is left
// to the conversions that follow.
// CHECK-LABEL: func.func @tanh
// CHECK-SAME:    (%[[X:.*]]: vector<4xf32>, %[[S:.*]]: f32, %[[D:.*]]: f64)
// CHECK-NOT:     math.tanh {{.*}} : {{.*}}f32
// CHECK:         %[[BELOW:.*]] = arith.cmpf ult, %[[X]], %{{.*}} : vector<4xf32>
// CHECK-NEXT:    %[[HI:.*]] = arith.select %[[BELOW]], %[[X]], %{{.*}} : vector<4xi1>, vector<4xf32>
// CHECK-NEXT:    %[[ABOVE:.*]] = arith.cmpf ugt, %[[HI]], %{{.*}} : vector<4xf32>
// CHECK-NEXT:    %[[CLAMPED:.*]] = arith.select %[[ABOVE]], %[[HI]], %{{.*}} : vector<4xi1>, vector<4xf32>
// CHECK:         %[[SQUARE:.*]] = arith.mulf %[[CLAMPED]], %[[CLAMPED]] : vector<4xf32>
// CHECK:         math.fma %[[SQUARE]], {{.*}} : vector<4xf32>
// CHECK:         %[[ODD:.*]] = arith.mulf %[[CLAMPED]], %{{.*}} : vector<4xf32>
// CHECK:         %[[RATIO:.*]] = arith.divf %[[ODD]], %{{.*}} : vector<4xf32>
// CHECK-NEXT:    %[[VT:.*]] = arith.select %{{.*}}, %[[CLAMPED]], %[[RATIO]] : vector<4xi1>, vector<4xf32>
// CHECK:         arith.cmpf ult, %[[S]], %{{.*}} : f32
// CHECK:         arith.divf {{.*}} : f32
// CHECK-NEXT:    %[[ST:.*]] = arith.select %{{.*}}, %{{.*}}, %{{.*}} : f32
// CHECK-NEXT:    %[[DT:.*]] = math.tanh %[[D]] : f64
// CHECK-NEXT:    return %[[VT]], %[[ST]], %[[DT]] : vector<4xf32>, f32, f64
func.func @tanh(%x: vector<4xf32>, %s: f32, %d: f64)
    -> (vector<4xf32>, f32, f64) {
  %t = math.tanh %x : vector<4xf32>
  %u = math.tanh %s : f32
  %v = math.tanh %d : f64
  return %t, %u, %v : vector<4xf32>, f32, f64
}
