// RUN: ens-opt %s --split-input-file --ens-cpu-hoist-transfers | FileCheck %s

// The accumulator of a reduction loop, read and written at the same indices
// in every iteration, is read once before the loop, carried through it in a
// register and written once after it. The operands read at indices that
// change stay in the loop.
// CHECK-LABEL: func.func @accumulator
// CHECK-SAME:    (%[[A:.*]]: memref<8x16xf32>, %[[B:.*]]: memref<16x4xf32>, %[[OUT:.*]]: memref<8x4xf32>)
// CHECK:         %[[INIT:.*]] = vector.transfer_read %[[OUT]][%c0, %c0]{{.*}} : memref<8x4xf32>, vector<8x4xf32>
// CHECK-NEXT:    %[[SUM:.*]] = scf.for %[[K:.*]] = {{.*}} iter_args(%[[ACC:.*]] = %[[INIT]]) -> (vector<8x4xf32>)
// CHECK-NEXT:      %[[VA:.*]] = vector.transfer_read %[[A]][%c0, %[[K]]]
// CHECK-NEXT:      %[[VB:.*]] = vector.transfer_read %[[B]][%[[K]], %c0]
// CHECK-NEXT:      %[[R:.*]] = vector.contract {{.*}} %[[VA]], %[[VB]], %[[ACC]]
// CHECK-NEXT:      scf.yield %[[R]] : vector<8x4xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    vector.transfer_write %[[SUM]], %[[OUT]][%c0, %c0]{{.*}} : vector<8x4xf32>, memref<8x4xf32>
// CHECK-NEXT:    return
#a = affine_map<(d0, d1, d2) -> (d0, d2)>
#b = affine_map<(d0, d1, d2) -> (d2, d1)>
#c = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @accumulator(%a: memref<8x16xf32>, %b: memref<16x4xf32>,
                       %out: memref<8x4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %zero = arith.constant 0.0 : f32
  scf.for %k = %c0 to %c16 step %c1 {
    %va = vector.transfer_read %a[%c0, %k], %zero {in_bounds = [true, true]}
        : memref<8x16xf32>, vector<8x1xf32>
    %vb = vector.transfer_read %b[%k, %c0], %zero {in_bounds = [true, true]}
        : memref<16x4xf32>, vector<1x4xf32>
    %acc = vector.transfer_read %out[%c0, %c0], %zero
        {in_bounds = [true, true]} : memref<8x4xf32>, vector<8x4xf32>
    %r = vector.contract {indexing_maps = [#a, #b, #c],
                          iterator_types = ["parallel", "parallel",
                                            "reduction"],
                          kind = #vector.kind<add>}
        %va, %vb, %acc : vector<8x1xf32>, vector<1x4xf32> into vector<8x4xf32>
    vector.transfer_write %r, %out[%c0, %c0] {in_bounds = [true, true]}
        : vector<8x4xf32>, memref<8x4xf32>
  }
  return
}

// -----

// A vector read and written at indices that change with the loop is a
// different vector in each iteration: nothing moves.
// CHECK-LABEL: func.func @moving
// CHECK:         scf.for %[[I:.*]] =
// CHECK-NEXT:      %[[V:.*]] = vector.transfer_read %{{.*}}[%[[I]]]
// CHECK-NEXT:      %[[E:.*]] = math.exp %[[V]]
// CHECK-NEXT:      vector.transfer_write %[[E]], %{{.*}}[%[[I]]]
func.func @moving(%buffer: memref<64xf32>) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant 0.0 : f32
  scf.for %i = %c0 to %c64 step %c4 {
    %v = vector.transfer_read %buffer[%i], %zero {in_bounds = [true]}
        : memref<64xf32>, vector<4xf32>
    %e = math.exp %v : vector<4xf32>
    vector.transfer_write %e, %buffer[%i] {in_bounds = [true]}
        : vector<4xf32>, memref<64xf32>
  }
  return
}

// -----

