// ens-specialize clones the entry and what it reaches at concrete argument
// types and re-infers every type. Each RUN line specializes another entry of
// this file; the CHECK lines give the types worked out by hand.
//
// RUN: ens-opt %s '--ens-specialize=entry=predict arg-types=tensor<8x4xf32>' | FileCheck %s --check-prefix=PREDICT
// RUN: ens-opt %s '--ens-specialize=entry=ensemble' | FileCheck %s --check-prefix=ENSEMBLE
// RUN: ens-opt %s '--ens-specialize=entry=shapes arg-types=tensor<6x4xf32>,tensor<6xi32>,tensor<3x2xi32>' | FileCheck %s --check-prefix=SHAPES
// RUN: ens-opt %s '--ens-specialize=entry=train arg-types=tensor<5x4xf32>,tensor<4xf32>' | FileCheck %s --check-prefix=TRAIN
// RUN: ens-opt %s '--ens-specialize=entry=late arg-types=tensor<8x3xf32>' | FileCheck %s --check-prefix=LATE
// RUN: ens-opt %s '--ens-specialize=entry=stdlib_loss arg-types=tensor<3x2xf32>,tensor<3x2xf32>' --ens-stdlib | FileCheck %s --check-prefix=STDLIB
//
// Unspecialized, the function transforms and the library refuse a `?`
// (functions with `?` in their signature are left alone, so only the
// static @ensemble's vmap of @member is reported).
// RUN: not ens-opt %s --ens-batch 2>&1 | FileCheck %s --check-prefix=BATCH
// BATCH: error: 'ens.vmap' op cannot transform @member, whose signature has `?` sizes; give the program concrete argument types first (ens-specialize)
// RUN: not ens-opt %s --ens-stdlib 2>&1 | FileCheck %s --check-prefix=STDLIB-DYNAMIC
// STDLIB-DYNAMIC: error: 'func.func' op instantiates 'mse' for !T = 'tensor<?x2xf32>', which has a `?` size; give the program concrete argument types first (ens-specialize)

// @layer is reached at two batch sizes: the 8 rows of %x, and the 16 rows of
// %x stacked twice. Each gets its own clone, in the order they are reached.
// The bias's new dimension takes the batch size from the add that uses it.
func.func @layer(%x: tensor<?x4xf32>, %w: tensor<4x3xf32>) -> tensor<?x3xf32> {
  %c = ens.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %b = ens.broadcast_in_dim %c {dims = array<i64: 1>}
      : tensor<3xf32> -> tensor<?x3xf32>
  %y = ens.matmul %x, %w : tensor<?x4xf32>, tensor<4x3xf32> -> tensor<?x3xf32>
  %a = ens.add %y, %b : tensor<?x3xf32>
  %t = ens.tanh %a : tensor<?x3xf32>
  return %t : tensor<?x3xf32>
}

func.func @predict(%x: tensor<?x4xf32>) -> (tensor<?x3xf32>, tensor<?x3xf32>) {
  %w = ens.constant dense<1.0> : tensor<4x3xf32>
  %y = call @layer(%x, %w) : (tensor<?x4xf32>, tensor<4x3xf32>) -> tensor<?x3xf32>
  %xx = ens.concat %x, %x {dim = 0 : i64}
      : tensor<?x4xf32>, tensor<?x4xf32> -> tensor<?x4xf32>
  %z = call @layer(%xx, %w) : (tensor<?x4xf32>, tensor<4x3xf32>) -> tensor<?x3xf32>
  return %y, %z : tensor<?x3xf32>, tensor<?x3xf32>
}

