// Temporaries of a loop over members (here, examples) on the CPU: with one
// thread every loop runs in order, so each temporary is allocated once,
// before the loop, and freed after it (scf-forall-to-for, then
// buffer-loop-hoisting), not allocated and freed by every iteration; with
// threads, each iteration of the worksharing loop allocates its own.
// ens-bench's tensordot, this program over 4,096 examples, allocated
// 4,096 times a call before. test/ens-run checks its results.
//
// RUN: ens-opt %s --ens-front --convert-ens-to-linalg \
// RUN:   --ens-cpu-pipeline="threads=1 vector-bytes=32" \
// RUN:   --mlir-print-ir-before=ens-cpu-hoist-transfers -o %t.one.mlir 2> %t.one
// RUN: FileCheck %s --check-prefix=ONE < %t.one
// RUN: ens-opt %s --ens-front --convert-ens-to-linalg \
// RUN:   --ens-cpu-pipeline="threads=2 vector-bytes=32" \
// RUN:   --mlir-print-ir-before=ens-cpu-hoist-transfers -o %t.two.mlir 2> %t.two
// RUN: FileCheck %s --check-prefix=TWO < %t.two

func.func private @predict(%x: tensor<3x2xf32>, %w: tensor<3x2x1xf32>,
                           %b: tensor<1xf32>) -> tensor<1xf32> {
  %0 = ens.tensordot %x, %w {lhs_dims = array<i64: 0, 1>,
                             rhs_dims = array<i64: 0, 1>}
      : tensor<3x2xf32>, tensor<3x2x1xf32> -> tensor<1xf32>
  %y = ens.add %0, %b : tensor<1xf32>
  return %y : tensor<1xf32>
}

func.func @examples(%x: tensor<4096x3x2xf32>, %w: tensor<3x2x1xf32>,
                    %b: tensor<1xf32>) -> tensor<4096x1xf32> {
  %y = ens.vmap @predict(%x, %w, %b)
      {in_axes = array<i64: 0, -1, -1>, out_axes = array<i64: 0>,
       size = 4096 : i64}
      : (tensor<4096x3x2xf32>, tensor<3x2x1xf32>, tensor<1xf32>)
      -> tensor<4096x1xf32>
  return %y : tensor<4096x1xf32>
}

// ONE-LABEL: func.func @examples(
// ONE:         %[[T:.*]] = memref.alloc() {{.*}} : memref<1x1xf32>
// ONE-NEXT:    scf.for %{{.*}} = %{{.*}} to %c4096
// ONE-NOT:       memref.alloc
// ONE-NOT:       memref.dealloc
// ONE:         memref.dealloc %[[T]]
// ONE-NEXT:    return

// TWO-LABEL: func.func @examples(
// TWO:         scf.parallel (%{{.*}}) = (%{{.*}}) to (%c4096)
// TWO-NEXT:      %[[T:.*]] = memref.alloc() {{.*}} : memref<1x1xf32>
// TWO:           memref.dealloc %[[T]]
// TWO-NEXT:      scf.reduce
// TWO-NEXT:    }
// TWO-NEXT:    return
