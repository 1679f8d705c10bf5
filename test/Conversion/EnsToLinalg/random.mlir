// RUN: ens-opt %s --convert-ens-to-linalg | FileCheck %s

// Every random op is a linalg.generic with no inputs whose body computes
// Threefry-2x32 (20 rounds) of a key and a counter inline (EnsOps.td):
// draws use the counter (0, i) with i the element's row-major index within
// its key's block, random_split (1, j), random_fold_in (2, data).
// Threefry: ks = (k0, k1, k0 ^ k1 ^ 0x1BD11BDA); x = counter + (k0, k1);
// each round adds x1 into x0 and makes x1 rotl(x1, r) ^ x0; after every
// 4 rounds, g = 1..5, x0 += ks[g % 3] and x1 += ks[(g + 1) % 3] + g.

// CHECK:       #[[ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>

// f32 takes the high 23 bits of the first word: (w0 >> 9) * 2^-23, exact in
// f64, then rounded to f32.
// CHECK-LABEL: func.func @random_uniform
// CHECK:         %[[E:.*]] = tensor.empty() : tensor<4x5xf32>
// CHECK:         linalg.generic {indexing_maps = [#[[ID]]], iterator_types = ["parallel", "parallel"]} outs(%[[E]] : tensor<4x5xf32>)
// CHECK-NEXT:    ^bb0(%{{[^:]+}}: f32):
// CHECK-DAG:       %[[I:.*]] = linalg.index 0 : index
// CHECK-DAG:       %[[J:.*]] = linalg.index 1 : index
// CHECK-DAG:       %[[K0:.*]] = tensor.extract %arg0[%[[C0:.*]]] : tensor<2xi32>
// CHECK-DAG:       %[[C0]] = arith.constant 0 : index
// CHECK-DAG:       %[[K1:.*]] = tensor.extract %arg0[%[[C1:.*]]] : tensor<2xi32>
// CHECK-DAG:       %[[C1]] = arith.constant 1 : index
// The counter is 5 i + j.
// CHECK-DAG:       %[[ROW:.*]] = arith.addi %{{.*}}, %[[I]] : index
// CHECK-DAG:       %[[ROW5:.*]] = arith.muli %[[ROW]], %[[FIVE:.*]] : index
// CHECK-DAG:       %[[FIVE]] = arith.constant 5 : index
// CHECK-DAG:       %[[LIN:.*]] = arith.addi %[[ROW5]], %[[J]] : index
// CHECK-DAG:       %[[CTR:.*]] = arith.index_cast %[[LIN]] : index to i32
// CHECK-DAG:       %[[X01:.*]] = arith.xori %[[K0]], %[[K1]] : i32
// CHECK-DAG:       %[[KS2:.*]] = arith.xori %[[X01]], %[[PARITY:.*]] : i32
// CHECK-DAG:       %[[PARITY]] = arith.constant 466688986 : i32
// CHECK-DAG:       %[[X0:.*]] = arith.addi %[[ZERO:.*]], %[[K0]] : i32
// CHECK-DAG:       %[[ZERO]] = arith.constant 0 : i32
// CHECK-DAG:       %[[X1:.*]] = arith.addi %[[CTR]], %[[K1]] : i32
// The first round rotates by 13.
// CHECK:           %[[S0:.*]] = arith.addi %[[X0]], %[[X1]] : i32
// CHECK-DAG:       %[[HIGH:.*]] = arith.shli %[[X1]], %[[R13:.*]] : i32
// CHECK-DAG:       %[[R13]] = arith.constant 13 : i32
// CHECK-DAG:       %[[LOW:.*]] = arith.shrui %[[X1]], %[[R19:.*]] : i32
// CHECK-DAG:       %[[R19]] = arith.constant 19 : i32
// CHECK:           %[[ROT:.*]] = arith.ori %[[HIGH]], %[[LOW]] : i32
// CHECK-NEXT:      arith.xori %[[ROT]], %[[S0]] : i32
// CHECK-COUNT-19:  arith.ori %{{.*}}, %{{.*}} : i32
// CHECK-NOT:       arith.ori
// The last injection: x0 += ks[5 % 3].
// CHECK:           %[[W0:.*]] = arith.addi %{{.*}}, %[[KS2]] : i32
// CHECK-DAG:       %[[MANT:.*]] = arith.shrui %[[W0]], %[[NINE:.*]] : i32
// CHECK-DAG:       %[[NINE]] = arith.constant 9 : i32
// CHECK-DAG:       %[[MF:.*]] = arith.uitofp %[[MANT]] : i32 to f64
// CHECK-DAG:       %[[U:.*]] = arith.mulf %[[MF]], %[[ULP:.*]] : f64
// CHECK-DAG:       %[[ULP]] = arith.constant 1.1920928955078125E-7 : f64
// CHECK:           %[[R:.*]] = arith.truncf %[[U]] : f64 to f32
// CHECK-NEXT:      linalg.yield %[[R]] : f32
func.func @random_uniform(%key: tensor<2xi32>) -> tensor<4x5xf32> {
  %0 = ens.random_uniform %key : tensor<2xi32> -> tensor<4x5xf32>
  return %0 : tensor<4x5xf32>
}

