// RUN: ens-opt %s --split-input-file --ens-cpu-lower-vectors \
// RUN:   | FileCheck %s --implicit-check-not=vector.contract \
// RUN:       --implicit-check-not=vector.outerproduct \
// RUN:       --implicit-check-not=vector.transfer_read \
// RUN:       --implicit-check-not=vector.multi_reduction \
// RUN:       --implicit-check-not=vector.transpose

// A contraction of a 2x1 column and a 1x4 row into a 2x4 accumulator (one
// step of a register tile's reduction) becomes one FMA per row: the row of
// %b times a broadcast element of %a, plus that row of the accumulator.
// CHECK-LABEL: func.func @contract
// CHECK-SAME:    (%[[A:.*]]: vector<2x1xf32>, %[[B:.*]]: vector<1x4xf32>, %[[ACC:.*]]: vector<2x4xf32>)
// CHECK:         %[[ROW:.*]] = vector.extract %[[B]][0] : vector<4xf32> from vector<1x4xf32>
// CHECK:         %[[A0:.*]] = vector.extract %[[A]][0, 0] : f32 from vector<2x1xf32>
// CHECK:         %[[S0:.*]] = vector.splat %[[A0]] : vector<4xf32>
// CHECK:         %[[C0:.*]] = vector.extract %[[ACC]][0] : vector<4xf32> from vector<2x4xf32>
// CHECK:         %[[R0:.*]] = vector.fma %[[S0]], %[[ROW]], %[[C0]] : vector<4xf32>
// CHECK:         %[[A1:.*]] = vector.extract %[[A]][1, 0] : f32 from vector<2x1xf32>
// CHECK:         %[[S1:.*]] = vector.splat %[[A1]] : vector<4xf32>
// CHECK:         %[[C1:.*]] = vector.extract %[[ACC]][1] : vector<4xf32> from vector<2x4xf32>
// CHECK:         %[[R1:.*]] = vector.fma %[[S1]], %[[ROW]], %[[C1]] : vector<4xf32>
#a = affine_map<(d0, d1, d2) -> (d0, d2)>
#b = affine_map<(d0, d1, d2) -> (d2, d1)>
#c = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @contract(%a: vector<2x1xf32>, %b: vector<1x4xf32>,
                    %acc: vector<2x4xf32>) -> vector<2x4xf32> {
  %r = vector.contract {indexing_maps = [#a, #b, #c],
                        iterator_types = ["parallel", "parallel", "reduction"],
                        kind = #vector.kind<add>}
      %a, %b, %acc : vector<2x1xf32>, vector<1x4xf32> into vector<2x4xf32>
  return %r : vector<2x4xf32>
}

// -----

// A convolution's tile: 3 output channels (a column of filter taps) by 2
// image rows of 4 columns. It is cut into one contraction per image row,
// and each becomes one FMA per channel: that image row times a broadcast
// tap, plus the channel's accumulator row for that image row. The lanes
// stay the image's columns (upstream would unroll along them).
// CHECK-LABEL: func.func @convolution_tile
// CHECK-SAME:    (%[[IMAGE:.*]]: vector<1x2x4xf32>, %[[W:.*]]: vector<3x1xf32>, %[[ACC:.*]]: vector<3x2x4xf32>)
// CHECK:         %[[ROW0:.*]] = vector.extract %[[IMAGE]][0, 0] : vector<4xf32> from vector<1x2x4xf32>
// CHECK:         %[[W0:.*]] = vector.extract %[[W]][0, 0] : f32 from vector<3x1xf32>
// CHECK:         %[[S0:.*]] = vector.splat %[[W0]] : vector<4xf32>
// CHECK:         %[[C00:.*]] = vector.extract %[[ACC]][0, 0] : vector<4xf32> from vector<3x2x4xf32>
// CHECK:         vector.fma %[[ROW0]], %[[S0]], %[[C00]] : vector<4xf32>
// CHECK:         %[[C10:.*]] = vector.extract %[[ACC]][1, 0] : vector<4xf32> from vector<3x2x4xf32>
// CHECK:         vector.fma %[[ROW0]], %{{.*}}, %[[C10]] : vector<4xf32>
// CHECK:         %[[C20:.*]] = vector.extract %[[ACC]][2, 0] : vector<4xf32> from vector<3x2x4xf32>
// CHECK:         vector.fma %[[ROW0]], %{{.*}}, %[[C20]] : vector<4xf32>
// CHECK:         %[[ROW1:.*]] = vector.extract %[[IMAGE]][0, 1] : vector<4xf32> from vector<1x2x4xf32>
// CHECK:         %[[C01:.*]] = vector.extract %[[ACC]][0, 1] : vector<4xf32> from vector<3x2x4xf32>
// CHECK:         vector.fma %[[ROW1]], %{{.*}}, %[[C01]] : vector<4xf32>
// CHECK:         %[[C11:.*]] = vector.extract %[[ACC]][1, 1] : vector<4xf32> from vector<3x2x4xf32>
// CHECK:         vector.fma %[[ROW1]], %{{.*}}, %[[C11]] : vector<4xf32>
// CHECK:         %[[C21:.*]] = vector.extract %[[ACC]][2, 1] : vector<4xf32> from vector<3x2x4xf32>
// CHECK:         vector.fma %[[ROW1]], %{{.*}}, %[[C21]] : vector<4xf32>
// CHECK-NOT:     vector.fma
#image = affine_map<(f, i, j, c) -> (c, i, j)>
#filter = affine_map<(f, i, j, c) -> (f, c)>
#out = affine_map<(f, i, j, c) -> (f, i, j)>
func.func @convolution_tile(%image: vector<1x2x4xf32>, %w: vector<3x1xf32>,
                            %acc: vector<3x2x4xf32>) -> vector<3x2x4xf32> {
  %r = vector.contract {indexing_maps = [#image, #filter, #out],
                        iterator_types = ["parallel", "parallel", "parallel",
                                          "reduction"],
                        kind = #vector.kind<add>}
      %image, %w, %acc : vector<1x2x4xf32>, vector<3x1xf32> into vector<3x2x4xf32>
  return %r : vector<3x2x4xf32>
}

// -----

// A filter gradient's tile as partial results per column tap: 2 output
// channels by 3 row taps of 4 lanes, where the output gradient (one row
// per channel) and the image (one row per row tap) both read the lanes and
// the one reduction step is of one iteration. Each accumulator row becomes
// one FMA of the two rows it reads, with no broadcast.
// CHECK-LABEL: func.func @filter_gradient_tile
// CHECK-SAME:    (%[[IMAGE:.*]]: vector<1x1x3x4xf32>, %[[DY:.*]]: vector<1x2x4xf32>, %[[ACC:.*]]: vector<2x1x3x4xf32>)
// CHECK:         %[[C00:.*]] = vector.extract %[[ACC]][0, 0, 0] : vector<4xf32> from vector<2x1x3x4xf32>
// CHECK:         %[[D00:.*]] = vector.extract %[[DY]][0, 0] : vector<4xf32> from vector<1x2x4xf32>
// CHECK:         %[[I00:.*]] = vector.extract %[[IMAGE]][0, 0, 0] : vector<4xf32> from vector<1x1x3x4xf32>
// CHECK:         vector.fma %[[I00]], %[[D00]], %[[C00]] : vector<4xf32>
// CHECK:         %[[C01:.*]] = vector.extract %[[ACC]][0, 0, 1] : vector<4xf32> from vector<2x1x3x4xf32>
// CHECK:         %[[D01:.*]] = vector.extract %[[DY]][0, 0] : vector<4xf32> from vector<1x2x4xf32>
// CHECK:         %[[I01:.*]] = vector.extract %[[IMAGE]][0, 0, 1] : vector<4xf32> from vector<1x1x3x4xf32>
// CHECK:         vector.fma %[[I01]], %[[D01]], %[[C01]] : vector<4xf32>
// CHECK:         %[[C02:.*]] = vector.extract %[[ACC]][0, 0, 2] : vector<4xf32> from vector<2x1x3x4xf32>
// CHECK:         %[[D02:.*]] = vector.extract %[[DY]][0, 0] : vector<4xf32> from vector<1x2x4xf32>
// CHECK:         %[[I02:.*]] = vector.extract %[[IMAGE]][0, 0, 2] : vector<4xf32> from vector<1x1x3x4xf32>
// CHECK:         vector.fma %[[I02]], %[[D02]], %[[C02]] : vector<4xf32>
// CHECK:         %[[C10:.*]] = vector.extract %[[ACC]][1, 0, 0] : vector<4xf32> from vector<2x1x3x4xf32>
// CHECK:         %[[D10:.*]] = vector.extract %[[DY]][0, 1] : vector<4xf32> from vector<1x2x4xf32>
// CHECK:         %[[I10:.*]] = vector.extract %[[IMAGE]][0, 0, 0] : vector<4xf32> from vector<1x1x3x4xf32>
// CHECK:         vector.fma %[[I10]], %[[D10]], %[[C10]] : vector<4xf32>
// CHECK:         %[[C11:.*]] = vector.extract %[[ACC]][1, 0, 1] : vector<4xf32> from vector<2x1x3x4xf32>
// CHECK:         %[[D11:.*]] = vector.extract %[[DY]][0, 1] : vector<4xf32> from vector<1x2x4xf32>
// CHECK:         %[[I11:.*]] = vector.extract %[[IMAGE]][0, 0, 1] : vector<4xf32> from vector<1x1x3x4xf32>
// CHECK:         vector.fma %[[I11]], %[[D11]], %[[C11]] : vector<4xf32>
// CHECK:         %[[C12:.*]] = vector.extract %[[ACC]][1, 0, 2] : vector<4xf32> from vector<2x1x3x4xf32>
// CHECK:         %[[D12:.*]] = vector.extract %[[DY]][0, 1] : vector<4xf32> from vector<1x2x4xf32>
// CHECK:         %[[I12:.*]] = vector.extract %[[IMAGE]][0, 0, 2] : vector<4xf32> from vector<1x1x3x4xf32>
// CHECK:         vector.fma %[[I12]], %[[D12]], %[[C12]] : vector<4xf32>
// CHECK-NOT:     vector.fma
#image = affine_map<(c, f, i, n, x) -> (n, c, i, x)>
#grad = affine_map<(c, f, i, n, x) -> (n, f, x)>
#acc = affine_map<(c, f, i, n, x) -> (f, c, i, x)>
func.func @filter_gradient_tile(%image: vector<1x1x3x4xf32>, %dy: vector<1x2x4xf32>,
                                %acc: vector<2x1x3x4xf32>) -> vector<2x1x3x4xf32> {
  %r = vector.contract {indexing_maps = [#image, #grad, #acc],
                        iterator_types = ["parallel", "parallel", "parallel", "reduction", "parallel"],
                        kind = #vector.kind<add>}
      %image, %dy, %acc : vector<1x1x3x4xf32>, vector<1x2x4xf32> into vector<2x1x3x4xf32>
  return %r : vector<2x1x3x4xf32>
}

// -----

// The same with two reduction steps: not one FMA per row, which would drop
// the second step; upstream's lowering sums both (along the channels).
// CHECK-LABEL: func.func @filter_gradient_two_steps
// CHECK:         vector.fma {{.*}} : vector<2xf32>
// CHECK-NOT:     vector.fma {{.*}} : vector<4xf32>
#image = affine_map<(f, i, n, x) -> (n, i, x)>
#grad = affine_map<(f, i, n, x) -> (n, f, x)>
#acc = affine_map<(f, i, n, x) -> (f, i, x)>
func.func @filter_gradient_two_steps(%image: vector<2x3x4xf32>, %dy: vector<2x2x4xf32>,
                                     %acc: vector<2x3x4xf32>) -> vector<2x3x4xf32> {
  %r = vector.contract {indexing_maps = [#image, #grad, #acc],
                        iterator_types = ["parallel", "parallel", "reduction", "parallel"],
                        kind = #vector.kind<add>}
      %image, %dy, %acc : vector<2x3x4xf32>, vector<2x2x4xf32> into vector<2x3x4xf32>
  return %r : vector<2x3x4xf32>
}

// -----

// A convolution over flattened image rows (ens-cpu-split-reductions): the
// first input, the image, reads the vector (4 positions) and the second, a
// column of filter taps, the 2 output channels, with no image row between
// them in the accumulator. Each channel still gets one FMA of the image
// vector and a broadcast tap (upstream would unroll along the lanes).
// CHECK-LABEL: func.func @flattened_rows_tile
// CHECK-SAME:    (%[[IMAGE:.*]]: vector<1x1x4xf32>, %[[W:.*]]: vector<1x2xf32>, %[[ACC:.*]]: vector<1x2x4xf32>)
// CHECK:         %[[ROW:.*]] = vector.extract %[[IMAGE]][0, 0] : vector<4xf32> from vector<1x1x4xf32>
// CHECK:         %[[W0:.*]] = vector.extract %[[W]][0, 0] : f32 from vector<1x2xf32>
// CHECK:         %[[S0:.*]] = vector.splat %[[W0]] : vector<4xf32>
// CHECK:         %[[C0:.*]] = vector.extract %[[ACC]][0, 0] : vector<4xf32> from vector<1x2x4xf32>
// CHECK:         vector.fma %[[ROW]], %[[S0]], %[[C0]] : vector<4xf32>
// CHECK:         %[[W1:.*]] = vector.extract %[[W]][0, 1] : f32 from vector<1x2xf32>
// CHECK:         %[[S1:.*]] = vector.splat %[[W1]] : vector<4xf32>
// CHECK:         %[[C1:.*]] = vector.extract %[[ACC]][0, 1] : vector<4xf32> from vector<1x2x4xf32>
// CHECK:         vector.fma %[[ROW]], %[[S1]], %[[C1]] : vector<4xf32>
// CHECK-NOT:     vector.fma
#image = affine_map<(n, c, p, f) -> (n, f, p)>
#filter = affine_map<(n, c, p, f) -> (f, c)>
#out = affine_map<(n, c, p, f) -> (n, c, p)>
func.func @flattened_rows_tile(%image: vector<1x1x4xf32>, %w: vector<1x2xf32>,
                               %acc: vector<1x2x4xf32>) -> vector<1x2x4xf32> {
  %r = vector.contract {indexing_maps = [#image, #filter, #out],
                        iterator_types = ["parallel", "parallel", "parallel",
                                          "reduction"],
                        kind = #vector.kind<add>}
      %image, %w, %acc : vector<1x1x4xf32>, vector<1x2xf32> into vector<1x2x4xf32>
  return %r : vector<1x2x4xf32>
}

// -----

// A 2-D transfer becomes a 1-D load per row.
// CHECK-LABEL: func.func @transfer
// CHECK-SAME:    (%[[M:.*]]: memref<2x4xf32>)
// CHECK-DAG:     %[[I0:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[I1:.*]] = arith.constant 1 : index
// CHECK:         vector.load %[[M]][%[[I0]], %[[I0]]] : memref<2x4xf32>, vector<4xf32>
// CHECK:         vector.load %[[M]][%[[I1]], %[[I0]]] : memref<2x4xf32>, vector<4xf32>
func.func @transfer(%m: memref<2x4xf32>) -> vector<2x4xf32> {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %v = vector.transfer_read %m[%c0, %c0], %zero {in_bounds = [true, true]}
      : memref<2x4xf32>, vector<2x4xf32>
  return %v : vector<2x4xf32>
}

// -----

// A reduction along the outer dimension adds whole rows.
// CHECK-LABEL: func.func @reduce
// CHECK-SAME:    (%[[V:.*]]: vector<4x8xf32>, %[[ACC:.*]]: vector<8xf32>)
// CHECK:         %[[V0:.*]] = vector.extract %[[V]][0] : vector<8xf32> from vector<4x8xf32>
// CHECK-NEXT:    %[[S0:.*]] = arith.addf %[[V0]], %[[ACC]] : vector<8xf32>
// CHECK:         %[[S1:.*]] = arith.addf %{{.*}}, %[[S0]] : vector<8xf32>
// CHECK:         %[[S2:.*]] = arith.addf %{{.*}}, %[[S1]] : vector<8xf32>
// CHECK:         %[[S3:.*]] = arith.addf %{{.*}}, %[[S2]] : vector<8xf32>
// CHECK-NEXT:    return %[[S3]]
func.func @reduce(%v: vector<4x8xf32>, %acc: vector<8xf32>) -> vector<8xf32> {
  %r = vector.multi_reduction <add>, %v, %acc [0]
      : vector<4x8xf32> to vector<8xf32>
  return %r : vector<8xf32>
}

// -----

// A transpose becomes a shuffle of the flattened rows.
// CHECK-LABEL: func.func @transpose
// CHECK:         vector.shuffle %{{.*}}, %{{.*}} [0, 4, 1, 5, 2, 6, 3, 7] : vector<8xf32>, vector<8xf32>
func.func @transpose(%v: vector<2x4xf32>) -> vector<4x2xf32> {
  %t = vector.transpose %v, [1, 0] : vector<2x4xf32> to vector<4x2xf32>
  return %t : vector<4x2xf32>
}

// -----

// A tile of 8 rows of 2 lanes (an elementwise op along a pooling window's
// 2 columns and the columns of windows) is computed as one 1-D vector of
// 16: its contiguous transfers become 1-D loads and stores of the
// collapsed buffer, the broadcast operand is interleaved into 16 lanes,
// and the addition acts on the whole vector. Rows of 8 lanes stay rows.
// CHECK-LABEL: func.func @narrow_rows
// CHECK:         %[[IN:.*]] = memref.collapse_shape %{{.*}} {{\[}}[0, 1, 2]] : memref<3x8x2xf32> into memref<48xf32>
// CHECK:         %[[R:.*]] = vector.load %[[IN]][%{{.*}}] : memref<48xf32>, vector<16xf32>
// CHECK:         %[[S:.*]] = arith.addf %[[R]], %{{.*}} : vector<16xf32>
// CHECK:         %[[OUT:.*]] = memref.collapse_shape %{{.*}} {{\[}}[0, 1, 2]] : memref<3x8x2xf32> into memref<48xf32>
// CHECK:         vector.store %[[S]], %[[OUT]][%{{.*}}] : memref<48xf32>, vector<16xf32>
// CHECK-LABEL: func.func @wide_rows
// CHECK-NOT:     memref.collapse_shape
// CHECK:         vector.load %{{.*}} : memref<3x2x8xf32>, vector<8xf32>
// CHECK:         vector.load %{{.*}} : memref<3x2x8xf32>, vector<8xf32>
// CHECK:         arith.addf %{{.*}} : vector<1x2x8xf32>
func.func @narrow_rows(%m: memref<3x8x2xf32>, %out: memref<3x8x2xf32>, %v: vector<8xf32>, %i: index) {
  %c0 = arith.constant 0 : index
  %pad = arith.constant 0.0 : f32
  %r = vector.transfer_read %m[%i, %c0, %c0], %pad {in_bounds = [true, true, true]} : memref<3x8x2xf32>, vector<1x8x2xf32>
  %b = vector.broadcast %v : vector<8xf32> to vector<1x2x8xf32>
  %t = vector.transpose %b, [0, 2, 1] : vector<1x2x8xf32> to vector<1x8x2xf32>
  %s = arith.addf %r, %t : vector<1x8x2xf32>
  vector.transfer_write %s, %out[%i, %c0, %c0] {in_bounds = [true, true, true]} : vector<1x8x2xf32>, memref<3x8x2xf32>
  return
}
func.func @wide_rows(%m: memref<3x2x8xf32>, %out: memref<3x2x8xf32>, %i: index) {
  %c0 = arith.constant 0 : index
  %pad = arith.constant 0.0 : f32
  %r = vector.transfer_read %m[%i, %c0, %c0], %pad {in_bounds = [true, true, true]} : memref<3x2x8xf32>, vector<1x2x8xf32>
  %s = arith.addf %r, %r : vector<1x2x8xf32>
  vector.transfer_write %s, %out[%i, %c0, %c0] {in_bounds = [true, true, true]} : vector<1x2x8xf32>, memref<3x2x8xf32>
  return
}

// -----

// The same tile written into the interior of a padded image (rows of 8
// elements, 10 apart): contiguous along its last two dimensions alone, it
// is still one 1-D store of 8, through a view that collapses those two.
// Where its rows are not contiguous with each other (3 apart), each row of
// 2 is stored on its own.
// CHECK-LABEL: func.func @narrow_rows_padded
// CHECK:         %[[OUT:.*]] = memref.collapse_shape %{{.*}} {{\[}}[0], [1, 2]] : memref<3x4x2xf32, strided<[10, 2, 1], offset: 11>> into memref<3x8xf32, strided<[10, 1], offset: 11>>
// CHECK:         vector.store %{{.*}}, %[[OUT]][%{{.*}}, %c0] : memref<3x8xf32, strided<[10, 1], offset: 11>>, vector<8xf32>
// CHECK-LABEL: func.func @narrow_rows_apart
// CHECK-NOT:     memref.collapse_shape
// CHECK-COUNT-4: vector.store %{{.*}} : memref<3x4x2xf32, strided<[12, 3, 1]>>, vector<2xf32>
func.func @narrow_rows_padded(%out: memref<3x4x2xf32, strided<[10, 2, 1], offset: 11>>, %v: vector<1x4x2xf32>, %i: index) {
  %c0 = arith.constant 0 : index
  vector.transfer_write %v, %out[%i, %c0, %c0] {in_bounds = [true, true, true]} : vector<1x4x2xf32>, memref<3x4x2xf32, strided<[10, 2, 1], offset: 11>>
  return
}
func.func @narrow_rows_apart(%out: memref<3x4x2xf32, strided<[12, 3, 1]>>, %v: vector<1x4x2xf32>, %i: index) {
  %c0 = arith.constant 0 : index
  vector.transfer_write %v, %out[%i, %c0, %c0] {in_bounds = [true, true, true]} : vector<1x4x2xf32>, memref<3x4x2xf32, strided<[12, 3, 1]>>
  return
}

// -----

// A read of 8 elements 2 apart (one tap of 2x2 pooling windows) loads the
// run of 15 elements that holds them as two vectors of 8, the first 8 and
// the 8 that end at the last (never past it), through a view with a unit
// stride, and shuffles the even elements out. A stride of 3 keeps its
// element-at-a-time loop.
// CHECK-LABEL: func.func @stride_two
// CHECK:         %[[CONTIGUOUS:.*]] = memref.reinterpret_cast %{{.*}} to offset: [1], sizes: [4, 15], strides: [16, 1]
// CHECK:         %[[LOW:.*]] = vector.load %[[CONTIGUOUS]][%{{.*}}, %c0] : memref<4x15xf32, strided<[16, 1], offset: 1>>, vector<8xf32>
// CHECK:         %[[HIGH:.*]] = vector.load %[[CONTIGUOUS]][%{{.*}}, %c7] : memref<4x15xf32, strided<[16, 1], offset: 1>>, vector<8xf32>
// CHECK:         %[[PICKED:.*]] = vector.shuffle %[[LOW]], %[[HIGH]] [0, 2, 4, 6, 9, 11, 13, 15] : vector<8xf32>, vector<8xf32>
// CHECK:         return %[[PICKED]]
// CHECK-LABEL: func.func @stride_three
// CHECK-NOT:     memref.reinterpret_cast
// CHECK:         scf.for
// CHECK:           memref.load %{{.*}} : memref<4x5xf32, strided<[15, 3]>>
func.func @stride_two(%m: memref<4x16xf32>, %i: index) -> vector<8xf32> {
  %c0 = arith.constant 0 : index
  %pad = arith.constant 0.0 : f32
  %s = memref.subview %m[0, 1] [4, 8] [1, 2] : memref<4x16xf32> to memref<4x8xf32, strided<[16, 2], offset: 1>>
  %r = vector.transfer_read %s[%i, %c0], %pad {in_bounds = [true]} : memref<4x8xf32, strided<[16, 2], offset: 1>>, vector<8xf32>
  return %r : vector<8xf32>
}
func.func @stride_three(%m: memref<4x15xf32>, %i: index) -> vector<4xf32> {
  %c0 = arith.constant 0 : index
  %pad = arith.constant 0.0 : f32
  %s = memref.subview %m[0, 0] [4, 5] [1, 3] : memref<4x15xf32> to memref<4x5xf32, strided<[15, 3]>>
  %r = vector.transfer_read %s[%i, %c0], %pad {in_bounds = [true]} : memref<4x5xf32, strided<[15, 3]>>, vector<4xf32>
  return %r : vector<4xf32>
}