// The originals with `?` that nothing uses any more are gone.
// PREDICT-NOT: func.func @layer(
// PREDICT-LABEL: func.func private @layer_8x4xf32_4x3xf32(
// PREDICT-SAME:      tensor<8x4xf32>, %{{.*}}: tensor<4x3xf32>) -> tensor<8x3xf32>
// PREDICT-NEXT:    ens.constant
// PREDICT-NEXT:    ens.broadcast_in_dim %{{.*}} {dims = array<i64: 1>} : tensor<3xf32> -> tensor<8x3xf32>
// PREDICT-NEXT:    ens.matmul %{{.*}}, %{{.*}} : tensor<8x4xf32>, tensor<4x3xf32> -> tensor<8x3xf32>
// PREDICT-NEXT:    ens.add %{{.*}}, %{{.*}} : tensor<8x3xf32>
// PREDICT-NEXT:    ens.tanh %{{.*}} : tensor<8x3xf32>
// PREDICT-LABEL: func.func private @layer_16x4xf32_4x3xf32(
// PREDICT-SAME:      tensor<16x4xf32>, %{{.*}}: tensor<4x3xf32>) -> tensor<16x3xf32>
// PREDICT:         ens.broadcast_in_dim %{{.*}} {dims = array<i64: 1>} : tensor<3xf32> -> tensor<16x3xf32>
// PREDICT-NEXT:    ens.matmul %{{.*}}, %{{.*}} : tensor<16x4xf32>, tensor<4x3xf32> -> tensor<16x3xf32>
// PREDICT-NEXT:    ens.add %{{.*}}, %{{.*}} : tensor<16x3xf32>
// PREDICT-NEXT:    ens.tanh %{{.*}} : tensor<16x3xf32>
// The entry keeps its name and visibility.
// PREDICT-LABEL: func.func @predict(
// PREDICT-SAME:      tensor<8x4xf32>) -> (tensor<8x3xf32>, tensor<16x3xf32>)
// PREDICT:         call @layer_8x4xf32_4x3xf32(%{{.*}}, %{{.*}}) : (tensor<8x4xf32>, tensor<4x3xf32>) -> tensor<8x3xf32>
// PREDICT-NEXT:    ens.concat %{{.*}}, %{{.*}} {dim = 0 : i64} : tensor<8x4xf32>, tensor<8x4xf32> -> tensor<16x4xf32>
// PREDICT-NEXT:    call @layer_16x4xf32_4x3xf32(%{{.*}}, %{{.*}}) : (tensor<16x4xf32>, tensor<4x3xf32>) -> tensor<16x3xf32>
// PREDICT-NOT: func.func @predict_

// A static ensemble of a member written with a `?` batch: arg-types default
// to the entry's own, and the vmap gives the member its 5 rows.
func.func @member(%x: tensor<?x4xf32>, %w: tensor<4xf32>) -> tensor<?xf32> {
  %y = ens.einsum %x, %w {spec = "bi,i->b"}
      : tensor<?x4xf32>, tensor<4xf32> -> tensor<?xf32>
  return %y : tensor<?xf32>
}

func.func @ensemble(%x: tensor<5x4xf32>, %w: tensor<3x4xf32>) -> tensor<3x5xf32> {
  %y = ens.vmap @member(%x, %w) {in_axes = array<i64: -1, 0>,
                                 out_axes = array<i64: 0>, size = 3 : i64}
      : (tensor<5x4xf32>, tensor<3x4xf32>) -> tensor<3x5xf32>
  return %y : tensor<3x5xf32>
}

// ENSEMBLE-NOT: func.func @member(
// ENSEMBLE-LABEL: func.func private @member_5x4xf32_4xf32(
// ENSEMBLE-SAME:      tensor<5x4xf32>, %{{.*}}: tensor<4xf32>) -> tensor<5xf32>
// ENSEMBLE-NEXT:    ens.einsum %{{.*}}, %{{.*}} {spec = "bi,i->b"} : tensor<5x4xf32>, tensor<4xf32> -> tensor<5xf32>
// ENSEMBLE-LABEL: func.func @ensemble(
// ENSEMBLE-NEXT:    ens.vmap @member_5x4xf32_4xf32(%{{.*}}, %{{.*}}) {{.*}} : (tensor<5x4xf32>, tensor<3x4xf32>) -> tensor<3x5xf32>