// A batch of keys: row i draws with key i and the counter j. f64 takes 52
// bits of both words: ((w0 << 32 | w1) >> 12) * 2^-52.
// CHECK-LABEL: func.func @random_uniform_f64
// CHECK:         linalg.generic {indexing_maps = [#[[ID]]], iterator_types = ["parallel", "parallel"]} outs(%{{.*}} : tensor<3x7xf64>)
// CHECK-DAG:       %[[I:.*]] = linalg.index 0 : index
// CHECK-DAG:       %[[J:.*]] = linalg.index 1 : index
// CHECK-DAG:       %[[K0:.*]] = tensor.extract %arg0[%[[I]], %[[C0:.*]]] : tensor<3x2xi32>
// CHECK-DAG:       %[[C0]] = arith.constant 0 : index
// CHECK-DAG:       %[[K1:.*]] = tensor.extract %arg0[%[[I]], %[[C1:.*]]] : tensor<3x2xi32>
// CHECK-DAG:       %[[C1]] = arith.constant 1 : index
// CHECK-DAG:       %[[LIN:.*]] = arith.addi %{{.*}}, %[[J]] : index
// CHECK-DAG:       %[[CTR:.*]] = arith.index_cast %[[LIN]] : index to i32
// CHECK-DAG:       %[[X01:.*]] = arith.xori %[[K0]], %[[K1]] : i32
// CHECK-DAG:       %[[KS2:.*]] = arith.xori %[[X01]], %{{.*}} : i32
// CHECK-DAG:       arith.addi %[[CTR]], %[[K1]] : i32
// CHECK-COUNT-20:  arith.ori %{{.*}}, %{{.*}} : i32
// CHECK:           %[[W0:.*]] = arith.addi %{{.*}}, %[[KS2]] : i32
// CHECK-DAG:       %[[T:.*]] = arith.addi %{{.*}}, %[[K0]] : i32
// CHECK-DAG:       %[[W1:.*]] = arith.addi %[[T]], %[[G5:.*]] : i32
// CHECK-DAG:       %[[G5]] = arith.constant 5 : i32
// CHECK-DAG:       %[[HIGH64:.*]] = arith.extui %[[W0]] : i32 to i64
// CHECK-DAG:       %[[HIGH:.*]] = arith.shli %[[HIGH64]], %[[C32:.*]] : i64
// CHECK-DAG:       %[[C32]] = arith.constant 32 : i64
// CHECK-DAG:       %[[LOW64:.*]] = arith.extui %[[W1]] : i32 to i64
// CHECK-DAG:       %[[WORD:.*]] = arith.ori %[[HIGH]], %[[LOW64]] : i64
// CHECK-DAG:       %[[MANT:.*]] = arith.shrui %[[WORD]], %[[C12:.*]] : i64
// CHECK-DAG:       %[[C12]] = arith.constant 12 : i64
// CHECK-DAG:       %[[MF:.*]] = arith.uitofp %[[MANT]] : i64 to f64
// CHECK-DAG:       %[[U:.*]] = arith.mulf %[[MF]], %[[ULP:.*]] : f64
// CHECK-DAG:       %[[ULP]] = arith.constant 2.2204460492503131E-16 : f64
// CHECK:           linalg.yield %[[U]] : f64
func.func @random_uniform_f64(%keys: tensor<3x2xi32>) -> tensor<3x7xf64> {
  %0 = ens.random_uniform %keys : tensor<3x2xi32> -> tensor<3x7xf64>
  return %0 : tensor<3x7xf64>
}