// A convolution's accumulator is read as a 1x8x4 vector through a map that
// skips a unit dimension, and written back in the vectorizer's longer form:
// with the unit dimension put back by a broadcast and a transpose. The
// write then writes the 1x8x4 vector through the read's map, and the pair
// leaves the loop.
// CHECK-LABEL: func.func @accumulator_with_unit_dims
// CHECK-SAME:    (%[[X:.*]]: memref<16xf32>, %[[OUT:.*]]: memref<2x8x4x8xf32>)
// CHECK:         %[[INIT:.*]] = vector.transfer_read %[[OUT]][%c1, %c0, %c2, %c4]{{.*}}permutation_map = #[[MAP:.*]]} : memref<2x8x4x8xf32>, vector<1x8x4xf32>
// CHECK-NEXT:    %[[SUM:.*]] = scf.for %{{.*}} iter_args(%[[ACC:.*]] = %[[INIT]]) -> (vector<1x8x4xf32>)
// CHECK:           %[[R:.*]] = arith.addf %[[ACC]], %{{.*}} : vector<1x8x4xf32>
// CHECK-NEXT:      scf.yield %[[R]] : vector<1x8x4xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    vector.transfer_write %[[SUM]], %[[OUT]][%c1, %c0, %c2, %c4] {in_bounds = [true, true, true], permutation_map = #[[MAP]]} : vector<1x8x4xf32>, memref<2x8x4x8xf32>
// CHECK-NEXT:    return
#skip = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
func.func @accumulator_with_unit_dims(%x: memref<16xf32>,
                                      %out: memref<2x8x4x8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %zero = arith.constant 0.0 : f32
  scf.for %k = %c0 to %c16 step %c4 {
    %v = vector.transfer_read %x[%k], %zero {in_bounds = [true]}
        : memref<16xf32>, vector<4xf32>
    %b = vector.broadcast %v : vector<4xf32> to vector<1x8x4xf32>
    %acc = vector.transfer_read %out[%c1, %c0, %c2, %c4], %zero
        {in_bounds = [true, true, true], permutation_map = #skip}
        : memref<2x8x4x8xf32>, vector<1x8x4xf32>
    %r = arith.addf %acc, %b : vector<1x8x4xf32>
    %wide = vector.broadcast %r : vector<1x8x4xf32> to vector<1x1x8x4xf32>
    %t = vector.transpose %wide, [1, 2, 0, 3]
        : vector<1x1x8x4xf32> to vector<1x8x1x4xf32>
    vector.transfer_write %t, %out[%c1, %c0, %c2, %c4]
        {in_bounds = [true, true, true, true]}
        : vector<1x8x1x4xf32>, memref<2x8x4x8xf32>
  }
  return
}

// -----

// The accumulator of one part of a contraction split at a remainder lives in
// a subview of the result: its transfers move onto the result itself, at
// the subview's offset plus their indices, and then out of the loop.
// CHECK-LABEL: func.func @accumulator_in_subview
// CHECK-SAME:    (%[[A:.*]]: memref<8x16xf32>, %[[OUT:.*]]: memref<10x4xf32>, %[[I:.*]]: index)
// CHECK:         %[[ROW:.*]] = affine.apply #{{.*}}()[%[[I]]]
// CHECK:         %[[INIT:.*]] = vector.transfer_read %[[OUT]][%[[ROW]], %c0]{{.*}} : memref<10x4xf32>, vector<2x4xf32>
// CHECK-NEXT:    %[[SUM:.*]] = scf.for {{.*}} iter_args(%[[ACC:.*]] = %[[INIT]]) -> (vector<2x4xf32>)
// CHECK:         vector.transfer_write %[[SUM]], %[[OUT]][%[[ROW]], %c0]{{.*}} : vector<2x4xf32>, memref<10x4xf32>
// CHECK-NOT:     memref.subview
func.func @accumulator_in_subview(%a: memref<8x16xf32>, %out: memref<10x4xf32>,
                                  %i: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %zero = arith.constant 0.0 : f32
  %tile = memref.subview %out[8, 0] [2, 4] [1, 1]
      : memref<10x4xf32> to memref<2x4xf32, strided<[4, 1], offset: 32>>
  scf.for %k = %c0 to %c16 step %c1 {
    %va = vector.transfer_read %a[%c0, %k], %zero {in_bounds = [true, true]}
        : memref<8x16xf32>, vector<2x4xf32>
    %acc = vector.transfer_read %tile[%i, %c0], %zero {in_bounds = [true, true]}
        : memref<2x4xf32, strided<[4, 1], offset: 32>>, vector<2x4xf32>
    %r = arith.addf %va, %acc : vector<2x4xf32>
    vector.transfer_write %r, %tile[%i, %c0] {in_bounds = [true, true]}
        : vector<2x4xf32>, memref<2x4xf32, strided<[4, 1], offset: 32>>
  }
  return
}

// -----

// A subview that something other than a transfer uses (here a copy) is left
// alone, and so is its accumulator: the hoisting could not see the copy's
// access to the same memory.
// CHECK-LABEL: func.func @subview_copied
// CHECK:         %[[TILE:.*]] = memref.subview
// CHECK:         scf.for
// CHECK:           vector.transfer_read %[[TILE]]
// CHECK:           vector.transfer_write {{.*}}, %[[TILE]]
// CHECK:         memref.copy %[[TILE]]
func.func @subview_copied(%a: memref<8x16xf32>, %out: memref<10x4xf32>,
                          %copy: memref<2x4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %zero = arith.constant 0.0 : f32
  %tile = memref.subview %out[8, 0] [2, 4] [1, 1]
      : memref<10x4xf32> to memref<2x4xf32, strided<[4, 1], offset: 32>>
  scf.for %k = %c0 to %c16 step %c1 {
    %va = vector.transfer_read %a[%c0, %k], %zero {in_bounds = [true, true]}
        : memref<8x16xf32>, vector<2x4xf32>
    %acc = vector.transfer_read %tile[%c0, %c0], %zero {in_bounds = [true, true]}
        : memref<2x4xf32, strided<[4, 1], offset: 32>>, vector<2x4xf32>
    %r = arith.addf %va, %acc : vector<2x4xf32>
    vector.transfer_write %r, %tile[%c0, %c0] {in_bounds = [true, true]}
        : vector<2x4xf32>, memref<2x4xf32, strided<[4, 1], offset: 32>>
  }
  memref.copy %tile, %copy
      : memref<2x4xf32, strided<[4, 1], offset: 32>> to memref<2x4xf32>
  return
}

// -----

// An accumulator that its tile filled with zeros just before the reduction
// loop (ens-cpu-tile-and-vectorize) starts from the zeros once its read is
// hoisted: the read takes the written vector, and the zeros' write goes,
// since the write after the loop overwrites it and nothing reads it.
// CHECK-LABEL: func.func @filled_accumulator
// CHECK-SAME:    (%[[A:.*]]: memref<8x16xf32>, %[[B:.*]]: memref<16x4xf32>, %[[OUT:.*]]: memref<8x4xf32>)
// CHECK:         %[[ZEROS:.*]] = arith.constant dense<0.000000e+00> : vector<8x4xf32>
// CHECK-NOT:     vector.transfer_write
// CHECK:         %[[SUM:.*]] = scf.for {{.*}} iter_args(%{{.*}} = %[[ZEROS]]) -> (vector<8x4xf32>)
// CHECK:         vector.transfer_write %[[SUM]], %[[OUT]][%c0, %c0]{{.*}} : vector<8x4xf32>, memref<8x4xf32>
// CHECK-NEXT:    return
#a = affine_map<(d0, d1, d2) -> (d0, d2)>
#b = affine_map<(d0, d1, d2) -> (d2, d1)>
#c = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @filled_accumulator(%a: memref<8x16xf32>, %b: memref<16x4xf32>,
                              %out: memref<8x4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %zero = arith.constant 0.0 : f32
  %zeros = arith.constant dense<0.0> : vector<8x4xf32>
  vector.transfer_write %zeros, %out[%c0, %c0] {in_bounds = [true, true]}
      : vector<8x4xf32>, memref<8x4xf32>
  scf.for %k = %c0 to %c16 step %c1 {
    %va = vector.transfer_read %a[%c0, %k], %zero {in_bounds = [true, true]}
        : memref<8x16xf32>, vector<8x1xf32>
    %vb = vector.transfer_read %b[%k, %c0], %zero {in_bounds = [true, true]}
        : memref<16x4xf32>, vector<1x4xf32>
    %acc = vector.transfer_read %out[%c0, %c0], %zero
        {in_bounds = [true, true]} : memref<8x4xf32>, vector<8x4xf32>
    %r = vector.contract {indexing_maps = [#a, #b, #c],
                          iterator_types = ["parallel", "parallel",
                                            "reduction"],
                          kind = #vector.kind<add>}
        %va, %vb, %acc : vector<8x1xf32>, vector<1x4xf32> into vector<8x4xf32>
    vector.transfer_write %r, %out[%c0, %c0] {in_bounds = [true, true]}
        : vector<8x4xf32>, memref<8x4xf32>
  }
  return
}

// -----

// Zeros written over only part of the accumulator (its first 4 rows) are
// not what the read gets: the read stays, and so does the write.
// CHECK-LABEL: func.func @partly_filled
// CHECK:         vector.transfer_write %{{.*}}, %[[OUT:.*]][%c0, %c0]{{.*}} : vector<4x4xf32>, memref<8x4xf32>
// CHECK-NEXT:    %[[INIT:.*]] = vector.transfer_read %[[OUT]][%c0, %c0]{{.*}} : memref<8x4xf32>, vector<8x4xf32>
// CHECK-NEXT:    scf.for {{.*}} iter_args(%{{.*}} = %[[INIT]]) -> (vector<8x4xf32>)
#a = affine_map<(d0, d1, d2) -> (d0, d2)>
#b = affine_map<(d0, d1, d2) -> (d2, d1)>
#c = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @partly_filled(%a: memref<8x16xf32>, %b: memref<16x4xf32>,
                         %out: memref<8x4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %zero = arith.constant 0.0 : f32
  %zeros = arith.constant dense<0.0> : vector<4x4xf32>
  vector.transfer_write %zeros, %out[%c0, %c0] {in_bounds = [true, true]}
      : vector<4x4xf32>, memref<8x4xf32>
  scf.for %k = %c0 to %c16 step %c1 {
    %va = vector.transfer_read %a[%c0, %k], %zero {in_bounds = [true, true]}
        : memref<8x16xf32>, vector<8x1xf32>
    %vb = vector.transfer_read %b[%k, %c0], %zero {in_bounds = [true, true]}
        : memref<16x4xf32>, vector<1x4xf32>
    %acc = vector.transfer_read %out[%c0, %c0], %zero
        {in_bounds = [true, true]} : memref<8x4xf32>, vector<8x4xf32>
    %r = vector.contract {indexing_maps = [#a, #b, #c],
                          iterator_types = ["parallel", "parallel",
                                            "reduction"],
                          kind = #vector.kind<add>}
        %va, %vb, %acc : vector<8x1xf32>, vector<1x4xf32> into vector<8x4xf32>
    vector.transfer_write %r, %out[%c0, %c0] {in_bounds = [true, true]}
        : vector<8x4xf32>, memref<8x4xf32>
  }
  return
}
