// Loops over members that share nothing they write share one launch
// (issue #30: the groups of a heterogeneous ensemble). @groups holds three
// groups of different sizes and architectures, each an ens.vmap over the
// shared input: each group becomes a loop over its members (ens-fuse-members)
// and the loops' kernels run as the sections of ONE kernel, each from its
// own first block. With members-per-block the sections' blocks differ (two
// warps for the group of 512, one for the others): the launch takes the
// largest, and a section of fewer threads lets the others return. With the
// tiled strategy, the loops' launches share launches in order, and the
// second phase of the deepest group has one of its own. The emulator's
// results agree with the interpreter's under each strategy.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: ens-run %s --entry=groups --cuda-plan > %t/auto.txt
// RUN: FileCheck %s --check-prefix=AUTO < %t/auto.txt
// RUN: ens-run %s --entry=groups --cuda-strategy=members-per-block --cuda-plan > %t/warps.txt
// RUN: FileCheck %s --check-prefix=WARPS < %t/warps.txt
// RUN: ens-run %s --entry=groups --cuda-strategy=tiled --cuda-plan > %t/tiled.txt
// RUN: FileCheck %s --check-prefix=TILED < %t/tiled.txt
// RUN: ens-run %s --entry=groups --cuda-strategy=tiled --kernel-report=table > %t/tiled-report.txt
// RUN: FileCheck %s --check-prefix=TILED-REPORT < %t/tiled-report.txt
//
// RUN: ens-run %s --entry=groups --random-inputs=1 --output-dir=%t/interp
// RUN: ens-run %s --entry=groups --random-inputs=1 --backend=cuda-emu --atol=1e-5 --expect=%t/interp/out0.npy --expect=%t/interp/out1.npy --expect=%t/interp/out2.npy
// RUN: ens-run %s --entry=groups --random-inputs=1 --backend=cuda-emu --cuda-strategy=members-per-block --cuda-dump=%t/dump --atol=1e-5 --expect=%t/interp/out0.npy --expect=%t/interp/out1.npy --expect=%t/interp/out2.npy
// RUN: FileCheck %s --check-prefix=SOURCE < %t/dump/groups.cu
// RUN: ens-run %s --entry=groups --random-inputs=1 --backend=cuda-emu --cuda-strategy=tiled --atol=1e-5 --expect=%t/interp/out0.npy --expect=%t/interp/out1.npy --expect=%t/interp/out2.npy
//
// A group that reads what another writes runs after it, in a launch of its
// own.
// RUN: ens-run %s --entry=dependent --cuda-plan > %t/dependent.txt
// RUN: FileCheck %s --check-prefix=DEPENDENT < %t/dependent.txt
// RUN: ens-run %s --entry=dependent --random-inputs=1 --output-dir=%t/dep
// RUN: ens-run %s --entry=dependent --random-inputs=1 --backend=cuda-emu --atol=1e-5 --expect=%t/dep/out0.npy --expect=%t/dep/out1.npy

// AUTO: kernel k0_groups from block 0: member-per-block, 512 members, 256 threads
// AUTO: kernel k0_groups from block 512: member-per-block, 8 members, 256 threads
// AUTO: kernel k0_groups from block 520: member-per-block, 2 members, 256 threads
// AUTO-NOT: kernel k1

// WARPS: kernel k0_groups from block 0: members-per-block, 512 members, 64 threads
// WARPS-NEXT: per block: 2 members
// WARPS: kernel k0_groups from block 256: members-per-block, 8 members, 32 threads
// WARPS: kernel k0_groups from block 264: members-per-block, 2 members, 32 threads

// TILED: loop: tiled, 512 members
// TILED: phase 0: kernel k0_groups from block 0,
// TILED: loop: tiled, 8 members
// TILED: phase 0: kernel k0_groups from block 512,
// TILED: loop: tiled, 2 members
// TILED: phase 0: kernel k0_groups from block 520,
// TILED-NEXT: phase 1: kernel k1_tiled,
// TILED-REPORT: k0_groups 522x1x1 256x1x1
// TILED-REPORT: k1_tiled 2x1x1 256x1x1
// TILED-REPORT: 2 kernels,

// SOURCE: extern "C" __global__ void k0_groups(
// SOURCE-NEXT: typedef int ens_index;
// SOURCE-NEXT: ENS_ALIGNED16(b{{[0-9]+}});
// SOURCE-NEXT: if (blockIdx.x < 256u) {
// SOURCE-NEXT: const unsigned ens_block = blockIdx.x - 0u;
// SOURCE-NOT: return
// SOURCE: ens_index m = (ens_index)ens_block * 2 + threadIdx.x / 32;
// SOURCE: } else if (blockIdx.x < 264u) {
// SOURCE-NEXT: const unsigned ens_block = blockIdx.x - 256u;
// SOURCE-NEXT: if (threadIdx.x >= 32u) return;
// SOURCE: } else {
// SOURCE-NEXT: const unsigned ens_block = blockIdx.x - 264u;
// SOURCE-NEXT: if (threadIdx.x >= 32u) return;