// Ops whose result type carries the shape resolve their `?` by the rules of
// the pass description: %x is 6x4, %ids 6, %key 3x2.
func.func @shapes(%x: tensor<?x4xf32>, %ids: tensor<?xi32>, %key: tensor<?x2xi32>)
    -> (tensor<?x5xf32>, tensor<2x?xf32>, tensor<?x10xf32>, tensor<10x?xf32>,
        tensor<?x7xf32>, tensor<?x4x2xi32>, tensor<?x4xi32>, tensor<?x2xi32>) {
  %v = ens.reduce_sum %x {dims = array<i64: 1>} : tensor<?x4xf32> -> tensor<?xf32>
  %0 = ens.broadcast_in_dim %v {dims = array<i64: 0>}
      : tensor<?xf32> -> tensor<?x5xf32>
  %1 = ens.reshape %x : tensor<?x4xf32> -> tensor<2x?xf32>
  %2 = ens.one_hot %ids : tensor<?xi32> -> tensor<?x10xf32>
  %3 = ens.scatter_add %x, %ids {axis = 0 : i64}
      : tensor<?x4xf32>, tensor<?xi32> -> tensor<10x?xf32>
  %4 = ens.random_uniform %key : tensor<?x2xi32> -> tensor<?x7xf32>
  %5 = ens.random_split %key : tensor<?x2xi32> -> tensor<?x4x2xi32>
  %6 = ens.convert %x : tensor<?x4xf32> -> tensor<?x4xi32>
  %c = ens.slice %5 {start = array<i64: 0, 0, 0>, limit = array<i64: 3, 1, 2>,
                     stride = array<i64: 1, 1, 1>}
      : tensor<?x4x2xi32> -> tensor<3x1x2xi32>
  %c2 = ens.reshape %c : tensor<3x1x2xi32> -> tensor<?x2xi32>
  %d = ens.slice %ids {start = array<i64: 0>, limit = array<i64: 3>,
                       stride = array<i64: 1>} : tensor<?xi32> -> tensor<3xi32>
  %7 = ens.random_fold_in %key, %d
      : tensor<?x2xi32>, tensor<3xi32> -> tensor<?x2xi32>
  return %0, %1, %2, %3, %4, %5, %6, %7 : tensor<?x5xf32>, tensor<2x?xf32>,
      tensor<?x10xf32>, tensor<10x?xf32>, tensor<?x7xf32>, tensor<?x4x2xi32>,
      tensor<?x4xi32>, tensor<?x2xi32>
}

// SHAPES-LABEL: func.func @shapes(
// SHAPES-SAME:      tensor<6x4xf32>, %{{.*}}: tensor<6xi32>, %{{.*}}: tensor<3x2xi32>)
// SHAPES-SAME:      -> (tensor<6x5xf32>, tensor<2x12xf32>, tensor<6x10xf32>, tensor<10x4xf32>, tensor<3x7xf32>, tensor<3x4x2xi32>, tensor<6x4xi32>, tensor<3x2xi32>)
// SHAPES-NEXT:    ens.reduce_sum {{.*}} : tensor<6x4xf32> -> tensor<6xf32>
// SHAPES-NEXT:    ens.broadcast_in_dim {{.*}} : tensor<6xf32> -> tensor<6x5xf32>
// SHAPES-NEXT:    ens.reshape {{.*}} : tensor<6x4xf32> -> tensor<2x12xf32>
// SHAPES-NEXT:    ens.one_hot {{.*}} : tensor<6xi32> -> tensor<6x10xf32>
// SHAPES-NEXT:    ens.scatter_add {{.*}} : tensor<6x4xf32>, tensor<6xi32> -> tensor<10x4xf32>
// SHAPES-NEXT:    ens.random_uniform {{.*}} : tensor<3x2xi32> -> tensor<3x7xf32>
// SHAPES-NEXT:    ens.random_split {{.*}} : tensor<3x2xi32> -> tensor<3x4x2xi32>
// SHAPES-NEXT:    ens.convert {{.*}} : tensor<6x4xf32> -> tensor<6x4xi32>
// SHAPES-NEXT:    ens.slice {{.*}} : tensor<3x4x2xi32> -> tensor<3x1x2xi32>
// SHAPES-NEXT:    ens.reshape {{.*}} : tensor<3x1x2xi32> -> tensor<3x2xi32>
// SHAPES-NEXT:    ens.slice {{.*}} : tensor<6xi32> -> tensor<3xi32>
// SHAPES-NEXT:    ens.random_fold_in {{.*}} : tensor<3x2xi32>, tensor<3xi32> -> tensor<3x2xi32>

