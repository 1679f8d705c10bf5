// RUN: ens-opt %s --convert-ens-to-linalg --split-input-file | FileCheck %s

// Every elementwise op is one linalg.generic with identity maps and only
// parallel loops, whose body is the op's scalar semantics
// (docs/semantics.md): integers wrap (no nsw/nuw flags), max and min
// propagate NaN (maximumf/minimumf, not maxnumf/minnumf), comparisons are
// ordered except `ne`, float to i32 truncates and saturates with NaN to 0,
// anything to i1 is `x != 0`.

// CHECK-DAG:   #[[ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @elementwise
// CHECK:         %[[E:.*]] = tensor.empty() : tensor<4x3xf32>
// CHECK:         linalg.generic {indexing_maps = [#[[ID]], #[[ID]], #[[ID]]], iterator_types = ["parallel", "parallel"]}
// CHECK-SAME:      ins(%arg0, %arg1 : tensor<4x3xf32>, tensor<4x3xf32>) outs(%[[E]] : tensor<4x3xf32>)
// CHECK:           arith.maximumf
// CHECK-NOT:     ens.
func.func @elementwise(%a: tensor<4x3xf32>, %b: tensor<4x3xf32>) -> tensor<4x3xf32> {
  %c = ens.max %a, %b : tensor<4x3xf32>
  return %c : tensor<4x3xf32>
}

// -----

// CHECK:       #[[ID:.*]] = affine_map<(d0) -> (d0)>

