// RUN: ens-opt %s -split-input-file -verify-diagnostics

// One case per verifier error path. Shape rules that fail during result type
// inference report the precise error, then MLIR's generic "failed to infer
// returned types".

//===----------------------------------------------------------------------===//
// ODS type constraints
//===----------------------------------------------------------------------===//

func.func @add_mixed_element_types(%a: tensor<2x3xf32>, %b: tensor<2x3xf64>) {
  // expected-error @+1 {{'ens.add' op requires the same type for all operands and results}}
  %0 = "ens.add"(%a, %b) : (tensor<2x3xf32>, tensor<2x3xf64>) -> tensor<2x3xf32>
  return
}

// -----

func.func @add_mixed_shapes(%a: tensor<2x3xf32>, %b: tensor<3x2xf32>) {
  // expected-error @+1 {{'ens.add' op operand 1 has shape 3x2 but operand 0 has shape 2x3; ens never broadcasts implicitly (use ens.broadcast_in_dim)}}
  %0 = "ens.add"(%a, %b) : (tensor<2x3xf32>, tensor<3x2xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @add_i1(%a: tensor<3xi1>) {
  // expected-error @+1 {{'ens.add' op operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float or 32-bit signless integer values without encoding, but got 'tensor<3xi1>'}}
  %0 = ens.add %a, %a : tensor<3xi1>
  return
}

// -----

func.func @add_i64(%a: tensor<3xi64>) {
  // expected-error @+1 {{'ens.add' op operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float or 32-bit signless integer values without encoding, but got 'tensor<3xi64>'}}
  %0 = ens.add %a, %a : tensor<3xi64>
  return
}

// -----

func.func @div_i32(%a: tensor<3xi32>) {
  // expected-error @+1 {{'ens.div' op operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float values without encoding, but got 'tensor<3xi32>'}}
  %0 = ens.div %a, %a : tensor<3xi32>
  return
}

// -----

func.func @exp_i32(%a: tensor<2x3xi32>) {
  // expected-error @+1 {{'ens.exp' op operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float values without encoding, but got 'tensor<2x3xi32>'}}
  %0 = ens.exp %a : tensor<2x3xi32>
  return
}

// -----

func.func @neg_i1(%a: tensor<2xi1>) {
  // expected-error @+1 {{'ens.neg' op operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float or 32-bit signless integer values without encoding, but got 'tensor<2xi1>'}}
  %0 = ens.neg %a : tensor<2xi1>
  return
}

// -----

func.func @exp_unranked_custom(%a: tensor<*xf32>) {
  // expected-error @+1 {{custom op 'ens.exp' invalid kind of type specified}}
  %0 = ens.exp %a : tensor<*xf32>
  return
}

// -----

func.func @exp_unranked_generic(%a: tensor<*xf32>) {
  // expected-error @+1 {{'ens.exp' op operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float values without encoding, but got 'tensor<*xf32>'}}
  %0 = "ens.exp"(%a) : (tensor<*xf32>) -> tensor<*xf32>
  return
}

// -----

func.func @exp_not_a_tensor(%a: f32) {
  // expected-error @+1 {{'ens.exp' op operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float values without encoding, but got 'f32'}}
  %0 = "ens.exp"(%a) : (f32) -> f32
  return
}

// -----

func.func @exp_vector(%a: vector<4xf32>) {
  // expected-error @+1 {{'ens.exp' op operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float values without encoding, but got 'vector<4xf32>'}}
  %0 = "ens.exp"(%a) : (vector<4xf32>) -> vector<4xf32>
  return
}

// -----

func.func @unary_result_type(%a: tensor<4xf32>) {
  // expected-error @+1 {{'ens.tanh' op requires the same type for all operands and results}}
  %0 = "ens.tanh"(%a) : (tensor<4xf32>) -> tensor<4xf64>
  return
}

// -----

func.func @reduce_mean_i32(%a: tensor<4xi32>) {
  // expected-error @+1 {{'ens.reduce_mean' op operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float values without encoding, but got 'tensor<4xi32>'}}
  %0 = ens.reduce_mean %a {dims = array<i64: 0>} : tensor<4xi32> -> tensor<i32>
  return
}

// -----

func.func @softmax_i32(%a: tensor<4xi32>) {
  // expected-error @+1 {{'ens.softmax' op operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float values without encoding, but got 'tensor<4xi32>'}}
  %0 = ens.softmax %a {dim = 0 : i64} : tensor<4xi32>
  return
}

// -----

func.func @missing_attribute(%a: tensor<3xf32>) {
  // expected-error @+1 {{'ens.transpose' op requires attribute 'permutation'}}
  %0 = "ens.transpose"(%a) : (tensor<3xf32>) -> tensor<3xf32>
  return
}

// -----

func.func @attribute_of_wrong_kind(%a: tensor<3xf32>) {
  // expected-error @+1 {{'ens.reduce_sum' op attribute 'dims' failed to satisfy constraint: i64 dense array attribute}}
  %0 = "ens.reduce_sum"(%a) {dims = [0]} : (tensor<3xf32>) -> tensor<f32>
  return
}

//===----------------------------------------------------------------------===//
// cmp, select, convert
//===----------------------------------------------------------------------===//

// -----

func.func @cmp_bad_predicate(%a: tensor<2x3xf32>) {
  // expected-error @+2 {{custom op 'ens.cmp' expected ::mlir::ens::CmpPredicate to be one of: lt, le, gt, ge, eq, ne}}
  // expected-error @+1 {{custom op 'ens.cmp' failed to parse Ens_CmpPredicateAttr parameter 'value' which is to be a `::mlir::ens::CmpPredicate`}}
  %0 = ens.cmp lte, %a, %a : tensor<2x3xf32>
  return
}

// -----

func.func @cmp_bad_predicate_generic(%a: tensor<2x3xf32>) {
  // expected-error @+2 {{expected ::mlir::ens::CmpPredicate to be one of: lt, le, gt, ge, eq, ne}}
  // expected-error @+1 {{failed to parse Ens_CmpPredicateAttr parameter 'value' which is to be a `::mlir::ens::CmpPredicate`}}
  %0 = "ens.cmp"(%a, %a) {predicate = #ens<cmp_predicate neq>} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
  return
}

// -----

func.func @cmp_mixed_operands(%a: tensor<2x3xf32>, %b: tensor<2x3xi32>) {
  // expected-error @+1 {{'ens.cmp' op requires all operands to have the same type}}
  %0 = "ens.cmp"(%a, %b) {predicate = #ens<cmp_predicate eq>} : (tensor<2x3xf32>, tensor<2x3xi32>) -> tensor<2x3xi1>
  return
}

// -----

func.func @cmp_result_not_mask(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{'ens.cmp' op result #0 must be ranked tensor of 1-bit signless integer values without encoding, but got 'tensor<2x3xf32>'}}
  %0 = "ens.cmp"(%a, %a) {predicate = #ens<cmp_predicate lt>} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @cmp_result_shape(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{'ens.cmp' op result has shape 3x2 but its operands have shape 2x3; an elementwise op keeps the shape}}
  %0 = "ens.cmp"(%a, %a) {predicate = #ens<cmp_predicate lt>} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<3x2xi1>
  return
}

// -----

func.func @cmp_i1(%a: tensor<2xi1>) {
  // expected-error @+1 {{'ens.cmp' op operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float or 32-bit signless integer values without encoding, but got 'tensor<2xi1>'}}
  %0 = "ens.cmp"(%a, %a) {predicate = #ens<cmp_predicate eq>} : (tensor<2xi1>, tensor<2xi1>) -> tensor<2xi1>
  return
}

// -----

func.func @select_cond_shape(%c: tensor<3x2xi1>, %a: tensor<2x3xf32>) {
  // expected-error @+1 {{'ens.select' op operand 1 has shape 2x3 but operand 0 has shape 3x2; ens never broadcasts implicitly (use ens.broadcast_in_dim)}}
  %0 = ens.select %c, %a, %a : tensor<3x2xi1>, tensor<2x3xf32>
  return
}

// -----

func.func @select_cond_scalar(%c: tensor<i1>, %a: tensor<4xf32>) {
  // expected-error @+1 {{'ens.select' op operand 1 has shape 4 but operand 0 has shape []; ens never broadcasts implicitly (use ens.broadcast_in_dim)}}
  %0 = ens.select %c, %a, %a : tensor<i1>, tensor<4xf32>
  return
}

// -----

func.func @select_cond_not_mask(%c: tensor<4xi32>, %a: tensor<4xf32>) {
  // expected-error @+1 {{'ens.select' op operand #0 must be ranked tensor of 1-bit signless integer values without encoding, but got 'tensor<4xi32>'}}
  %0 = "ens.select"(%c, %a, %a) : (tensor<4xi32>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @select_value_types(%c: tensor<4xi1>, %a: tensor<4xf32>, %b: tensor<4xf64>) {
  // expected-error @+1 {{'ens.select' op failed to verify that all of {on_true, on_false, result} have same type}}
  %0 = "ens.select"(%c, %a, %b) : (tensor<4xi1>, tensor<4xf32>, tensor<4xf64>) -> tensor<4xf32>
  return
}

// -----

func.func @convert_shape(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{'ens.convert' op result has shape 6 but its operands have shape 2x3; an elementwise op keeps the shape}}
  %0 = ens.convert %a : tensor<2x3xf32> -> tensor<6xi32>
  return
}

// -----

func.func @convert_to_scalar(%a: tensor<1xf32>) {
  // expected-error @+1 {{'ens.convert' op result has shape [] but its operands have shape 1; an elementwise op keeps the shape}}
  %0 = ens.convert %a : tensor<1xf32> -> tensor<f32>
  return
}

//===----------------------------------------------------------------------===//
// constant, broadcast_in_dim, reshape
//===----------------------------------------------------------------------===//

// -----

func.func @constant_type_mismatch() {
  // expected-error @+1 {{'ens.constant' op failed to verify that all of {value, result} have same type}}
  %0 = "ens.constant"() {value = dense<1.0> : tensor<2xf32>} : () -> tensor<3xf32>
  return
}

// -----

func.func @constant_i64() {
  // expected-error @+1 {{'ens.constant' op result #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float or 32-bit signless integer or 1-bit signless integer values without encoding, but got 'tensor<2xi64>'}}
  %0 = ens.constant dense<1> : tensor<2xi64>
  return
}

// -----

func.func @broadcast_dims_length(%a: tensor<3xf32>) {
  // expected-error @+1 {{dims [0, 1] has 2 entries but the operand has rank 1}}
  %0 = ens.broadcast_in_dim %a {dims = array<i64: 0, 1>} : tensor<3xf32> -> tensor<3x3xf32>
  return
}

// -----

func.func @broadcast_size_mismatch(%a: tensor<3xf32>) {
  // expected-error @+1 {{operand dimension 0 of size 3 cannot broadcast to result dimension 0 of size 4}}
  %0 = ens.broadcast_in_dim %a {dims = array<i64: 0>} : tensor<3xf32> -> tensor<4x3xf32>
  return
}

// -----

func.func @broadcast_duplicate_dims(%a: tensor<1x3xf32>) {
  // expected-error @+1 {{dims [1, 1] names dimension 1 twice}}
  %0 = ens.broadcast_in_dim %a {dims = array<i64: 1, 1>} : tensor<1x3xf32> -> tensor<4x3xf32>
  return
}

// -----

func.func @broadcast_dim_out_of_range(%a: tensor<3xf32>) {
  // expected-error @+1 {{dims entry 2 is out of range for a tensor of rank 2}}
  %0 = ens.broadcast_in_dim %a {dims = array<i64: 2>} : tensor<3xf32> -> tensor<4x3xf32>
  return
}

// -----

func.func @broadcast_negative_dim(%a: tensor<3xf32>) {
  // expected-error @+1 {{dims entry -1 is out of range for a tensor of rank 2}}
  %0 = ens.broadcast_in_dim %a {dims = array<i64: -1>} : tensor<3xf32> -> tensor<4x3xf32>
  return
}

// -----

func.func @broadcast_element_type(%a: tensor<3xf32>) {
  // expected-error @+1 {{'ens.broadcast_in_dim' op failed to verify that all of {operand, result} have same element type}}
  %0 = ens.broadcast_in_dim %a {dims = array<i64: 1>} : tensor<3xf32> -> tensor<4x3xf64>
  return
}

// -----

func.func @reshape_element_count(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{'ens.reshape' op cannot reshape 2x3 (6 elements) to 7 (7 elements)}}
  %0 = ens.reshape %a : tensor<2x3xf32> -> tensor<7xf32>
  return
}

// -----

func.func @reshape_scalar_element_count(%a: tensor<f32>) {
  // expected-error @+1 {{'ens.reshape' op cannot reshape [] (1 elements) to 0x4 (0 elements)}}
  %0 = ens.reshape %a : tensor<f32> -> tensor<0x4xf32>
  return
}

// -----

// 2^62 x 4 elements wrap around to 0 in 64-bit arithmetic; every ens op
// refuses an operand or result whose size overflows.
func.func @reshape_element_count_overflow(%a: tensor<4611686018427387904x4xf32>) {
  // expected-error @+1 {{'ens.reshape' op operand 0: tensor<4611686018427387904x4xf32> has shape 4611686018427387904x4, whose element count overflows 64 bits}}
  %0 = ens.reshape %a : tensor<4611686018427387904x4xf32> -> tensor<0xf32>
  return
}

// -----

func.func @reshape_element_type(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{'ens.reshape' op failed to verify that all of {operand, result} have same element type}}
  %0 = ens.reshape %a : tensor<2x3xf32> -> tensor<6xi32>
  return
}

//===----------------------------------------------------------------------===//
// transpose
//===----------------------------------------------------------------------===//

// -----

func.func @transpose_perm_length(%a: tensor<2x3xf32>) {
  // expected-error @+2 {{permutation [0] has 1 entries but the operand has rank 2}}
  // expected-error @+1 {{'ens.transpose' op failed to infer returned types}}
  %0 = ens.transpose %a {permutation = array<i64: 0>} : tensor<2x3xf32> -> tensor<2xf32>
  return
}

// -----

func.func @transpose_perm_duplicate(%a: tensor<2x3xf32>) {
  // expected-error @+2 {{permutation [0, 0] names dimension 0 twice}}
  // expected-error @+1 {{'ens.transpose' op failed to infer returned types}}
  %0 = ens.transpose %a {permutation = array<i64: 0, 0>} : tensor<2x3xf32> -> tensor<2x2xf32>
  return
}

// -----

func.func @transpose_perm_out_of_range(%a: tensor<2x3xf32>) {
  // expected-error @+2 {{permutation entry 2 is out of range for a tensor of rank 2}}
  // expected-error @+1 {{'ens.transpose' op failed to infer returned types}}
  %0 = ens.transpose %a {permutation = array<i64: 2, 0>} : tensor<2x3xf32> -> tensor<3x2xf32>
  return
}

// -----

func.func @transpose_perm_negative(%a: tensor<2x3xf32>) {
  // expected-error @+2 {{permutation entry -1 is out of range for a tensor of rank 2}}
  // expected-error @+1 {{'ens.transpose' op failed to infer returned types}}
  %0 = ens.transpose %a {permutation = array<i64: -1, 0>} : tensor<2x3xf32> -> tensor<3x2xf32>
  return
}

// -----

func.func @transpose_result_type(%a: tensor<2x3xf32>) {
  // expected-error @+2 {{'ens.transpose' op inferred type(s) 'tensor<3x2xf32>' are incompatible with return type(s) of operation 'tensor<2x3xf32>'}}
  // expected-error @+1 {{'ens.transpose' op failed to infer returned types}}
  %0 = ens.transpose %a {permutation = array<i64: 1, 0>} : tensor<2x3xf32> -> tensor<2x3xf32>
  return
}

//===----------------------------------------------------------------------===//
// slice
//===----------------------------------------------------------------------===//

// -----

func.func @slice_length_mismatch(%a: tensor<4x5xf32>) {
  // expected-error @+2 {{start, limit and stride must have one entry per operand dimension (rank 2), got 2, 1 and 2}}
  // expected-error @+1 {{'ens.slice' op failed to infer returned types}}
  %0 = ens.slice %a {start = array<i64: 0, 0>, limit = array<i64: 4>, stride = array<i64: 1, 1>} : tensor<4x5xf32> -> tensor<4x5xf32>
  return
}

// -----

func.func @slice_stride_zero(%a: tensor<4x5xf32>) {
  // expected-error @+2 {{stride 0 of dimension 1 must be at least 1}}
  // expected-error @+1 {{'ens.slice' op failed to infer returned types}}
  %0 = ens.slice %a {start = array<i64: 0, 0>, limit = array<i64: 4, 5>, stride = array<i64: 1, 0>} : tensor<4x5xf32> -> tensor<4x5xf32>
  return
}

// -----

func.func @slice_stride_negative(%a: tensor<4x5xf32>) {
  // expected-error @+2 {{stride -1 of dimension 0 must be at least 1}}
  // expected-error @+1 {{'ens.slice' op failed to infer returned types}}
  %0 = ens.slice %a {start = array<i64: 3, 0>, limit = array<i64: 0, 5>, stride = array<i64: -1, 1>} : tensor<4x5xf32> -> tensor<4x5xf32>
  return
}

// -----

func.func @slice_limit_past_end(%a: tensor<4x5xf32>) {
  // expected-error @+2 {{dimension 1 of size 5 cannot be sliced from 2 to 6 (need 0 <= start <= limit <= size)}}
  // expected-error @+1 {{'ens.slice' op failed to infer returned types}}
  %0 = ens.slice %a {start = array<i64: 0, 2>, limit = array<i64: 4, 6>, stride = array<i64: 1, 1>} : tensor<4x5xf32> -> tensor<4x4xf32>
  return
}

// -----

func.func @slice_start_negative(%a: tensor<4x5xf32>) {
  // expected-error @+2 {{dimension 0 of size 4 cannot be sliced from -1 to 2 (need 0 <= start <= limit <= size)}}
  // expected-error @+1 {{'ens.slice' op failed to infer returned types}}
  %0 = ens.slice %a {start = array<i64: -1, 0>, limit = array<i64: 2, 5>, stride = array<i64: 1, 1>} : tensor<4x5xf32> -> tensor<3x5xf32>
  return
}

// -----

func.func @slice_start_after_limit(%a: tensor<4x5xf32>) {
  // expected-error @+2 {{dimension 0 of size 4 cannot be sliced from 3 to 2 (need 0 <= start <= limit <= size)}}
  // expected-error @+1 {{'ens.slice' op failed to infer returned types}}
  %0 = ens.slice %a {start = array<i64: 3, 0>, limit = array<i64: 2, 5>, stride = array<i64: 1, 1>} : tensor<4x5xf32> -> tensor<0x5xf32>
  return
}

// -----

func.func @slice_result_type(%a: tensor<10xf32>) {
  // expected-error @+2 {{'ens.slice' op inferred type(s) 'tensor<4xf32>' are incompatible with return type(s) of operation 'tensor<3xf32>'}}
  // expected-error @+1 {{'ens.slice' op failed to infer returned types}}
  %0 = ens.slice %a {start = array<i64: 0>, limit = array<i64: 10>, stride = array<i64: 3>} : tensor<10xf32> -> tensor<3xf32>
  return
}

//===----------------------------------------------------------------------===//
// concat
//===----------------------------------------------------------------------===//

// -----

func.func @concat_rank_mismatch(%a: tensor<2x3xf32>, %b: tensor<3xf32>) {
  // expected-error @+2 {{input 1 has rank 1 but input 0 has rank 2}}
  // expected-error @+1 {{'ens.concat' op failed to infer returned types}}
  %0 = ens.concat %a, %b {dim = 0 : i64} : tensor<2x3xf32>, tensor<3xf32> -> tensor<3x3xf32>
  return
}

// -----

func.func @concat_size_mismatch(%a: tensor<2x3xf32>, %b: tensor<2x4xf32>) {
  // expected-error @+2 {{input 2 has size 4 in dimension 1 but input 0 has size 3 (only dimension 0 may differ)}}
  // expected-error @+1 {{'ens.concat' op failed to infer returned types}}
  %0 = ens.concat %a, %a, %b {dim = 0 : i64} : tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x4xf32> -> tensor<6x3xf32>
  return
}

// -----

// One-byte elements, so that each input's size fits and only their sum
// overflows.
func.func @concat_size_overflow(%a: tensor<9223372036854775807xi1>, %b: tensor<3xi1>) {
  // expected-error @+2 {{the sizes of dimension 0 of the inputs overflow a 64-bit size}}
  // expected-error @+1 {{'ens.concat' op failed to infer returned types}}
  %0 = ens.concat %a, %b {dim = 0 : i64} : tensor<9223372036854775807xi1>, tensor<3xi1> -> tensor<2xi1>
  return
}

// -----

func.func @concat_dim_out_of_range(%a: tensor<2x3xf32>) {
  // expected-error @+2 {{dim 2 is out of range for a tensor of rank 2}}
  // expected-error @+1 {{'ens.concat' op failed to infer returned types}}
  %0 = ens.concat %a, %a {dim = 2 : i64} : tensor<2x3xf32>, tensor<2x3xf32> -> tensor<2x6xf32>
  return
}

// -----

func.func @concat_dim_negative(%a: tensor<2x3xf32>) {
  // expected-error @+2 {{dim -1 is out of range for a tensor of rank 2}}
  // expected-error @+1 {{'ens.concat' op failed to infer returned types}}
  %0 = ens.concat %a, %a {dim = -1 : i64} : tensor<2x3xf32>, tensor<2x3xf32> -> tensor<2x6xf32>
  return
}

// -----

func.func @concat_scalar(%a: tensor<f32>) {
  // expected-error @+2 {{dim 0 is out of range for a tensor of rank 0}}
  // expected-error @+1 {{'ens.concat' op failed to infer returned types}}
  %0 = ens.concat %a, %a {dim = 0 : i64} : tensor<f32>, tensor<f32> -> tensor<2xf32>
  return
}

// -----

func.func @concat_result_type(%a: tensor<2x3xf32>) {
  // expected-error @+2 {{'ens.concat' op inferred type(s) 'tensor<2x6xf32>' are incompatible with return type(s) of operation 'tensor<4x3xf32>'}}
  // expected-error @+1 {{'ens.concat' op failed to infer returned types}}
  %0 = ens.concat %a, %a {dim = 1 : i64} : tensor<2x3xf32>, tensor<2x3xf32> -> tensor<4x3xf32>
  return
}

// -----

func.func @concat_element_types(%a: tensor<2xf32>, %b: tensor<2xf64>) {
  // expected-error @+1 {{'ens.concat' op requires the same element type for all operands}}
  %0 = ens.concat %a, %b {dim = 0 : i64} : tensor<2xf32>, tensor<2xf64> -> tensor<4xf32>
  return
}

// -----

func.func @concat_no_inputs() {
  // expected-error @+1 {{'ens.concat' op expected 1 or more operands, but found 0}}
  %0 = "ens.concat"() {dim = 0 : i64} : () -> tensor<2xf32>
  return
}

//===----------------------------------------------------------------------===//
// take, one_hot
//===----------------------------------------------------------------------===//

// -----

func.func @take_axis_out_of_range(%t: tensor<5x4xf32>, %i: tensor<3xi32>) {
  // expected-error @+2 {{axis 2 is out of range for a tensor of rank 2}}
  // expected-error @+1 {{'ens.take' op failed to infer returned types}}
  %0 = ens.take %t, %i {axis = 2 : i64} : tensor<5x4xf32>, tensor<3xi32> -> tensor<5x4x3xf32>
  return
}

// -----

func.func @take_axis_negative(%t: tensor<5x4xf32>, %i: tensor<3xi32>) {
  // expected-error @+2 {{axis -1 is out of range for a tensor of rank 2}}
  // expected-error @+1 {{'ens.take' op failed to infer returned types}}
  %0 = ens.take %t, %i {axis = -1 : i64} : tensor<5x4xf32>, tensor<3xi32> -> tensor<5x3xf32>
  return
}

// -----

func.func @take_empty_axis(%t: tensor<5x0xf32>, %i: tensor<3xi32>) {
  // expected-error @+2 {{cannot take from axis 1 of size 0}}
  // expected-error @+1 {{'ens.take' op failed to infer returned types}}
  %0 = ens.take %t, %i {axis = 1 : i64} : tensor<5x0xf32>, tensor<3xi32> -> tensor<5x3xf32>
  return
}

// -----

func.func @take_result_type(%t: tensor<5x4xf32>, %i: tensor<3xi32>) {
  // expected-error @+2 {{'ens.take' op inferred type(s) 'tensor<3x4xf32>' are incompatible with return type(s) of operation 'tensor<4x3xf32>'}}
  // expected-error @+1 {{'ens.take' op failed to infer returned types}}
  %0 = ens.take %t, %i {axis = 0 : i64} : tensor<5x4xf32>, tensor<3xi32> -> tensor<4x3xf32>
  return
}

// -----

func.func @take_float_indices(%t: tensor<5x4xf32>, %i: tensor<3xf32>) {
  // expected-error @+1 {{'ens.take' op operand #1 must be ranked tensor of 32-bit signless integer values without encoding, but got 'tensor<3xf32>'}}
  %0 = ens.take %t, %i {axis = 0 : i64} : tensor<5x4xf32>, tensor<3xf32> -> tensor<3x4xf32>
  return
}

// -----

func.func @one_hot_missing_depth(%i: tensor<2x3xi32>) {
  // expected-error @+1 {{'ens.one_hot' op result shape 2x3 must be the indices shape 2x3 followed by the depth}}
  %0 = ens.one_hot %i : tensor<2x3xi32> -> tensor<2x3xf32>
  return
}

// -----

func.func @one_hot_prefix_mismatch(%i: tensor<2x3xi32>) {
  // expected-error @+1 {{'ens.one_hot' op result shape 3x2x10 must be the indices shape 2x3 followed by the depth}}
  %0 = ens.one_hot %i : tensor<2x3xi32> -> tensor<3x2x10xf32>
  return
}

// -----

func.func @one_hot_scalar_result(%i: tensor<i32>) {
  // expected-error @+1 {{'ens.one_hot' op result shape [] must be the indices shape [] followed by the depth}}
  %0 = ens.one_hot %i : tensor<i32> -> tensor<f32>
  return
}

// -----

func.func @one_hot_i1_result(%i: tensor<3xi32>) {
  // expected-error @+1 {{'ens.one_hot' op result #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float or 32-bit signless integer values without encoding, but got 'tensor<3x4xi1>'}}
  %0 = ens.one_hot %i : tensor<3xi32> -> tensor<3x4xi1>
  return
}

//===----------------------------------------------------------------------===//
// Reductions and normalisations
//===----------------------------------------------------------------------===//

// -----

func.func @reduce_duplicate_dims(%a: tensor<2x3xf32>) {
  // expected-error @+2 {{dims [1, 1] names dimension 1 twice}}
  // expected-error @+1 {{'ens.reduce_sum' op failed to infer returned types}}
  %0 = ens.reduce_sum %a {dims = array<i64: 1, 1>} : tensor<2x3xf32> -> tensor<2xf32>
  return
}

// -----

func.func @reduce_dim_out_of_range(%a: tensor<2x3xf32>) {
  // expected-error @+2 {{dims entry 2 is out of range for a tensor of rank 2}}
  // expected-error @+1 {{'ens.reduce_max' op failed to infer returned types}}
  %0 = ens.reduce_max %a {dims = array<i64: 2>} : tensor<2x3xf32> -> tensor<2x3xf32>
  return
}

// -----

func.func @reduce_mean_dim_negative(%a: tensor<2x3xf32>) {
  // expected-error @+2 {{dims entry -1 is out of range for a tensor of rank 2}}
  // expected-error @+1 {{'ens.reduce_mean' op failed to infer returned types}}
  %0 = ens.reduce_mean %a {dims = array<i64: -1>} : tensor<2x3xf32> -> tensor<2xf32>
  return
}

// -----

func.func @logsumexp_duplicate_dims(%a: tensor<2x3xf32>) {
  // expected-error @+2 {{dims [0, 1, 0] names dimension 0 twice}}
  // expected-error @+1 {{'ens.logsumexp' op failed to infer returned types}}
  %0 = ens.logsumexp %a {dims = array<i64: 0, 1, 0>} : tensor<2x3xf32> -> tensor<f32>
  return
}

// -----

func.func @reduce_result_type(%a: tensor<2x3xf32>) {
  // expected-error @+2 {{'ens.reduce_sum' op inferred type(s) 'tensor<3xf32>' are incompatible with return type(s) of operation 'tensor<2xf32>'}}
  // expected-error @+1 {{'ens.reduce_sum' op failed to infer returned types}}
  %0 = ens.reduce_sum %a {dims = array<i64: 0>} : tensor<2x3xf32> -> tensor<2xf32>
  return
}

// -----

func.func @softmax_dim_out_of_range(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{dim 2 is out of range for a tensor of rank 2}}
  %0 = ens.softmax %a {dim = 2 : i64} : tensor<2x3xf32>
  return
}

// -----

func.func @log_softmax_dim_negative(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{dim -1 is out of range for a tensor of rank 2}}
  %0 = ens.log_softmax %a {dim = -1 : i64} : tensor<2x3xf32>
  return
}

// -----

func.func @softmax_scalar(%a: tensor<f32>) {
  // expected-error @+1 {{dim 0 is out of range for a tensor of rank 0}}
  %0 = ens.softmax %a {dim = 0 : i64} : tensor<f32>
  return
}

//===----------------------------------------------------------------------===//
// einsum
//===----------------------------------------------------------------------===//

// -----

func.func @einsum_no_arrow(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) {
  // expected-error @+2 {{einsum spec "ij,jk" must have an explicit '->' and output}}
  // expected-error @+1 {{'ens.einsum' op failed to infer returned types}}
  %0 = ens.einsum %a, %b {spec = "ij,jk"} : tensor<2x3xf32>, tensor<3x4xf32> -> tensor<2x4xf32>
  return
}

// -----

func.func @einsum_three_operands(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) {
  // expected-error @+2 {{einsum spec "ij,jk,kl->il" must name exactly two operands}}
  // expected-error @+1 {{'ens.einsum' op failed to infer returned types}}
  %0 = ens.einsum %a, %b {spec = "ij,jk,kl->il"} : tensor<2x3xf32>, tensor<3x4xf32> -> tensor<2x4xf32>
  return
}

// -----

func.func @einsum_one_operand(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) {
  // expected-error @+2 {{einsum spec "ij->ji" must name exactly two operands}}
  // expected-error @+1 {{'ens.einsum' op failed to infer returned types}}
  %0 = ens.einsum %a, %b {spec = "ij->ji"} : tensor<2x3xf32>, tensor<3x4xf32> -> tensor<3x2xf32>
  return
}

// -----

func.func @einsum_upper_case(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) {
  // expected-error @+2 {{einsum spec "ij,Jk->ik": rhs label 'J' is not a lower-case letter}}
  // expected-error @+1 {{'ens.einsum' op failed to infer returned types}}
  %0 = ens.einsum %a, %b {spec = "ij,Jk->ik"} : tensor<2x3xf32>, tensor<3x4xf32> -> tensor<2x4xf32>
  return
}

// -----

func.func @einsum_space(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) {
  // expected-error @+2 {{einsum spec "ij,jk-> ik": output label ' ' is not a lower-case letter}}
  // expected-error @+1 {{'ens.einsum' op failed to infer returned types}}
  %0 = ens.einsum %a, %b {spec = "ij,jk-> ik"} : tensor<2x3xf32>, tensor<3x4xf32> -> tensor<2x4xf32>
  return
}

// -----

func.func @einsum_ellipsis(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) {
  // expected-error @+2 {{einsum spec "...j,jk->...k": lhs label '.' is not a lower-case letter}}
  // expected-error @+1 {{'ens.einsum' op failed to infer returned types}}
  %0 = ens.einsum %a, %b {spec = "...j,jk->...k"} : tensor<2x3xf32>, tensor<3x4xf32> -> tensor<2x4xf32>
  return
}

// -----

func.func @einsum_repeated_label(%a: tensor<3x3xf32>, %b: tensor<3x4xf32>) {
  // expected-error @+2 {{einsum spec "ii,ik->k": lhs repeats label 'i'}}
  // expected-error @+1 {{'ens.einsum' op failed to infer returned types}}
  %0 = ens.einsum %a, %b {spec = "ii,ik->k"} : tensor<3x3xf32>, tensor<3x4xf32> -> tensor<4xf32>
  return
}

// -----

func.func @einsum_repeated_output_label(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) {
  // expected-error @+2 {{einsum spec "ij,jk->ii": output repeats label 'i'}}
  // expected-error @+1 {{'ens.einsum' op failed to infer returned types}}
  %0 = ens.einsum %a, %b {spec = "ij,jk->ii"} : tensor<2x3xf32>, tensor<3x4xf32> -> tensor<2x2xf32>
  return
}

// -----

func.func @einsum_output_label_unknown(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) {
  // expected-error @+2 {{einsum spec "ij,jk->iz": output label 'z' appears in no operand}}
  // expected-error @+1 {{'ens.einsum' op failed to infer returned types}}
  %0 = ens.einsum %a, %b {spec = "ij,jk->iz"} : tensor<2x3xf32>, tensor<3x4xf32> -> tensor<2x4xf32>
  return
}

// -----

func.func @einsum_lhs_rank(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) {
  // expected-error @+2 {{einsum spec "bij,jk->bik" gives 3 labels for lhs of rank 2}}
  // expected-error @+1 {{'ens.einsum' op failed to infer returned types}}
  %0 = ens.einsum %a, %b {spec = "bij,jk->bik"} : tensor<2x3xf32>, tensor<3x4xf32> -> tensor<2x4xf32>
  return
}

// -----

func.func @einsum_rhs_rank(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) {
  // expected-error @+2 {{einsum spec "ij,j->i" gives 1 labels for rhs of rank 2}}
  // expected-error @+1 {{'ens.einsum' op failed to infer returned types}}
  %0 = ens.einsum %a, %b {spec = "ij,j->i"} : tensor<2x3xf32>, tensor<3x4xf32> -> tensor<2xf32>
  return
}

// -----

func.func @einsum_size_mismatch(%a: tensor<2x3xf32>, %b: tensor<4x5xf32>) {
  // expected-error @+2 {{einsum label 'j' has size 3 in lhs dimension 1 but size 4 in rhs dimension 0}}
  // expected-error @+1 {{'ens.einsum' op failed to infer returned types}}
  %0 = ens.einsum %a, %b {spec = "ij,jk->ik"} : tensor<2x3xf32>, tensor<4x5xf32> -> tensor<2x5xf32>
  return
}

// -----

func.func @einsum_result_type(%a: tensor<5x6x2xf32>, %b: tensor<2x7xf32>) {
  // expected-error @+2 {{'ens.einsum' op inferred type(s) 'tensor<7x6x5xf32>' are incompatible with return type(s) of operation 'tensor<5x6x7xf32>'}}
  // expected-error @+1 {{'ens.einsum' op failed to infer returned types}}
  %0 = ens.einsum %a, %b {spec = "kbi,ij->jbk"} : tensor<5x6x2xf32>, tensor<2x7xf32> -> tensor<5x6x7xf32>
  return
}

// -----

func.func @einsum_result_element_type(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) {
  // expected-error @+2 {{'ens.einsum' op inferred type(s) 'tensor<2x4xf32>' are incompatible with return type(s) of operation 'tensor<2x4xf64>'}}
  // expected-error @+1 {{'ens.einsum' op failed to infer returned types}}
  %0 = ens.einsum %a, %b {spec = "ij,jk->ik"} : tensor<2x3xf32>, tensor<3x4xf32> -> tensor<2x4xf64>
  return
}

// -----

func.func @einsum_element_types(%a: tensor<2x3xf32>, %b: tensor<3x4xi32>) {
  // expected-error @+1 {{'ens.einsum' op requires the same element type for all operands}}
  %0 = ens.einsum %a, %b {spec = "ij,jk->ik"} : tensor<2x3xf32>, tensor<3x4xi32> -> tensor<2x4xf32>
  return
}

//===----------------------------------------------------------------------===//
// tensordot
//===----------------------------------------------------------------------===//

// -----

func.func @tensordot_length_mismatch(%a: tensor<2x3xf32>, %b: tensor<3x2xf32>) {
  // expected-error @+2 {{lhs_dims [1, 0] and rhs_dims [0] must have the same length}}
  // expected-error @+1 {{'ens.tensordot' op failed to infer returned types}}
  %0 = ens.tensordot %a, %b {lhs_dims = array<i64: 1, 0>, rhs_dims = array<i64: 0>} : tensor<2x3xf32>, tensor<3x2xf32> -> tensor<f32>
  return
}

// -----

func.func @tensordot_size_mismatch(%a: tensor<2x3x4xf32>, %b: tensor<4x2xf32>) {
  // expected-error @+2 {{contracted lhs dimension 1 has size 3 but rhs dimension 1 has size 2}}
  // expected-error @+1 {{'ens.tensordot' op failed to infer returned types}}
  %0 = ens.tensordot %a, %b {lhs_dims = array<i64: 2, 1>, rhs_dims = array<i64: 0, 1>} : tensor<2x3x4xf32>, tensor<4x2xf32> -> tensor<2xf32>
  return
}

// -----

func.func @tensordot_duplicate_lhs_dims(%a: tensor<3x3xf32>, %b: tensor<3x3xf32>) {
  // expected-error @+2 {{lhs_dims [0, 0] names dimension 0 twice}}
  // expected-error @+1 {{'ens.tensordot' op failed to infer returned types}}
  %0 = ens.tensordot %a, %b {lhs_dims = array<i64: 0, 0>, rhs_dims = array<i64: 0, 1>} : tensor<3x3xf32>, tensor<3x3xf32> -> tensor<f32>
  return
}

// -----

func.func @tensordot_duplicate_rhs_dims(%a: tensor<3x3xf32>, %b: tensor<3x3xf32>) {
  // expected-error @+2 {{rhs_dims [1, 1] names dimension 1 twice}}
  // expected-error @+1 {{'ens.tensordot' op failed to infer returned types}}
  %0 = ens.tensordot %a, %b {lhs_dims = array<i64: 0, 1>, rhs_dims = array<i64: 1, 1>} : tensor<3x3xf32>, tensor<3x3xf32> -> tensor<f32>
  return
}

// -----

func.func @tensordot_dim_out_of_range(%a: tensor<2x3xf32>, %b: tensor<3x2xf32>) {
  // expected-error @+2 {{rhs_dims entry 2 is out of range for a tensor of rank 2}}
  // expected-error @+1 {{'ens.tensordot' op failed to infer returned types}}
  %0 = ens.tensordot %a, %b {lhs_dims = array<i64: 1>, rhs_dims = array<i64: 2>} : tensor<2x3xf32>, tensor<3x2xf32> -> tensor<2x2xf32>
  return
}

// -----

func.func @tensordot_result_type(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) {
  // expected-error @+2 {{'ens.tensordot' op inferred type(s) 'tensor<2x4xf32>' are incompatible with return type(s) of operation 'tensor<4x2xf32>'}}
  // expected-error @+1 {{'ens.tensordot' op failed to infer returned types}}
  %0 = ens.tensordot %a, %b {lhs_dims = array<i64: 1>, rhs_dims = array<i64: 0>} : tensor<2x3xf32>, tensor<3x4xf32> -> tensor<4x2xf32>
  return
}

//===----------------------------------------------------------------------===//
// matmul
//===----------------------------------------------------------------------===//

// -----

func.func @matmul_rank_zero(%a: tensor<f32>, %b: tensor<3xf32>) {
  // expected-error @+2 {{matmul operands must have rank at least 1, got ranks 0 and 1}}
  // expected-error @+1 {{'ens.matmul' op failed to infer returned types}}
  %0 = ens.matmul %a, %b : tensor<f32>, tensor<3xf32> -> tensor<3xf32>
  return
}

// -----

func.func @matmul_contraction_mismatch(%a: tensor<2x3xf32>, %b: tensor<4x5xf32>) {
  // expected-error @+2 {{matmul contracts lhs dimension 1 of size 3 with rhs dimension 0 of size 4}}
  // expected-error @+1 {{'ens.matmul' op failed to infer returned types}}
  %0 = ens.matmul %a, %b : tensor<2x3xf32>, tensor<4x5xf32> -> tensor<2x5xf32>
  return
}

// -----

func.func @matmul_vector_contraction_mismatch(%a: tensor<7x2x3xf32>, %b: tensor<4xf32>) {
  // expected-error @+2 {{matmul contracts lhs dimension 2 of size 3 with rhs dimension 0 of size 4}}
  // expected-error @+1 {{'ens.matmul' op failed to infer returned types}}
  %0 = ens.matmul %a, %b : tensor<7x2x3xf32>, tensor<4xf32> -> tensor<7x2xf32>
  return
}

// -----

func.func @matmul_batched_rhs_contraction_mismatch(%a: tensor<3xf32>, %b: tensor<6x4x5xf32>) {
  // expected-error @+2 {{matmul contracts lhs dimension 0 of size 3 with rhs dimension 1 of size 4}}
  // expected-error @+1 {{'ens.matmul' op failed to infer returned types}}
  %0 = ens.matmul %a, %b : tensor<3xf32>, tensor<6x4x5xf32> -> tensor<6x5xf32>
  return
}

// -----

func.func @matmul_batch_not_broadcastable(%a: tensor<5x3x2x3xf32>, %b: tensor<4x3x4xf32>) {
  // expected-error @+2 {{matmul batch dimensions 5x3 and 4 do not broadcast: sizes 3 and 4}}
  // expected-error @+1 {{'ens.matmul' op failed to infer returned types}}
  %0 = ens.matmul %a, %b : tensor<5x3x2x3xf32>, tensor<4x3x4xf32> -> tensor<5x4x2x4xf32>
  return
}

// -----

func.func @matmul_result_type(%a: tensor<2x3xf32>, %b: tensor<3xf32>) {
  // expected-error @+2 {{'ens.matmul' op inferred type(s) 'tensor<2xf32>' are incompatible with return type(s) of operation 'tensor<2x1xf32>'}}
  // expected-error @+1 {{'ens.matmul' op failed to infer returned types}}
  %0 = ens.matmul %a, %b : tensor<2x3xf32>, tensor<3xf32> -> tensor<2x1xf32>
  return
}

// -----

func.func @matmul_element_types(%a: tensor<2x3xf32>, %b: tensor<3x2xf64>) {
  // expected-error @+1 {{'ens.matmul' op requires the same element type for all operands}}
  %0 = ens.matmul %a, %b : tensor<2x3xf32>, tensor<3x2xf64> -> tensor<2x2xf32>
  return
}

// -----

func.func @encoded_tensor(%a: tensor<4xf32, "enc">) {
  // expected-error @+1 {{'ens.neg' op operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float or 32-bit signless integer values without encoding, but got 'tensor<4xf32, "enc">'}}
  %0 = ens.neg %a : tensor<4xf32, "enc">
  return
}

// -----

func.func @sparse_constant() {
  // expected-error @+1 {{'ens.constant' op value must be dense elements, got sparse<0, 1.000000e+00> : tensor<4xf32>}}
  %0 = ens.constant sparse<[[0]], [1.0]> : tensor<4xf32>
  return
}

// -----

// A `?` matches any size, but the static sizes beside it still must agree.
func.func @add_dynamic_mismatch(%a: tensor<?x4xf32>, %b: tensor<?x5xf32>) {
  // expected-error @+1 {{'ens.add' op operand 1 has shape ?x5 but operand 0 has shape ?x4}}
  %0 = "ens.add"(%a, %b) : (tensor<?x4xf32>, tensor<?x5xf32>) -> tensor<?x4xf32>
  return
}

// -----

func.func @einsum_dynamic_mismatch(%a: tensor<?x4xf32>, %b: tensor<5x?xf32>) {
  // expected-error @+2 {{failed to infer returned types}}
  // expected-error @+1 {{einsum label 'i' has size 4 in lhs dimension 1 but size 5 in rhs dimension 0}}
  %0 = ens.einsum %a, %b {spec = "bi,io->bo"}
      : tensor<?x4xf32>, tensor<5x?xf32> -> tensor<?x?xf32>
  return
}

// -----

func.func @reshape_two_unknowns(%a: tensor<?x4xf32>) {
  // expected-error @+1 {{'ens.reshape' op result shape ?x2x? may have at most one `?`}}
  %0 = ens.reshape %a : tensor<?x4xf32> -> tensor<?x2x?xf32>
  return
}

//===----------------------------------------------------------------------===//
// conv
//===----------------------------------------------------------------------===//

// -----

func.func @conv_integer(%x: tensor<1x1x4xi32>, %w: tensor<1x1x2xi32>) {
  // expected-error @+1 {{'ens.conv' op operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float values without encoding}}
  %0 = ens.conv %x, %w {lhs_dims = array<i64: 0, 1, 2>, rhs_dims = array<i64: 0, 1, 2>, out_dims = array<i64: 0, 1, 2>} : tensor<1x1x4xi32>, tensor<1x1x2xi32> -> tensor<1x1x3xi32>
  return
}

// -----

func.func @conv_mixed_element_types(%x: tensor<1x1x4xf32>, %w: tensor<1x1x2xf64>) {
  // expected-error @+1 {{'ens.conv' op requires the same element type for all operands and results}}
  %0 = ens.conv %x, %w {lhs_dims = array<i64: 0, 1, 2>, rhs_dims = array<i64: 0, 1, 2>, out_dims = array<i64: 0, 1, 2>} : tensor<1x1x4xf32>, tensor<1x1x2xf64> -> tensor<1x1x3xf32>
  return
}

// -----

func.func @conv_rank_mismatch(%x: tensor<1x1x4xf32>, %w: tensor<1x1x2x2xf32>) {
  // expected-error @+1 {{'ens.conv' op lhs has rank 3 but rhs has rank 4; both have one dimension per role and the same spatial dimensions}}
  %0 = ens.conv %x, %w {lhs_dims = array<i64: 0, 1, 2>, rhs_dims = array<i64: 0, 1, 2, 3>, out_dims = array<i64: 0, 1, 2>} : tensor<1x1x4xf32>, tensor<1x1x2x2xf32> -> tensor<1x1x3xf32>
  return
}

// -----

func.func @conv_rank_one(%x: tensor<4xf32>, %w: tensor<2xf32>) {
  // expected-error @+1 {{'ens.conv' op operands must have rank at least 2 (batch and feature), got rank 1}}
  %0 = ens.conv %x, %w {lhs_dims = array<i64: 0>, rhs_dims = array<i64: 0>, out_dims = array<i64: 0>} : tensor<4xf32>, tensor<2xf32> -> tensor<3xf32>
  return
}

// -----

func.func @conv_lhs_dims_count(%x: tensor<1x1x4xf32>, %w: tensor<1x1x2xf32>) {
  // expected-error @+1 {{'ens.conv' op lhs_dims must have 3 entries, one per lhs dimension, got 2}}
  %0 = ens.conv %x, %w {lhs_dims = array<i64: 0, 1>, rhs_dims = array<i64: 0, 1, 2>, out_dims = array<i64: 0, 1, 2>} : tensor<1x1x4xf32>, tensor<1x1x2xf32> -> tensor<1x1x3xf32>
  return
}

// -----

func.func @conv_rhs_dims_out_of_range(%x: tensor<1x1x4xf32>, %w: tensor<1x1x2xf32>) {
  // expected-error @+1 {{'ens.conv' op rhs_dims entry 3 is out of range for rhs of rank 3}}
  %0 = ens.conv %x, %w {lhs_dims = array<i64: 0, 1, 2>, rhs_dims = array<i64: 0, 1, 3>, out_dims = array<i64: 0, 1, 2>} : tensor<1x1x4xf32>, tensor<1x1x2xf32> -> tensor<1x1x3xf32>
  return
}

// -----

func.func @conv_out_dims_repeated(%x: tensor<1x1x4xf32>, %w: tensor<1x1x2xf32>) {
  // expected-error @+1 {{'ens.conv' op out_dims [0, 1, 1] names dimension 1 twice}}
  %0 = ens.conv %x, %w {lhs_dims = array<i64: 0, 1, 2>, rhs_dims = array<i64: 0, 1, 2>, out_dims = array<i64: 0, 1, 1>} : tensor<1x1x4xf32>, tensor<1x1x2xf32> -> tensor<1x1x3xf32>
  return
}

// -----

func.func @conv_strides_count(%x: tensor<1x1x4xf32>, %w: tensor<1x1x2xf32>) {
  // expected-error @+1 {{'ens.conv' op window_strides must have 1 entries for the spatial dimensions, got 2}}
  %0 = ens.conv %x, %w {lhs_dims = array<i64: 0, 1, 2>, rhs_dims = array<i64: 0, 1, 2>, out_dims = array<i64: 0, 1, 2>, window_strides = array<i64: 1, 1>} : tensor<1x1x4xf32>, tensor<1x1x2xf32> -> tensor<1x1x3xf32>
  return
}

// -----

func.func @conv_padding_count(%x: tensor<1x1x4xf32>, %w: tensor<1x1x2xf32>) {
  // expected-error @+1 {{'ens.conv' op padding must have 2 entries for the low and high ends of the spatial dimensions, got 1}}
  %0 = ens.conv %x, %w {lhs_dims = array<i64: 0, 1, 2>, rhs_dims = array<i64: 0, 1, 2>, out_dims = array<i64: 0, 1, 2>, padding = array<i64: 1>} : tensor<1x1x4xf32>, tensor<1x1x2xf32> -> tensor<1x1x3xf32>
  return
}

// -----

func.func @conv_zero_dilation(%x: tensor<1x1x4xf32>, %w: tensor<1x1x2xf32>) {
  // expected-error @+1 {{'ens.conv' op rhs_dilation entry 0 must be at least 1, got 0}}
  %0 = ens.conv %x, %w {lhs_dims = array<i64: 0, 1, 2>, rhs_dims = array<i64: 0, 1, 2>, out_dims = array<i64: 0, 1, 2>, rhs_dilation = array<i64: 0>} : tensor<1x1x4xf32>, tensor<1x1x2xf32> -> tensor<1x1x3xf32>
  return
}

// -----

func.func @conv_zero_groups(%x: tensor<1x1x4xf32>, %w: tensor<1x1x2xf32>) {
  // expected-error @+1 {{'ens.conv' op feature_group_count must be at least 1, got 0}}
  %0 = ens.conv %x, %w {lhs_dims = array<i64: 0, 1, 2>, rhs_dims = array<i64: 0, 1, 2>, out_dims = array<i64: 0, 1, 2>, feature_group_count = 0 : i64} : tensor<1x1x4xf32>, tensor<1x1x2xf32> -> tensor<1x1x3xf32>
  return
}

// -----

func.func @conv_groups_do_not_divide_features(%x: tensor<1x3x4xf32>, %w: tensor<2x1x2xf32>) {
  // expected-error @+1 {{'ens.conv' op lhs feature dimension 1 has size 3, which feature_group_count 2 does not divide}}
  %0 = ens.conv %x, %w {lhs_dims = array<i64: 0, 1, 2>, rhs_dims = array<i64: 0, 1, 2>, out_dims = array<i64: 0, 1, 2>, feature_group_count = 2 : i64} : tensor<1x3x4xf32>, tensor<2x1x2xf32> -> tensor<1x2x3xf32>
  return
}

// -----

func.func @conv_input_features(%x: tensor<1x4x4xf32>, %w: tensor<2x4x2xf32>) {
  // expected-error @+1 {{'ens.conv' op rhs input-feature dimension 1 has size 4 but the lhs feature size 4 / feature_group_count 2 is 2}}
  %0 = ens.conv %x, %w {lhs_dims = array<i64: 0, 1, 2>, rhs_dims = array<i64: 0, 1, 2>, out_dims = array<i64: 0, 1, 2>, feature_group_count = 2 : i64} : tensor<1x4x4xf32>, tensor<2x4x2xf32> -> tensor<1x2x3xf32>
  return
}

// -----

func.func @conv_groups_do_not_divide_outputs(%x: tensor<1x4x4xf32>, %w: tensor<3x2x2xf32>) {
  // expected-error @+1 {{'ens.conv' op rhs output-feature dimension 0 has size 3, which feature_group_count 2 does not divide}}
  %0 = ens.conv %x, %w {lhs_dims = array<i64: 0, 1, 2>, rhs_dims = array<i64: 0, 1, 2>, out_dims = array<i64: 0, 1, 2>, feature_group_count = 2 : i64} : tensor<1x4x4xf32>, tensor<3x2x2xf32> -> tensor<1x3x3xf32>
  return
}

// -----

func.func @conv_overflow(%x: tensor<1x1x4xf32>, %w: tensor<1x1x2xf32>) {
  // expected-error @+1 {{'ens.conv' op spatial dimension 0 overflows a 64-bit size when dilated and padded}}
  %0 = ens.conv %x, %w {lhs_dims = array<i64: 0, 1, 2>, rhs_dims = array<i64: 0, 1, 2>, out_dims = array<i64: 0, 1, 2>, lhs_dilation = array<i64: 4611686018427387904>} : tensor<1x1x4xf32>, tensor<1x1x2xf32> -> tensor<1x1x3xf32>
  return
}

// -----

func.func @conv_result_shape(%x: tensor<1x1x4xf32>, %w: tensor<1x1x2xf32>) {
  // expected-error @+1 {{'ens.conv' op result shape 1x1x4 does not match the shape 1x1x3 the dimension numbers give}}
  %0 = ens.conv %x, %w {lhs_dims = array<i64: 0, 1, 2>, rhs_dims = array<i64: 0, 1, 2>, out_dims = array<i64: 0, 1, 2>} : tensor<1x1x4xf32>, tensor<1x1x2xf32> -> tensor<1x1x4xf32>
  return
}

//===----------------------------------------------------------------------===//
// reduce_window
//===----------------------------------------------------------------------===//

// -----

func.func @reduce_window_integer(%x: tensor<4xi32>) {
  // expected-error @+1 {{'ens.reduce_window' op operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float values without encoding}}
  %0 = ens.reduce_window max, %x {window_dimensions = array<i64: 2>} : tensor<4xi32> -> tensor<3xi32>
  return
}

// -----

func.func @reduce_window_unknown_kind(%x: tensor<4xf32>) {
  // expected-error @+2 {{expected ::mlir::ens::WindowKind to be one of: max, add}}
  // expected-error @+1 {{failed to parse Ens_WindowKindAttr parameter 'value'}}
  %0 = ens.reduce_window min, %x {window_dimensions = array<i64: 2>} : tensor<4xf32> -> tensor<3xf32>
  return
}

// -----

func.func @reduce_window_dimensions_count(%x: tensor<4x4xf32>) {
  // expected-error @+1 {{'ens.reduce_window' op window_dimensions must have 2 entries for the operand dimensions, got 1}}
  %0 = ens.reduce_window max, %x {window_dimensions = array<i64: 2>} : tensor<4x4xf32> -> tensor<3x4xf32>
  return
}

// -----

func.func @reduce_window_zero_stride(%x: tensor<4xf32>) {
  // expected-error @+1 {{'ens.reduce_window' op window_strides entry 0 must be at least 1, got 0}}
  %0 = ens.reduce_window max, %x {window_dimensions = array<i64: 2>, window_strides = array<i64: 0>} : tensor<4xf32> -> tensor<3xf32>
  return
}

// -----

func.func @reduce_window_padding_count(%x: tensor<4xf32>) {
  // expected-error @+1 {{'ens.reduce_window' op padding must have 2 entries for the low and high ends of the operand dimensions, got 1}}
  %0 = ens.reduce_window max, %x {window_dimensions = array<i64: 2>, padding = array<i64: 1>} : tensor<4xf32> -> tensor<3xf32>
  return
}

// -----

func.func @reduce_window_negative_padding(%x: tensor<4xf32>) {
  // expected-error @+1 {{'ens.reduce_window' op padding entry 1 must be at least 0, got -1}}
  %0 = ens.reduce_window max, %x {window_dimensions = array<i64: 2>, padding = array<i64: 0, -1>} : tensor<4xf32> -> tensor<2xf32>
  return
}

// -----

func.func @reduce_window_padding_too_large(%x: tensor<4xf32>) {
  // expected-error @+1 {{'ens.reduce_window' op padding (1, 2) of dimension 0 must be below the window size 2}}
  %0 = ens.reduce_window max, %x {window_dimensions = array<i64: 2>, padding = array<i64: 1, 2>} : tensor<4xf32> -> tensor<6xf32>
  return
}

// -----

func.func @reduce_window_does_not_fit(%x: tensor<1xf32>) {
  // expected-error @+1 {{'ens.reduce_window' op window of size 3 does not fit dimension 0 of size 1 padded to 2}}
  %0 = ens.reduce_window max, %x {window_dimensions = array<i64: 3>, padding = array<i64: 1, 0>} : tensor<1xf32> -> tensor<1xf32>
  return
}

// -----

func.func @reduce_window_result_shape(%x: tensor<4xf32>) {
  // expected-error @+1 {{'ens.reduce_window' op result shape 2 does not match the shape 3 the window gives}}
  %0 = ens.reduce_window max, %x {window_dimensions = array<i64: 2>} : tensor<4xf32> -> tensor<2xf32>
  return
}