// Box-Muller in f64: u_k = (w_k + 0.5) * 2^-32, then
// sqrt(-2 log(u1)) * cos(2 pi u2), rounded to f32.
// CHECK-LABEL: func.func @random_normal
// CHECK:         linalg.generic {indexing_maps = [#[[ID]]], iterator_types = ["parallel", "parallel"]} outs(%{{.*}} : tensor<3x7xf32>)
// CHECK-DAG:       %[[I:.*]] = linalg.index 0 : index
// CHECK-DAG:       %[[K0:.*]] = tensor.extract %arg0[%[[I]], %[[C0:.*]]] : tensor<3x2xi32>
// CHECK-DAG:       %[[C0]] = arith.constant 0 : index
// CHECK-DAG:       %[[K1:.*]] = tensor.extract %arg0[%[[I]], %{{.*}}] : tensor<3x2xi32>
// CHECK-DAG:       %[[X01:.*]] = arith.xori %[[K0]], %[[K1]] : i32
// CHECK-DAG:       %[[KS2:.*]] = arith.xori %[[X01]], %{{.*}} : i32
// CHECK-COUNT-20:  arith.ori %{{.*}}, %{{.*}} : i32
// CHECK:           %[[W0:.*]] = arith.addi %{{.*}}, %[[KS2]] : i32
// CHECK-DAG:       %[[T:.*]] = arith.addi %{{.*}}, %[[K0]] : i32
// CHECK-DAG:       %[[W1:.*]] = arith.addi %[[T]], %[[G5:.*]] : i32
// CHECK-DAG:       %[[G5]] = arith.constant 5 : i32
// CHECK-DAG:       %[[F0:.*]] = arith.uitofp %[[W0]] : i32 to f64
// CHECK-DAG:       %[[H0:.*]] = arith.addf %[[F0]], %[[HALF0:.*]] : f64
// CHECK-DAG:       %[[HALF0]] = arith.constant 5.000000e-01 : f64
// CHECK-DAG:       %[[U1:.*]] = arith.mulf %[[H0]], %[[SCALE0:.*]] : f64
// CHECK-DAG:       %[[SCALE0]] = arith.constant 2.3283064365386963E-10 : f64
// CHECK-DAG:       %[[LOG:.*]] = math.log %[[U1]] : f64
// CHECK-DAG:       %[[M2LOG:.*]] = arith.mulf %[[MINUS2:.*]], %[[LOG]] : f64
// CHECK-DAG:       %[[MINUS2]] = arith.constant -2.000000e+00 : f64
// CHECK-DAG:       %[[RADIUS:.*]] = math.sqrt %[[M2LOG]] : f64
// CHECK-DAG:       %[[F1:.*]] = arith.uitofp %[[W1]] : i32 to f64
// CHECK-DAG:       %[[H1:.*]] = arith.addf %[[F1]], %[[HALF1:.*]] : f64
// CHECK-DAG:       %[[HALF1]] = arith.constant 5.000000e-01 : f64
// CHECK-DAG:       %[[U2:.*]] = arith.mulf %[[H1]], %[[SCALE1:.*]] : f64
// CHECK-DAG:       %[[SCALE1]] = arith.constant 2.3283064365386963E-10 : f64
// CHECK-DAG:       %[[ANGLE:.*]] = arith.mulf %[[TWO_PI:.*]], %[[U2]] : f64
// CHECK-DAG:       %[[TWO_PI]] = arith.constant 6.2831853071795862 : f64
// CHECK-DAG:       %[[COS:.*]] = math.cos %[[ANGLE]] : f64
// CHECK-DAG:       %[[Z:.*]] = arith.mulf %[[RADIUS]], %[[COS]] : f64
// CHECK:           %[[R:.*]] = arith.truncf %[[Z]] : f64 to f32
// CHECK-NEXT:      linalg.yield %[[R]] : f32
func.func @random_normal(%keys: tensor<3x2xi32>) -> tensor<3x7xf32> {
  %0 = ens.random_normal %keys : tensor<3x2xi32> -> tensor<3x7xf32>
  return %0 : tensor<3x7xf32>
}