// DEPENDENT: kernel k0_members: member-per-block, 8 members
// DEPENDENT: kernel k1_members: member-per-block, 4 members

func.func @narrow(%x: tensor<2x4xf32>, %w: tensor<4x4xf32>) -> tensor<2x4xf32> {
  %z = ens.matmul %x, %w : tensor<2x4xf32>, tensor<4x4xf32> -> tensor<2x4xf32>
  %a = ens.tanh %z : tensor<2x4xf32>
  return %a : tensor<2x4xf32>
}

func.func @mid(%x: tensor<2x4xf32>, %w: tensor<4x8xf32>) -> tensor<2x8xf32> {
  %z = ens.matmul %x, %w : tensor<2x4xf32>, tensor<4x8xf32> -> tensor<2x8xf32>
  %a = ens.tanh %z : tensor<2x8xf32>
  return %a : tensor<2x8xf32>
}

func.func @deep(%x: tensor<2x4xf32>, %w: tensor<4x64xf32>,
                %v: tensor<64x64xf32>) -> tensor<2x64xf32> {
  %z = ens.matmul %x, %w : tensor<2x4xf32>, tensor<4x64xf32> -> tensor<2x64xf32>
  %a = ens.tanh %z : tensor<2x64xf32>
  %y = ens.matmul %a, %v : tensor<2x64xf32>, tensor<64x64xf32> -> tensor<2x64xf32>
  %b = ens.tanh %y : tensor<2x64xf32>
  return %b : tensor<2x64xf32>
}

func.func @groups(%x: tensor<2x4xf32>, %wn: tensor<512x4x4xf32>,
                  %wm: tensor<8x4x8xf32>, %wd: tensor<2x4x64xf32>,
                  %vd: tensor<2x64x64xf32>)
    -> (tensor<512x2x4xf32>, tensor<8x2x8xf32>, tensor<2x2x64xf32>) {
  %n = ens.vmap @narrow(%x, %wn)
      {in_axes = array<i64: -1, 0>, out_axes = array<i64: 0>, size = 512 : i64}
      : (tensor<2x4xf32>, tensor<512x4x4xf32>) -> tensor<512x2x4xf32>
  %m = ens.vmap @mid(%x, %wm)
      {in_axes = array<i64: -1, 0>, out_axes = array<i64: 0>, size = 8 : i64}
      : (tensor<2x4xf32>, tensor<8x4x8xf32>) -> tensor<8x2x8xf32>
  %d = ens.vmap @deep(%x, %wd, %vd)
      {in_axes = array<i64: -1, 0, 0>, out_axes = array<i64: 0>, size = 2 : i64}
      : (tensor<2x4xf32>, tensor<2x4x64xf32>, tensor<2x64x64xf32>)
      -> tensor<2x2x64xf32>
  return %n, %m, %d
      : tensor<512x2x4xf32>, tensor<8x2x8xf32>, tensor<2x2x64xf32>
}

// Each of 4 members scales all 8 members' results of the first group.
func.func @scale(%all: tensor<8x2x4xf32>, %s: tensor<4xf32>)
    -> tensor<8x2x4xf32> {
  %b = ens.broadcast_in_dim %s {dims = array<i64: 2>}
      : tensor<4xf32> -> tensor<8x2x4xf32>
  %y = ens.mul %all, %b : tensor<8x2x4xf32>
  return %y : tensor<8x2x4xf32>
}

func.func @dependent(%x: tensor<2x4xf32>, %wn: tensor<8x4x4xf32>,
                     %s: tensor<4x4xf32>)
    -> (tensor<8x2x4xf32>, tensor<4x8x2x4xf32>) {
  %n = ens.vmap @narrow(%x, %wn)
      {in_axes = array<i64: -1, 0>, out_axes = array<i64: 0>, size = 8 : i64}
      : (tensor<2x4xf32>, tensor<8x4x4xf32>) -> tensor<8x2x4xf32>
  %y = ens.vmap @scale(%n, %s)
      {in_axes = array<i64: -1, 0>, out_axes = array<i64: 0>, size = 4 : i64}
      : (tensor<8x2x4xf32>, tensor<4x4xf32>) -> tensor<4x8x2x4xf32>
  return %n, %y : tensor<8x2x4xf32>, tensor<4x8x2x4xf32>
}
