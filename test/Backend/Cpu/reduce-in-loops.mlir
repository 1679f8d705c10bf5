// RUN: ens-opt %s --split-input-file --ens-cpu-reduce-in-loops | FileCheck %s
// RUN: ens-opt %s --split-input-file --ens-cpu-reduce-in-loops=min-result-bytes=2048 | FileCheck %s --check-prefix=SMALL-L2

// A bias gradient over the slices of a loop over 5 examples (1.5 MB): each
// iteration sums its slice over the image into a partial result, which
// the loop writes as a second result, and the sum over the examples reads
// the 5 partial results after the loop.
// CHECK-LABEL: func.func @bias
// CHECK:         %[[PARTS:.*]] = tensor.empty() : tensor<5x3xf32>
// CHECK:         %[[LOOP:.*]]:2 = scf.forall (%[[I:.*]]) in (5) shared_outs(%[[O:.*]] = %{{.*}}, %[[Q:.*]] = %[[PARTS]]) -> (tensor<5x3x140x180xf32>, tensor<5x3xf32>)
// CHECK:           %[[S:[0-9]+]] = linalg.generic {{.*}} ins(%extracted_slice : tensor<1x3x140x180xf32>)
// CHECK:           %[[START:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<1x3xf32>)
// CHECK:           %[[P:.*]] = linalg.generic {indexing_maps = [#{{.*}}, #[[PMAP:.*]]], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%[[S]] : tensor<1x3x140x180xf32>) outs(%[[START]] : tensor<1x3xf32>)
// CHECK:             arith.addf
// CHECK:           scf.forall.in_parallel
// CHECK-NEXT:        tensor.parallel_insert_slice %[[S]] into %[[O]][%[[I]], 0, 0, 0] [1, 3, 140, 180]
// CHECK-NEXT:        tensor.parallel_insert_slice %[[P]] into %[[Q]][%[[I]], 0] [1, 3] [1, 1] : tensor<1x3xf32> into tensor<5x3xf32>
// CHECK:         %[[ZEROS:.*]] = linalg.fill
// CHECK:         %[[DB:.*]] = linalg.generic {{.*}} iterator_types = ["reduction", "parallel"]} ins(%[[LOOP]]#1 : tensor<5x3xf32>) outs(%[[ZEROS]] : tensor<3xf32>)
// CHECK:           arith.addf
// CHECK:         return %[[DB]]
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#ch = affine_map<(d0, d1, d2, d3) -> (d1)>
func.func @bias(%x: tensor<5x3x140x180xf32>) -> tensor<3xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<5x3x140x180xf32>
  %y = scf.forall (%i) in (5) shared_outs(%o = %e) -> (tensor<5x3x140x180xf32>) {
    %xs = tensor.extract_slice %x[%i, 0, 0, 0] [1, 3, 140, 180] [1, 1, 1, 1] : tensor<5x3x140x180xf32> to tensor<1x3x140x180xf32>
    %se = tensor.empty() : tensor<1x3x140x180xf32>
    %s = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
        ins(%xs : tensor<1x3x140x180xf32>) outs(%se : tensor<1x3x140x180xf32>) {
    ^bb0(%a: f32, %b: f32):
      %m = arith.mulf %a, %a : f32
      linalg.yield %m : f32
    } -> tensor<1x3x140x180xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %s into %o[%i, 0, 0, 0] [1, 3, 140, 180] [1, 1, 1, 1] : tensor<1x3x140x180xf32> into tensor<5x3x140x180xf32>
    }
  }
  %ze = tensor.empty() : tensor<3xf32>
  %zeros = linalg.fill ins(%zero : f32) outs(%ze : tensor<3xf32>) -> tensor<3xf32>
  %db = linalg.generic {indexing_maps = [#id4, #ch], iterator_types = ["reduction", "parallel", "reduction", "reduction"]}
      ins(%y : tensor<5x3x140x180xf32>) outs(%zeros : tensor<3xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  } -> tensor<3xf32>
  return %db : tensor<3xf32>
}

// -----

// The loop's result read through a collapse that keeps the first dimension
// alone (the routed adjoint of a max pooling, in its windows' shape): the
// slice is collapsed alike in the loop. A max has a neutral element too.
// CHECK-LABEL: func.func @collapsed_max
// CHECK:         scf.forall (%{{.*}}) in (5) shared_outs({{.*}}) -> (tensor<5x3x128x160xf32>, tensor<5x3xf32>)
// CHECK:           %[[S:[0-9]+]] = linalg.generic {{.*}} ins(%extracted_slice : tensor<1x3x128x160xf32>)
// CHECK:           %[[FLAT:.*]] = tensor.collapse_shape %[[S]] {{\[\[}}0], [1], [2, 3]] : tensor<1x3x128x160xf32> into tensor<1x3x20480xf32>
// CHECK:           %[[START:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<1x3xf32>)
// CHECK:           linalg.generic {{.*}} ins(%[[FLAT]] : tensor<1x3x20480xf32>) outs(%[[START]] : tensor<1x3xf32>)
// CHECK:             arith.maximumf
// CHECK:         linalg.generic {{.*}} iterator_types = ["reduction", "parallel"]} ins(%{{.*}}#1 : tensor<5x3xf32>)
// CHECK:           arith.maximumf
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#ch = affine_map<(d0, d1, d2) -> (d1)>
func.func @collapsed_max(%x: tensor<5x3x128x160xf32>, %init: tensor<3xf32>) -> tensor<3xf32> {
  %e = tensor.empty() : tensor<5x3x128x160xf32>
  %y = scf.forall (%i) in (5) shared_outs(%o = %e) -> (tensor<5x3x128x160xf32>) {
    %xs = tensor.extract_slice %x[%i, 0, 0, 0] [1, 3, 128, 160] [1, 1, 1, 1] : tensor<5x3x128x160xf32> to tensor<1x3x128x160xf32>
    %se = tensor.empty() : tensor<1x3x128x160xf32>
    %s = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
        ins(%xs : tensor<1x3x128x160xf32>) outs(%se : tensor<1x3x128x160xf32>) {
    ^bb0(%a: f32, %b: f32):
      %m = arith.mulf %a, %a : f32
      linalg.yield %m : f32
    } -> tensor<1x3x128x160xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %s into %o[%i, 0, 0, 0] [1, 3, 128, 160] [1, 1, 1, 1] : tensor<1x3x128x160xf32> into tensor<5x3x128x160xf32>
    }
  }
  %flat = tensor.collapse_shape %y [[0], [1], [2, 3]] : tensor<5x3x128x160xf32> into tensor<5x3x20480xf32>
  %m = linalg.generic {indexing_maps = [#id3, #ch], iterator_types = ["reduction", "parallel", "reduction"]}
      ins(%flat : tensor<5x3x20480xf32>) outs(%init : tensor<3xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.maximumf %a, %acc : f32
    linalg.yield %s : f32
  } -> tensor<3xf32>
  return %m : tensor<3xf32>
}

// -----

// Not rewritten: a sum over the loop's dimension alone, whose partial
// results would be as large as the slices; a sum per example (the loop's
// dimension parallel); a combiner with no neutral element (a subtraction);
// and a loop whose iterations write slices of two rows, which are not the
// reduction's first dimension by iteration.
// CHECK-LABEL: func.func @not_rewritten
// CHECK:         scf.forall (%{{.*}}) in (5) shared_outs(%{{.*}} = %{{.*}}) -> (tensor<5x3x20000xf32>)
// CHECK-NOT:     tensor<5x3xf32>
// CHECK-NOT:     tensor<1x3xf32>
// CHECK:         linalg.generic {{.*}} iterator_types = ["reduction", "parallel", "parallel"]} ins(%{{.*}} : tensor<5x3x20000xf32>)
// CHECK:         linalg.generic {{.*}} iterator_types = ["parallel", "reduction", "reduction"]} ins(%{{.*}} : tensor<5x3x20000xf32>)
// CHECK:         linalg.generic {{.*}} iterator_types = ["reduction", "parallel", "reduction"]} ins(%{{.*}} : tensor<5x3x20000xf32>)
// CHECK:           arith.subf
// CHECK:         scf.forall (%{{.*}}) in (3) shared_outs(%{{.*}} = %{{.*}}) -> (tensor<6x3x20000xf32>)
// CHECK:         linalg.generic {{.*}} iterator_types = ["reduction", "parallel", "reduction"]} ins(%{{.*}} : tensor<6x3x20000xf32>)
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#ch = affine_map<(d0, d1, d2) -> (d1)>
#px = affine_map<(d0, d1, d2) -> (d1, d2)>
#ex = affine_map<(d0, d1, d2) -> (d0)>
func.func @not_rewritten(%x: tensor<5x3x20000xf32>, %x6: tensor<6x3x20000xf32>, %px: tensor<3x20000xf32>,
                         %ex: tensor<5xf32>, %ch: tensor<3xf32>)
    -> (tensor<3x20000xf32>, tensor<5xf32>, tensor<3xf32>, tensor<3xf32>) {
  %e = tensor.empty() : tensor<5x3x20000xf32>
  %y = scf.forall (%i) in (5) shared_outs(%o = %e) -> (tensor<5x3x20000xf32>) {
    %xs = tensor.extract_slice %x[%i, 0, 0] [1, 3, 20000] [1, 1, 1] : tensor<5x3x20000xf32> to tensor<1x3x20000xf32>
    %se = tensor.empty() : tensor<1x3x20000xf32>
    %s = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
        ins(%xs : tensor<1x3x20000xf32>) outs(%se : tensor<1x3x20000xf32>) {
    ^bb0(%a: f32, %b: f32):
      %m = arith.mulf %a, %a : f32
      linalg.yield %m : f32
    } -> tensor<1x3x20000xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %s into %o[%i, 0, 0] [1, 3, 20000] [1, 1, 1] : tensor<1x3x20000xf32> into tensor<5x3x20000xf32>
    }
  }
  %over_loop = linalg.generic {indexing_maps = [#id3, #px], iterator_types = ["reduction", "parallel", "parallel"]}
      ins(%y : tensor<5x3x20000xf32>) outs(%px : tensor<3x20000xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  } -> tensor<3x20000xf32>
  %per_example = linalg.generic {indexing_maps = [#id3, #ex], iterator_types = ["parallel", "reduction", "reduction"]}
      ins(%y : tensor<5x3x20000xf32>) outs(%ex : tensor<5xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  } -> tensor<5xf32>
  %no_neutral = linalg.generic {indexing_maps = [#id3, #ch], iterator_types = ["reduction", "parallel", "reduction"]}
      ins(%y : tensor<5x3x20000xf32>) outs(%ch : tensor<3xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.subf %acc, %a : f32
    linalg.yield %s : f32
  } -> tensor<3xf32>
  %e6 = tensor.empty() : tensor<6x3x20000xf32>
  %y6 = scf.forall (%i) in (3) shared_outs(%o = %e6) -> (tensor<6x3x20000xf32>) {
    %i2 = affine.apply affine_map<(d0) -> (d0 * 2)>(%i)
    %xs = tensor.extract_slice %x6[%i2, 0, 0] [2, 3, 20000] [1, 1, 1] : tensor<6x3x20000xf32> to tensor<2x3x20000xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %xs into %o[%i2, 0, 0] [2, 3, 20000] [1, 1, 1] : tensor<2x3x20000xf32> into tensor<6x3x20000xf32>
    }
  }
  %two_rows = linalg.generic {indexing_maps = [#id3, #ch], iterator_types = ["reduction", "parallel", "reduction"]}
      ins(%y6 : tensor<6x3x20000xf32>) outs(%ch : tensor<3xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  } -> tensor<3xf32>
  return %over_loop, %per_example, %no_neutral, %two_rows : tensor<3x20000xf32>, tensor<5xf32>, tensor<3xf32>, tensor<3xf32>
}

// -----

// A filter gradient: its other input, the padded image, read at the
// loop's dimension as its first dimension, is computed after the loop from
// the function's argument; that op moves before the loop, and each
// iteration reads its example's image. The partial result (4 x 3 x 3) is
// far smaller than the slice (4 x 128 x 128).
// CHECK-LABEL: func.func @filter_gradient
// CHECK:         %[[IMAGE:.*]] = linalg.generic {{.*}} ins(%{{.*}} : tensor<5x130x130xf32>)
// CHECK:         %[[LOOP:.*]]:2 = scf.forall (%[[I:.*]]) in (5) shared_outs({{.*}}) -> (tensor<5x4x128x128xf32>, tensor<5x4x3x3xf32>)
// CHECK:           %[[S:[0-9]+]] = linalg.generic {{.*}} ins(%extracted_slice : tensor<1x4x128x128xf32>)
// CHECK:           %[[EXAMPLE:.*]] = tensor.extract_slice %[[IMAGE]][%[[I]], 0, 0] [1, 130, 130] [1, 1, 1]
// CHECK:           %[[START:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<1x4x3x3xf32>)
// CHECK:           %[[P:.*]] = linalg.generic {{.*}} ins(%[[EXAMPLE]], %[[S]] : tensor<1x130x130xf32>, tensor<1x4x128x128xf32>) outs(%[[START]] : tensor<1x4x3x3xf32>)
// CHECK:           tensor.parallel_insert_slice %[[P]] into %{{.*}}[%[[I]], 0, 0, 0] [1, 4, 3, 3]
// CHECK:         linalg.generic {{.*}} ins(%[[LOOP]]#1 : tensor<5x4x3x3xf32>) outs(%{{.*}} : tensor<4x3x3xf32>)
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#img = affine_map<(o, kh, kw, b, h, w) -> (b, h + kh, w + kw)>
#dy = affine_map<(o, kh, kw, b, h, w) -> (b, o, h, w)>
#dw = affine_map<(o, kh, kw, b, h, w) -> (o, kh, kw)>
func.func @filter_gradient(%x: tensor<5x130x130xf32>, %g: tensor<5x4x128x128xf32>,
                           %init: tensor<4x3x3xf32>) -> tensor<4x3x3xf32> {
  %e = tensor.empty() : tensor<5x4x128x128xf32>
  %dy = scf.forall (%i) in (5) shared_outs(%o = %e) -> (tensor<5x4x128x128xf32>) {
    %gs = tensor.extract_slice %g[%i, 0, 0, 0] [1, 4, 128, 128] [1, 1, 1, 1] : tensor<5x4x128x128xf32> to tensor<1x4x128x128xf32>
    %se = tensor.empty() : tensor<1x4x128x128xf32>
    %s = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
        ins(%gs : tensor<1x4x128x128xf32>) outs(%se : tensor<1x4x128x128xf32>) {
    ^bb0(%a: f32, %b: f32):
      %m = arith.mulf %a, %a : f32
      linalg.yield %m : f32
    } -> tensor<1x4x128x128xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %s into %o[%i, 0, 0, 0] [1, 4, 128, 128] [1, 1, 1, 1] : tensor<1x4x128x128xf32> into tensor<5x4x128x128xf32>
    }
  }
  %ie = tensor.empty() : tensor<5x130x130xf32>
  %image = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x : tensor<5x130x130xf32>) outs(%ie : tensor<5x130x130xf32>) {
  ^bb0(%a: f32, %b: f32):
    %n = arith.negf %a : f32
    linalg.yield %n : f32
  } -> tensor<5x130x130xf32>
  %dw = linalg.generic {indexing_maps = [#img, #dy, #dw], iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%image, %dy : tensor<5x130x130xf32>, tensor<5x4x128x128xf32>) outs(%init : tensor<4x3x3xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<4x3x3xf32>
  return %dw : tensor<4x3x3xf32>
}

// -----

// Not rewritten: a filter gradient whose other input is computed from the
// loop's result (it cannot move before the loop).
// CHECK-LABEL: func.func @other_input_after_loop
// CHECK:         scf.forall (%{{.*}}) in (5) shared_outs(%{{.*}} = %{{.*}}) -> (tensor<5x4x128x128xf32>)
// CHECK-NOT:     tensor<5x4x3x3xf32>
// CHECK:         linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<5x130x130xf32>, tensor<5x4x128x128xf32>) outs(%{{.*}} : tensor<4x3x3xf32>)
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#img = affine_map<(o, kh, kw, b, h, w) -> (b, h + kh, w + kw)>
#dy = affine_map<(o, kh, kw, b, h, w) -> (b, o, h, w)>
#dw = affine_map<(o, kh, kw, b, h, w) -> (o, kh, kw)>
func.func @other_input_after_loop(%g: tensor<5x4x128x128xf32>, %init: tensor<4x3x3xf32>)
    -> tensor<4x3x3xf32> {
  %e = tensor.empty() : tensor<5x4x128x128xf32>
  %dy = scf.forall (%i) in (5) shared_outs(%o = %e) -> (tensor<5x4x128x128xf32>) {
    %gs = tensor.extract_slice %g[%i, 0, 0, 0] [1, 4, 128, 128] [1, 1, 1, 1] : tensor<5x4x128x128xf32> to tensor<1x4x128x128xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %gs into %o[%i, 0, 0, 0] [1, 4, 128, 128] [1, 1, 1, 1] : tensor<1x4x128x128xf32> into tensor<5x4x128x128xf32>
    }
  }
  %zero = arith.constant 0.0 : f32
  %image = tensor.pad %dy low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %zero : f32
  } : tensor<5x4x128x128xf32> to tensor<5x4x130x130xf32>
  %image0 = tensor.extract_slice %image[0, 0, 0, 0] [5, 1, 130, 130] [1, 1, 1, 1] : tensor<5x4x130x130xf32> to tensor<5x130x130xf32>
  %dw = linalg.generic {indexing_maps = [#img, #dy, #dw], iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%image0, %dy : tensor<5x130x130xf32>, tensor<5x4x128x128xf32>) outs(%init : tensor<4x3x3xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<4x3x3xf32>
  return %dw : tensor<4x3x3xf32>
}

// -----

// Not rewritten: the same bias gradient over a result of 3.8 KB, which is
// read back from cache after the loop. On a core whose L2 cache holds only
// 2 KB (min-result-bytes, which the pipeline sets to the host's), it is
// rewritten.
// SMALL-L2-LABEL: func.func @bias_in_cache
// SMALL-L2:         scf.forall (%{{.*}}) in (5) shared_outs(%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) -> (tensor<5x3x7x9xf32>, tensor<5x3xf32>)
// SMALL-L2:         linalg.generic {{.*}} ins(%{{.*}} : tensor<5x3xf32>) outs(%{{.*}} : tensor<3xf32>)
// CHECK-LABEL: func.func @bias_in_cache
// CHECK:         scf.forall (%{{.*}}) in (5) shared_outs(%{{.*}} = %{{.*}}) -> (tensor<5x3x7x9xf32>)
// CHECK-NOT:     tensor<1x3xf32>
// CHECK:         linalg.generic {{.*}} iterator_types = ["reduction", "parallel", "reduction", "reduction"]} ins(%{{.*}} : tensor<5x3x7x9xf32>)
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#ch = affine_map<(d0, d1, d2, d3) -> (d1)>
func.func @bias_in_cache(%x: tensor<5x3x7x9xf32>) -> tensor<3xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<5x3x7x9xf32>
  %y = scf.forall (%i) in (5) shared_outs(%o = %e) -> (tensor<5x3x7x9xf32>) {
    %xs = tensor.extract_slice %x[%i, 0, 0, 0] [1, 3, 7, 9] [1, 1, 1, 1] : tensor<5x3x7x9xf32> to tensor<1x3x7x9xf32>
    %se = tensor.empty() : tensor<1x3x7x9xf32>
    %s = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
        ins(%xs : tensor<1x3x7x9xf32>) outs(%se : tensor<1x3x7x9xf32>) {
    ^bb0(%a: f32, %b: f32):
      %m = arith.mulf %a, %a : f32
      linalg.yield %m : f32
    } -> tensor<1x3x7x9xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %s into %o[%i, 0, 0, 0] [1, 3, 7, 9] [1, 1, 1, 1] : tensor<1x3x7x9xf32> into tensor<5x3x7x9xf32>
    }
  }
  %ze = tensor.empty() : tensor<3xf32>
  %zeros = linalg.fill ins(%zero : f32) outs(%ze : tensor<3xf32>) -> tensor<3xf32>
  %db = linalg.generic {indexing_maps = [#id4, #ch], iterator_types = ["reduction", "parallel", "reduction", "reduction"]}
      ins(%y : tensor<5x3x7x9xf32>) outs(%zeros : tensor<3xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  } -> tensor<3xf32>
  return %db : tensor<3xf32>
}