// Key j of the result is Threefry of the key and (1, j); the last dim
// picks the word.
// CHECK-LABEL: func.func @random_split
// CHECK:         linalg.generic {indexing_maps = [#[[ID]]], iterator_types = ["parallel", "parallel"]} outs(%{{.*}} : tensor<4x2xi32>)
// CHECK-DAG:       %[[J:.*]] = linalg.index 0 : index
// CHECK-DAG:       %[[WHICH:.*]] = linalg.index 1 : index
// CHECK-DAG:       %[[CTR:.*]] = arith.index_cast %[[J]] : index to i32
// CHECK-DAG:       %[[K0:.*]] = tensor.extract %arg0[%[[C0:.*]]] : tensor<2xi32>
// CHECK-DAG:       %[[C0]] = arith.constant 0 : index
// CHECK-DAG:       %[[K1:.*]] = tensor.extract %arg0[%[[C1:.*]]] : tensor<2xi32>
// CHECK-DAG:       %[[C1]] = arith.constant 1 : index
// CHECK-DAG:       %[[X01:.*]] = arith.xori %[[K0]], %[[K1]] : i32
// CHECK-DAG:       %[[KS2:.*]] = arith.xori %[[X01]], %{{.*}} : i32
// CHECK-DAG:       arith.addi %[[ONE:.*]], %[[K0]] : i32
// CHECK-DAG:       %[[ONE]] = arith.constant 1 : i32
// CHECK-DAG:       arith.addi %[[CTR]], %[[K1]] : i32
// CHECK-COUNT-20:  arith.ori %{{.*}}, %{{.*}} : i32
// CHECK:           %[[W0:.*]] = arith.addi %{{.*}}, %[[KS2]] : i32
// CHECK-DAG:       %[[T:.*]] = arith.addi %{{.*}}, %[[K0]] : i32
// CHECK-DAG:       %[[W1:.*]] = arith.addi %[[T]], %[[G5:.*]] : i32
// CHECK-DAG:       %[[G5]] = arith.constant 5 : i32
// CHECK-DAG:       %[[SECOND:.*]] = arith.cmpi eq, %[[WHICH]], %[[INDEX1:.*]] : index
// CHECK-DAG:       %[[INDEX1]] = arith.constant 1 : index
// CHECK:           %[[R:.*]] = arith.select %[[SECOND]], %[[W1]], %[[W0]] : i32
// CHECK-NEXT:      linalg.yield %[[R]] : i32
func.func @random_split(%key: tensor<2xi32>) -> tensor<4x2xi32> {
  %0 = ens.random_split %key : tensor<2xi32> -> tensor<4x2xi32>
  return %0 : tensor<4x2xi32>
}

// Key i of the result is Threefry of key i and (2, data[i]).
// CHECK-LABEL: func.func @random_fold_in
// CHECK:         linalg.generic {indexing_maps = [#[[ID]]], iterator_types = ["parallel", "parallel"]} outs(%{{.*}} : tensor<3x2xi32>)
// CHECK-DAG:       %[[I:.*]] = linalg.index 0 : index
// CHECK-DAG:       %[[WHICH:.*]] = linalg.index 1 : index
// CHECK-DAG:       %[[DATA:.*]] = tensor.extract %arg1[%[[I]]] : tensor<3xi32>
// CHECK-DAG:       %[[K0:.*]] = tensor.extract %arg0[%[[I]], %[[C0:.*]]] : tensor<3x2xi32>
// CHECK-DAG:       %[[C0]] = arith.constant 0 : index
// CHECK-DAG:       %[[K1:.*]] = tensor.extract %arg0[%[[I]], %[[C1:.*]]] : tensor<3x2xi32>
// CHECK-DAG:       %[[C1]] = arith.constant 1 : index
// CHECK-DAG:       %[[X01:.*]] = arith.xori %[[K0]], %[[K1]] : i32
// CHECK-DAG:       %[[KS2:.*]] = arith.xori %[[X01]], %{{.*}} : i32
// CHECK-DAG:       arith.addi %[[TWO:.*]], %[[K0]] : i32
// CHECK-DAG:       %[[TWO]] = arith.constant 2 : i32
// CHECK-DAG:       arith.addi %[[DATA]], %[[K1]] : i32
// CHECK-COUNT-20:  arith.ori %{{.*}}, %{{.*}} : i32
// CHECK:           %[[W0:.*]] = arith.addi %{{.*}}, %[[KS2]] : i32
// CHECK-DAG:       %[[T:.*]] = arith.addi %{{.*}}, %[[K0]] : i32
// CHECK-DAG:       %[[W1:.*]] = arith.addi %[[T]], %{{.*}} : i32
// CHECK-DAG:       %[[SECOND:.*]] = arith.cmpi eq, %[[WHICH]], %{{.*}} : index
// CHECK:           %[[R:.*]] = arith.select %[[SECOND]], %[[W1]], %[[W0]] : i32
// CHECK-NEXT:      linalg.yield %[[R]] : i32
func.func @random_fold_in(%keys: tensor<3x2xi32>, %n: tensor<3xi32>) -> tensor<3x2xi32> {
  %0 = ens.random_fold_in %keys, %n : tensor<3x2xi32>, tensor<3xi32> -> tensor<3x2xi32>
  return %0 : tensor<3x2xi32>
}