// CHECK-LABEL: func.func @add_f32
// CHECK:         linalg.generic {indexing_maps = [#[[ID]], #[[ID]], #[[ID]]], iterator_types = ["parallel"]}
// CHECK-NEXT:    ^bb0(%[[X:[^:]+]]: f32, %[[Y:[^:]+]]: f32, %{{[^:]+}}: f32):
// CHECK-NEXT:      %[[R:.*]] = arith.addf %[[X]], %[[Y]] : f32
// CHECK-NEXT:      linalg.yield %[[R]] : f32
func.func @add_f32(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0 = ens.add %a, %b : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// CHECK-LABEL: func.func @add_i32
// CHECK:         ^bb0(%[[X:[^:]+]]: i32, %[[Y:[^:]+]]: i32, %{{[^:]+}}: i32):
// CHECK-NEXT:      %[[R:.*]] = arith.addi %[[X]], %[[Y]] : i32
// CHECK-NEXT:      linalg.yield %[[R]] : i32
func.func @add_i32(%a: tensor<4xi32>, %b: tensor<4xi32>) -> tensor<4xi32> {
  %0 = ens.add %a, %b : tensor<4xi32>
  return %0 : tensor<4xi32>
}

// CHECK-LABEL: func.func @sub_f32
// CHECK:         ^bb0(%[[X:[^:]+]]: f32, %[[Y:[^:]+]]: f32, %{{[^:]+}}: f32):
// CHECK-NEXT:      %[[R:.*]] = arith.subf %[[X]], %[[Y]] : f32
// CHECK-NEXT:      linalg.yield %[[R]] : f32
func.func @sub_f32(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0 = ens.sub %a, %b : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// CHECK-LABEL: func.func @sub_i32
// CHECK:         ^bb0(%[[X:[^:]+]]: i32, %[[Y:[^:]+]]: i32, %{{[^:]+}}: i32):
// CHECK-NEXT:      %[[R:.*]] = arith.subi %[[X]], %[[Y]] : i32
// CHECK-NEXT:      linalg.yield %[[R]] : i32
func.func @sub_i32(%a: tensor<4xi32>, %b: tensor<4xi32>) -> tensor<4xi32> {
  %0 = ens.sub %a, %b : tensor<4xi32>
  return %0 : tensor<4xi32>
}

// CHECK-LABEL: func.func @mul_f32
// CHECK:         ^bb0(%[[X:[^:]+]]: f32, %[[Y:[^:]+]]: f32, %{{[^:]+}}: f32):
// CHECK-NEXT:      %[[R:.*]] = arith.mulf %[[X]], %[[Y]] : f32
// CHECK-NEXT:      linalg.yield %[[R]] : f32
func.func @mul_f32(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0 = ens.mul %a, %b : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// CHECK-LABEL: func.func @mul_i32
// CHECK:         ^bb0(%[[X:[^:]+]]: i32, %[[Y:[^:]+]]: i32, %{{[^:]+}}: i32):
// CHECK-NEXT:      %[[R:.*]] = arith.muli %[[X]], %[[Y]] : i32
// CHECK-NEXT:      linalg.yield %[[R]] : i32
func.func @mul_i32(%a: tensor<4xi32>, %b: tensor<4xi32>) -> tensor<4xi32> {
  %0 = ens.mul %a, %b : tensor<4xi32>
  return %0 : tensor<4xi32>
}

// CHECK-LABEL: func.func @div_f64
// CHECK:         ^bb0(%[[X:[^:]+]]: f64, %[[Y:[^:]+]]: f64, %{{[^:]+}}: f64):
// CHECK-NEXT:      %[[R:.*]] = arith.divf %[[X]], %[[Y]] : f64
// CHECK-NEXT:      linalg.yield %[[R]] : f64
func.func @div_f64(%a: tensor<4xf64>, %b: tensor<4xf64>) -> tensor<4xf64> {
  %0 = ens.div %a, %b : tensor<4xf64>
  return %0 : tensor<4xf64>
}

// CHECK-LABEL: func.func @max_i32
// CHECK:         ^bb0(%[[X:[^:]+]]: i32, %[[Y:[^:]+]]: i32, %{{[^:]+}}: i32):
// CHECK-NEXT:      %[[R:.*]] = arith.maxsi %[[X]], %[[Y]] : i32
// CHECK-NEXT:      linalg.yield %[[R]] : i32
func.func @max_i32(%a: tensor<4xi32>, %b: tensor<4xi32>) -> tensor<4xi32> {
  %0 = ens.max %a, %b : tensor<4xi32>
  return %0 : tensor<4xi32>
}

// CHECK-LABEL: func.func @min_f32
// CHECK:         ^bb0(%[[X:[^:]+]]: f32, %[[Y:[^:]+]]: f32, %{{[^:]+}}: f32):
// CHECK-NEXT:      %[[R:.*]] = arith.minimumf %[[X]], %[[Y]] : f32
// CHECK-NEXT:      linalg.yield %[[R]] : f32
func.func @min_f32(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0 = ens.min %a, %b : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// CHECK-LABEL: func.func @min_i32
// CHECK:         ^bb0(%[[X:[^:]+]]: i32, %[[Y:[^:]+]]: i32, %{{[^:]+}}: i32):
// CHECK-NEXT:      %[[R:.*]] = arith.minsi %[[X]], %[[Y]] : i32
// CHECK-NEXT:      linalg.yield %[[R]] : i32
func.func @min_i32(%a: tensor<4xi32>, %b: tensor<4xi32>) -> tensor<4xi32> {
  %0 = ens.min %a, %b : tensor<4xi32>
  return %0 : tensor<4xi32>
}

// CHECK-LABEL: func.func @pow_f32
// CHECK:         ^bb0(%[[X:[^:]+]]: f32, %[[Y:[^:]+]]: f32, %{{[^:]+}}: f32):
// CHECK-NEXT:      %[[R:.*]] = math.powf %[[X]], %[[Y]] : f32
// CHECK-NEXT:      linalg.yield %[[R]] : f32
func.func @pow_f32(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0 = ens.pow %a, %b : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// CHECK-LABEL: func.func @neg_f32
// CHECK:         linalg.generic {indexing_maps = [#[[ID]], #[[ID]]], iterator_types = ["parallel"]}
// CHECK-NEXT:    ^bb0(%[[X:[^:]+]]: f32, %{{[^:]+}}: f32):
// CHECK-NEXT:      %[[R:.*]] = arith.negf %[[X]] : f32
// CHECK-NEXT:      linalg.yield %[[R]] : f32
func.func @neg_f32(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = ens.neg %a : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// CHECK-LABEL: func.func @neg_i32
// CHECK:         ^bb0(%[[X:[^:]+]]: i32, %{{[^:]+}}: i32):
// CHECK-NEXT:      %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK-NEXT:      %[[R:.*]] = arith.subi %[[ZERO]], %[[X]] : i32
// CHECK-NEXT:      linalg.yield %[[R]] : i32
func.func @neg_i32(%a: tensor<4xi32>) -> tensor<4xi32> {
  %0 = ens.neg %a : tensor<4xi32>
  return %0 : tensor<4xi32>
}

// CHECK-LABEL: func.func @exp_f32
// CHECK:         ^bb0(%[[X:[^:]+]]: f32, %{{[^:]+}}: f32):
// CHECK-NEXT:      %[[R:.*]] = math.exp %[[X]] : f32
// CHECK-NEXT:      linalg.yield %[[R]] : f32
func.func @exp_f32(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = ens.exp %a : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// CHECK-LABEL: func.func @log_f32
// CHECK:         ^bb0(%[[X:[^:]+]]: f32, %{{[^:]+}}: f32):
// CHECK-NEXT:      %[[R:.*]] = math.log %[[X]] : f32
// CHECK-NEXT:      linalg.yield %[[R]] : f32
func.func @log_f32(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = ens.log %a : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// CHECK-LABEL: func.func @tanh_f16
// CHECK:         ^bb0(%[[X:[^:]+]]: f16, %{{[^:]+}}: f16):
// CHECK-NEXT:      %[[R:.*]] = math.tanh %[[X]] : f16
// CHECK-NEXT:      linalg.yield %[[R]] : f16
func.func @tanh_f16(%a: tensor<4xf16>) -> tensor<4xf16> {
  %0 = ens.tanh %a : tensor<4xf16>
  return %0 : tensor<4xf16>
}

// sigmoid(x) = 1 / (1 + exp(-x)).
// CHECK-LABEL: func.func @sigmoid_f32
// CHECK:         ^bb0(%[[X:[^:]+]]: f32, %{{[^:]+}}: f32):
// CHECK-DAG:       %[[NEG:.*]] = arith.negf %[[X]] : f32
// CHECK-DAG:       %[[EXP:.*]] = math.exp %[[NEG]] : f32
// CHECK-DAG:       %[[DEN:.*]] = arith.addf %[[ONE:.*]], %[[EXP]] : f32
// CHECK-DAG:       %[[ONE]] = arith.constant 1.000000e+00 : f32
// CHECK-DAG:       %[[R:.*]] = arith.divf %[[ONE2:.*]], %[[DEN]] : f32
// CHECK-DAG:       %[[ONE2]] = arith.constant 1.000000e+00 : f32
// CHECK:           linalg.yield %[[R]] : f32
func.func @sigmoid_f32(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = ens.sigmoid %a : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// relu(x) = max(x, 0), NaN-propagating like max.
// CHECK-LABEL: func.func @relu_f32
// CHECK:         ^bb0(%[[X:[^:]+]]: f32, %{{[^:]+}}: f32):
// CHECK-NEXT:      %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:      %[[R:.*]] = arith.maximumf %[[X]], %[[ZERO]] : f32
// CHECK-NEXT:      linalg.yield %[[R]] : f32
func.func @relu_f32(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = ens.relu %a : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// CHECK-LABEL: func.func @sqrt_f32
// CHECK:         ^bb0(%[[X:[^:]+]]: f32, %{{[^:]+}}: f32):
// CHECK-NEXT:      %[[R:.*]] = math.sqrt %[[X]] : f32
// CHECK-NEXT:      linalg.yield %[[R]] : f32
func.func @sqrt_f32(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = ens.sqrt %a : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// rsqrt(x) = 1 / sqrt(x).
// CHECK-LABEL: func.func @rsqrt_f32
// CHECK:         ^bb0(%[[X:[^:]+]]: f32, %{{[^:]+}}: f32):
// CHECK-DAG:       %[[SQRT:.*]] = math.sqrt %[[X]] : f32
// CHECK-DAG:       %[[R:.*]] = arith.divf %[[ONE:.*]], %[[SQRT]] : f32
// CHECK-DAG:       %[[ONE]] = arith.constant 1.000000e+00 : f32
// CHECK:           linalg.yield %[[R]] : f32
func.func @rsqrt_f32(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = ens.rsqrt %a : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// CHECK-LABEL: func.func @abs_f32
// CHECK:         ^bb0(%[[X:[^:]+]]: f32, %{{[^:]+}}: f32):
// CHECK-NEXT:      %[[R:.*]] = math.absf %[[X]] : f32
// CHECK-NEXT:      linalg.yield %[[R]] : f32
func.func @abs_f32(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = ens.abs %a : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// Integer abs is x < 0 ? 0 - x : x (so abs(INT32_MIN) wraps to itself).
// CHECK-LABEL: func.func @abs_i32
// CHECK:         ^bb0(%[[X:[^:]+]]: i32, %{{[^:]+}}: i32):
// CHECK-NEXT:      %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK-NEXT:      %[[NEGATIVE:.*]] = arith.cmpi slt, %[[X]], %[[ZERO]] : i32
// CHECK-NEXT:      %[[ZERO2:.*]] = arith.constant 0 : i32
// CHECK-NEXT:      %[[NEG:.*]] = arith.subi %[[ZERO2]], %[[X]] : i32
// CHECK-NEXT:      %[[R:.*]] = arith.select %[[NEGATIVE]], %[[NEG]], %[[X]] : i32
// CHECK-NEXT:      linalg.yield %[[R]] : i32
func.func @abs_i32(%a: tensor<4xi32>) -> tensor<4xi32> {
  %0 = ens.abs %a : tensor<4xi32>
  return %0 : tensor<4xi32>
}

// CHECK-LABEL: func.func @square_f32
// CHECK:         ^bb0(%[[X:[^:]+]]: f32, %{{[^:]+}}: f32):
// CHECK-NEXT:      %[[R:.*]] = arith.mulf %[[X]], %[[X]] : f32
// CHECK-NEXT:      linalg.yield %[[R]] : f32
func.func @square_f32(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = ens.square %a : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// CHECK-LABEL: func.func @square_i32
// CHECK:         ^bb0(%[[X:[^:]+]]: i32, %{{[^:]+}}: i32):
// CHECK-NEXT:      %[[R:.*]] = arith.muli %[[X]], %[[X]] : i32
// CHECK-NEXT:      linalg.yield %[[R]] : i32
func.func @square_i32(%a: tensor<4xi32>) -> tensor<4xi32> {
  %0 = ens.square %a : tensor<4xi32>
  return %0 : tensor<4xi32>
}

// Ordered float predicates (false with a NaN) except ne, which is true.
// CHECK-LABEL: func.func @cmp_f32
// CHECK:         linalg.generic {indexing_maps = [#[[ID]], #[[ID]], #[[ID]]], iterator_types = ["parallel"]}
// CHECK-SAME:      ins(%arg0, %arg1 : tensor<4xf32>, tensor<4xf32>) outs(%{{.*}} : tensor<4xi1>)
// CHECK-NEXT:    ^bb0(%[[X:[^:]+]]: f32, %[[Y:[^:]+]]: f32, %{{[^:]+}}: i1):
// CHECK-NEXT:      %[[R:.*]] = arith.cmpf olt, %[[X]], %[[Y]] : f32
// CHECK-NEXT:      linalg.yield %[[R]] : i1
// CHECK:           arith.cmpf ole, %{{.*}}, %{{.*}} : f32
// CHECK:           arith.cmpf ogt, %{{.*}}, %{{.*}} : f32
// CHECK:           arith.cmpf oge, %{{.*}}, %{{.*}} : f32
// CHECK:           arith.cmpf oeq, %{{.*}}, %{{.*}} : f32
// CHECK:           arith.cmpf une, %{{.*}}, %{{.*}} : f32
func.func @cmp_f32(%a: tensor<4xf32>, %b: tensor<4xf32>) -> (tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>) {
  %lt = ens.cmp lt, %a, %b : tensor<4xf32>
  %le = ens.cmp le, %a, %b : tensor<4xf32>
  %gt = ens.cmp gt, %a, %b : tensor<4xf32>
  %ge = ens.cmp ge, %a, %b : tensor<4xf32>
  %eq = ens.cmp eq, %a, %b : tensor<4xf32>
  %ne = ens.cmp ne, %a, %b : tensor<4xf32>
  return %lt, %le, %gt, %ge, %eq, %ne : tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>
}

// Signed integer predicates.
// CHECK-LABEL: func.func @cmp_i32
// CHECK:         ^bb0(%[[X:[^:]+]]: i32, %[[Y:[^:]+]]: i32, %{{[^:]+}}: i1):
// CHECK-NEXT:      %[[R:.*]] = arith.cmpi slt, %[[X]], %[[Y]] : i32
// CHECK-NEXT:      linalg.yield %[[R]] : i1
// CHECK:           arith.cmpi sle, %{{.*}}, %{{.*}} : i32
// CHECK:           arith.cmpi sgt, %{{.*}}, %{{.*}} : i32
// CHECK:           arith.cmpi sge, %{{.*}}, %{{.*}} : i32
// CHECK:           arith.cmpi eq, %{{.*}}, %{{.*}} : i32
// CHECK:           arith.cmpi ne, %{{.*}}, %{{.*}} : i32
func.func @cmp_i32(%a: tensor<4xi32>, %b: tensor<4xi32>) -> (tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>) {
  %lt = ens.cmp lt, %a, %b : tensor<4xi32>
  %le = ens.cmp le, %a, %b : tensor<4xi32>
  %gt = ens.cmp gt, %a, %b : tensor<4xi32>
  %ge = ens.cmp ge, %a, %b : tensor<4xi32>
  %eq = ens.cmp eq, %a, %b : tensor<4xi32>
  %ne = ens.cmp ne, %a, %b : tensor<4xi32>
  return %lt, %le, %gt, %ge, %eq, %ne : tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>
}

// CHECK-LABEL: func.func @select
// CHECK:         linalg.generic {indexing_maps = [#[[ID]], #[[ID]], #[[ID]], #[[ID]]], iterator_types = ["parallel"]}
// CHECK-SAME:      ins(%arg0, %arg1, %arg2 : tensor<4xi1>, tensor<4xf32>, tensor<4xf32>)
// CHECK-NEXT:    ^bb0(%[[C:[^:]+]]: i1, %[[T:[^:]+]]: f32, %[[F:[^:]+]]: f32, %{{[^:]+}}: f32):
// CHECK-NEXT:      %[[R:.*]] = arith.select %[[C]], %[[T]], %[[F]] : f32
// CHECK-NEXT:      linalg.yield %[[R]] : f32
func.func @select(%c: tensor<4xi1>, %t: tensor<4xf32>, %f: tensor<4xf32>) -> tensor<4xf32> {
  %0 = ens.select %c, %t, %f : tensor<4xi1>, tensor<4xf32>
  return %0 : tensor<4xf32>
}

// Float to i32 truncates toward zero (fptosi) and saturates: 2^31 and up
// give INT32_MAX, below -2^31 INT32_MIN, NaN gives 0 (checked last, so it
// wins).
// CHECK-LABEL: func.func @convert_f32_i32
// CHECK:         ^bb0(%[[X:[^:]+]]: f32, %{{[^:]+}}: i32):
// CHECK-NEXT:      %[[NAN:.*]] = arith.cmpf uno, %[[X]], %[[X]] : f32
// CHECK-NEXT:      %[[TWO31:.*]] = arith.constant 2.14748365E+9 : f32
// CHECK-NEXT:      %[[HIGH:.*]] = arith.cmpf oge, %[[X]], %[[TWO31]] : f32
// CHECK-NEXT:      %[[MTWO31:.*]] = arith.constant -2.14748365E+9 : f32
// CHECK-NEXT:      %[[LOW:.*]] = arith.cmpf olt, %[[X]], %[[MTWO31]] : f32
// CHECK-NEXT:      %[[INT:.*]] = arith.fptosi %[[X]] : f32 to i32
// CHECK-NEXT:      %[[MAX:.*]] = arith.constant 2147483647 : i32
// CHECK-NEXT:      %[[R1:.*]] = arith.select %[[HIGH]], %[[MAX]], %[[INT]] : i32
// CHECK-NEXT:      %[[MIN:.*]] = arith.constant -2147483648 : i32
// CHECK-NEXT:      %[[R2:.*]] = arith.select %[[LOW]], %[[MIN]], %[[R1]] : i32
// CHECK-NEXT:      %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK-NEXT:      %[[R:.*]] = arith.select %[[NAN]], %[[ZERO]], %[[R2]] : i32
// CHECK-NEXT:      linalg.yield %[[R]] : i32
func.func @convert_f32_i32(%a: tensor<4xf32>) -> tensor<4xi32> {
  %0 = ens.convert %a : tensor<4xf32> -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// CHECK-LABEL: func.func @convert_floats
// CHECK:         outs(%{{.*}} : tensor<4xf64>)
// CHECK-NEXT:    ^bb0(%[[X:[^:]+]]: f32, %{{[^:]+}}: f64):
// CHECK-NEXT:      %[[R:.*]] = arith.extf %[[X]] : f32 to f64
// CHECK-NEXT:      linalg.yield %[[R]] : f64
// CHECK:         outs(%{{.*}} : tensor<4xf32>)
// CHECK-NEXT:    ^bb0(%[[Y:[^:]+]]: f64, %{{[^:]+}}: f32):
// CHECK-NEXT:      %[[S:.*]] = arith.truncf %[[Y]] : f64 to f32
// CHECK-NEXT:      linalg.yield %[[S]] : f32
func.func @convert_floats(%a: tensor<4xf32>, %b: tensor<4xf64>) -> (tensor<4xf64>, tensor<4xf32>) {
  %0 = ens.convert %a : tensor<4xf32> -> tensor<4xf64>
  %1 = ens.convert %b : tensor<4xf64> -> tensor<4xf32>
  return %0, %1 : tensor<4xf64>, tensor<4xf32>
}

// i32 is signed, i1 is 0 or 1 (unsigned), and anything to i1 is x != 0
// (une, so NaN gives true).
// CHECK-LABEL: func.func @convert_ints
// CHECK:         ^bb0(%[[I:[^:]+]]: i32, %{{[^:]+}}: f32):
// CHECK-NEXT:      %[[R0:.*]] = arith.sitofp %[[I]] : i32 to f32
// CHECK-NEXT:      linalg.yield %[[R0]] : f32
// CHECK:         ^bb0(%[[M:[^:]+]]: i1, %{{[^:]+}}: f32):
// CHECK-NEXT:      %[[R1:.*]] = arith.uitofp %[[M]] : i1 to f32
// CHECK-NEXT:      linalg.yield %[[R1]] : f32
// CHECK:         ^bb0(%[[F:[^:]+]]: f32, %{{[^:]+}}: i1):
// CHECK-NEXT:      %[[FZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:      %[[R2:.*]] = arith.cmpf une, %[[F]], %[[FZERO]] : f32
// CHECK-NEXT:      linalg.yield %[[R2]] : i1
// CHECK:         ^bb0(%[[J:[^:]+]]: i32, %{{[^:]+}}: i1):
// CHECK-NEXT:      %[[IZERO:.*]] = arith.constant 0 : i32
// CHECK-NEXT:      %[[R3:.*]] = arith.cmpi ne, %[[J]], %[[IZERO]] : i32
// CHECK-NEXT:      linalg.yield %[[R3]] : i1
// CHECK:         ^bb0(%[[N:[^:]+]]: i1, %{{[^:]+}}: i32):
// CHECK-NEXT:      %[[R4:.*]] = arith.extui %[[N]] : i1 to i32
// CHECK-NEXT:      linalg.yield %[[R4]] : i32
func.func @convert_ints(%i: tensor<4xi32>, %m: tensor<4xi1>, %a: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xi1>, tensor<4xi1>, tensor<4xi32>) {
  %0 = ens.convert %i : tensor<4xi32> -> tensor<4xf32>
  %1 = ens.convert %m : tensor<4xi1> -> tensor<4xf32>
  %2 = ens.convert %a : tensor<4xf32> -> tensor<4xi1>
  %3 = ens.convert %i : tensor<4xi32> -> tensor<4xi1>
  %4 = ens.convert %m : tensor<4xi1> -> tensor<4xi32>
  return %0, %1, %2, %3, %4 : tensor<4xf32>, tensor<4xf32>, tensor<4xi1>, tensor<4xi1>, tensor<4xi32>
}

// f16 and bf16 have the same width, so each converts to the other through
// f32, which holds both exactly: one rounding, as in the interpreter.
// CHECK-LABEL: func.func @convert_half_floats
// CHECK:         ^bb0(%[[B:[^:]+]]: bf16, %{{[^:]+}}: f16):
// CHECK-NEXT:      %[[B32:.*]] = arith.extf %[[B]] : bf16 to f32
// CHECK-NEXT:      %[[H:.*]] = arith.truncf %[[B32]] : f32 to f16
// CHECK-NEXT:      linalg.yield %[[H]] : f16
// CHECK:         ^bb0(%[[H2:[^:]+]]: f16, %{{[^:]+}}: bf16):
// CHECK-NEXT:      %[[H32:.*]] = arith.extf %[[H2]] : f16 to f32
// CHECK-NEXT:      %[[B2:.*]] = arith.truncf %[[H32]] : f32 to bf16
// CHECK-NEXT:      linalg.yield %[[B2]] : bf16
func.func @convert_half_floats(%b: tensor<4xbf16>, %h: tensor<4xf16>) -> (tensor<4xf16>, tensor<4xbf16>) {
  %0 = ens.convert %b : tensor<4xbf16> -> tensor<4xf16>
  %1 = ens.convert %h : tensor<4xf16> -> tensor<4xbf16>
  return %0, %1 : tensor<4xf16>, tensor<4xbf16>
}
