// ens-sass's coalescing analysis (LaneAddresses.h) and --require-coalesced
// on kernels whose lanes' addresses are known by construction: it follows
// the thread index through ptxas's integer arithmetic (shifts, masks,
// signed divisions by powers of two, magic-number divisions where the
// block's shape is known) and counts the 32-byte sectors a warp's global
// access touches against those its bytes need.
//
// REQUIRES: cuobjdump
// RUN: not ens-sass --check --require-coalesced --arch=sm_90 %s \
// RUN:   | FileCheck %s
// With the launches' shapes (the block's width and index known), the
// division by 98 of column_tiles is followed too.
// RUN: not ens-sass --check --require-coalesced --arch=sm_90 \
// RUN:   --launches=%S/Inputs/sass-coalescing-launches.json %s \
// RUN:   | FileCheck %s --check-prefix=SHAPES
// Without --require-coalesced the spread is reported, not checked.
// RUN: ens-sass --check --arch=sm_90 %s | FileCheck %s --check-prefix=REPORT
//
// cuobjdump lists the kernels last first; ptxas unrolls each loop by four
// and keeps a loop for the remainder, so a kernel has two hot loops.
// CHECK-LABEL: kernel column_tiles:
// CHECK:         lanes: global accesses {{[1-9][0-9]*}}, uncoalesced 0, unknown {{[1-9][0-9]*}}, not reached 0
// CHECK:         thresholds: met
// CHECK-LABEL: kernel gather:
// CHECK:         lanes: global accesses {{[1-9][0-9]*}}, uncoalesced 0, unknown {{[1-9][0-9]*}}, not reached 0
// CHECK:         thresholds: met
// CHECK-LABEL: kernel quad_rows:
// CHECK:         lanes: global accesses {{[1-9][0-9]*}}, uncoalesced 0, unknown 0, not reached 0
// CHECK:         thresholds: met
// CHECK-LABEL: kernel columns:
// CHECK:         lanes: global accesses [[N:[0-9]+]], uncoalesced [[N]], unknown 0, not reached 0
// CHECK-NEXT:    uncoalesced {{.*}} LDG.E{{.*}}: 32 sectors for 4
// CHECK:         thresholds: missed
// CHECK-LABEL: kernel rows:
// CHECK:         lanes: global accesses {{[1-9][0-9]*}}, uncoalesced 0, unknown 0, not reached 0
// CHECK:         thresholds: met
// CHECK: thresholds missed: {{.*}}, coalesced global accesses
//
// SHAPES-LABEL: kernel column_tiles:
// SHAPES:         lanes: global accesses {{[1-9][0-9]*}}, uncoalesced 0, unknown 0, not reached 0
// SHAPES-LABEL: kernel columns:
// SHAPES:         lanes: global accesses [[N:[0-9]+]], uncoalesced [[N]], unknown 0
//
// REPORT-LABEL: kernel columns:
// REPORT:         lanes: global accesses [[N:[0-9]+]], uncoalesced [[N]], unknown 0
// REPORT:         thresholds: met

/// Each thread sums a row segment: lane l reads a[i * blockDim + l], one
/// 128-byte line a warp.
extern "C" __global__ void rows(const float *__restrict__ a,
                                float *__restrict__ out, int n) {
  float sum = 0;
  for (int i = 0; i < n; ++i)
    sum += a[(blockIdx.x * n + i) * blockDim.x + threadIdx.x];
  out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

/// Each thread sums a column of a row-major 256-wide matrix down its rows,
/// the lanes along the rows: lane l reads a[l * 256 + i], a line per lane.
extern "C" __global__ void columns(const float *__restrict__ a,
                                   float *__restrict__ out) {
  float sum = 0;
  for (int i = 0; i < 256; ++i)
    sum += a[(blockIdx.x * 256 + threadIdx.x) * 256 + i];
  out[blockIdx.x * 256 + threadIdx.x] = sum;
}

/// Four lanes read a row's 64 bytes in 16-byte pieces (tid / 4 picks the
/// row, tid % 4 the piece): 8 rows of 64 bytes, the 16 sectors 512 bytes
/// need.
extern "C" __global__ void quad_rows(const float4 *__restrict__ a,
                                     float4 *__restrict__ out, int n) {
  float4 sum = {0, 0, 0, 0};
  int row = threadIdx.x / 4, piece = threadIdx.x % 4;
  for (int i = 0; i < n; ++i) {
    float4 x = a[(i * 64 + row) * 4 + piece];
    sum.x += x.x;
    sum.y += x.y;
    sum.z += x.z;
    sum.w += x.w;
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

/// Addresses loaded from memory: the analysis cannot tell the lanes apart
/// (unknown), and the check does not count that against the kernel.
extern "C" __global__ void gather(const float *__restrict__ a,
                                  const int *__restrict__ index,
                                  float *__restrict__ out, int n) {
  float sum = 0;
  for (int i = 0; i < n; ++i)
    sum += a[index[i * blockDim.x + threadIdx.x]];
  out[threadIdx.x] = sum;
}

/// A flat index over the block's threads split into a row of 98 and a
/// column (as ens's tiles split theirs): ptxas divides by 98 with a
/// magic-number multiply, which the analysis follows only where the
/// block's index and width are known (--launches); the lanes then read
/// consecutive columns of at most two rows.
extern "C" __global__ void column_tiles(const float *__restrict__ a,
                                        float *__restrict__ out, int n) {
  int flat = blockIdx.x * blockDim.x + threadIdx.x;
  int row = flat / 98, column = flat % 98;
  float sum = 0;
  for (int i = 0; i < n; ++i)
    sum += a[(i * 64 + row) * 98 + column];
  out[flat] = sum;
}