// A loss with a `?` batch, differentiated: the gradient keeps the argument's
// type, the loss the callee's.
func.func @loss(%x: tensor<?x4xf32>, %w: tensor<4xf32>) -> tensor<f32> {
  %y = ens.einsum %x, %w {spec = "bi,i->b"}
      : tensor<?x4xf32>, tensor<4xf32> -> tensor<?xf32>
  %l = ens.reduce_mean %y {dims = array<i64: 0>} : tensor<?xf32> -> tensor<f32>
  return %l : tensor<f32>
}

func.func @train(%x: tensor<?x4xf32>, %w: tensor<4xf32>)
    -> (tensor<f32>, tensor<4xf32>) {
  %l, %g = ens.value_and_grad @loss(%x, %w) {wrt = array<i64: 1>}
      : (tensor<?x4xf32>, tensor<4xf32>) -> (tensor<f32>, tensor<4xf32>)
  return %l, %g : tensor<f32>, tensor<4xf32>
}

// TRAIN-LABEL: func.func private @loss_5x4xf32_4xf32(
// TRAIN-SAME:      tensor<5x4xf32>, %{{.*}}: tensor<4xf32>) -> tensor<f32>
// TRAIN-NEXT:    ens.einsum {{.*}} : tensor<5x4xf32>, tensor<4xf32> -> tensor<5xf32>
// TRAIN-NEXT:    ens.reduce_mean {{.*}} : tensor<5xf32> -> tensor<f32>
// TRAIN-LABEL: func.func @train(
// TRAIN-SAME:      tensor<5x4xf32>, %{{.*}}: tensor<4xf32>) -> (tensor<f32>, tensor<4xf32>)
// TRAIN-NEXT:    ens.value_and_grad @loss_5x4xf32_4xf32(%{{.*}}, %{{.*}}) {wrt = array<i64: 1>} : (tensor<5x4xf32>, tensor<4xf32>) -> (tensor<f32>, tensor<4xf32>)

// A standard-library declaration is cloned at the new types, and ens-stdlib
// then defines the clone for them.
func.func private @mse(tensor<?x2xf32>, tensor<?x2xf32>) -> tensor<f32>
    attributes {ens.stdlib = "mse"}

func.func @stdlib_loss(%y: tensor<?x2xf32>, %t: tensor<?x2xf32>) -> tensor<f32> {
  %l = call @mse(%y, %t) : (tensor<?x2xf32>, tensor<?x2xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// STDLIB-NOT: func.func private @mse(
// STDLIB-LABEL: func.func private @mse_3x2xf32_3x2xf32(
// STDLIB-SAME:      tensor<3x2xf32>, %{{.*}}: tensor<3x2xf32>) -> tensor<f32>
// STDLIB-NEXT:    ens.sub %{{.*}}, %{{.*}} : tensor<3x2xf32>
// STDLIB:         ens.reshape %{{.*}} : tensor<3x2xf32> -> tensor<6xf32>
// STDLIB-LABEL: func.func @stdlib_loss(
// STDLIB-NEXT:    call @mse_3x2xf32_3x2xf32(%{{.*}}, %{{.*}}) : (tensor<3x2xf32>, tensor<3x2xf32>) -> tensor<f32>

// A size learnt at an elementwise op flows back and on: the broadcast's new
// dimension is unknown until the add, and the reshape before the add learns
// its operand's size in the next round.
func.func @late(%x: tensor<?x3xf32>) -> (tensor<?xf32>, tensor<?x3xf32>) {
  %c = ens.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %b = ens.broadcast_in_dim %c {dims = array<i64: 1>}
      : tensor<3xf32> -> tensor<?x3xf32>
  %r = ens.reshape %b : tensor<?x3xf32> -> tensor<?xf32>
  %s = ens.add %b, %x : tensor<?x3xf32>
  return %r, %s : tensor<?xf32>, tensor<?x3xf32>
}

// LATE-LABEL: func.func @late(
// LATE-SAME:      tensor<8x3xf32>) -> (tensor<24xf32>, tensor<8x3xf32>)
// LATE-NEXT:    ens.constant
// LATE-NEXT:    ens.broadcast_in_dim %{{.*}} {dims = array<i64: 1>} : tensor<3xf32> -> tensor<8x3xf32>
// LATE-NEXT:    ens.reshape %{{.*}} : tensor<8x3xf32> -> tensor<24xf32>
// LATE-NEXT:    ens.add %{{.*}}, %{{.*}} : tensor<8x3xf32>
