//===- sgemm.cu - SGEMM kernels for validating the performance model ------===//
//
// C = alpha * A * B + beta * C for row-major M x K, K x N and M x N float
// matrices, in the six steps of the well-known optimization sequence (naive,
// coalesced, shared-memory tiles, 1-D and 2-D register tiles, vectorized
// loads), written here for ens. Each kernel is described to the performance
// model in test/unittests/Cuda/PerfModelTest.cpp, whose predictions are
// compared with measurements published for kernels of the same structure;
// the launch shapes there must match the constants here. Sizes are assumed
// to be multiples of the tiles.
//
//===----------------------------------------------------------------------===//

/// One thread per element of C; threadIdx.x walks down a column, so the
/// threads of a warp read 32 different rows of A (uncoalesced).
/// Launch: grid (M / 32, N / 32), block (32, 32).
extern "C" __global__ void sgemm_naive(int M, int N, int K, float alpha,
                                       const float *A, const float *B,
                                       float beta, float *C) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  int col = blockIdx.y * blockDim.y + threadIdx.y;
  if (row >= M || col >= N)
    return;
  float sum = 0.0f;
  for (int k = 0; k < K; ++k)
    sum += A[row * K + k] * B[k * N + col];
  C[row * N + col] = alpha * sum + beta * C[row * N + col];
}

/// One thread per element of C; the threads of a warp share a row of A and
/// read 32 consecutive floats of B (coalesced).
/// Launch: grid (M / 32, N / 32), block 1024.
extern "C" __global__ void sgemm_coalesced(int M, int N, int K, float alpha,
                                           const float *A, const float *B,
                                           float beta, float *C) {
  int row = blockIdx.x * 32 + threadIdx.x / 32;
  int col = blockIdx.y * 32 + threadIdx.x % 32;
  if (row >= M || col >= N)
    return;
  float sum = 0.0f;
  for (int k = 0; k < K; ++k)
    sum += A[row * K + k] * B[k * N + col];
  C[row * N + col] = alpha * sum + beta * C[row * N + col];
}

/// 32 x 32 tiles of A and B staged in shared memory; one element per thread.
/// Launch: grid (M / 32, N / 32), block 1024.
extern "C" __global__ void sgemm_shared(int M, int N, int K, float alpha,
                                        const float *A, const float *B,
                                        float beta, float *C) {
  constexpr int Tile = 32;
  __shared__ float tileA[Tile * Tile];
  __shared__ float tileB[Tile * Tile];
  int r = threadIdx.x / Tile, c = threadIdx.x % Tile;
  A += blockIdx.x * Tile * K;
  B += blockIdx.y * Tile;
  C += blockIdx.x * Tile * N + blockIdx.y * Tile;
  float sum = 0.0f;
  for (int k0 = 0; k0 < K; k0 += Tile) {
    tileA[r * Tile + c] = A[r * K + c];
    tileB[r * Tile + c] = B[r * N + c];
    __syncthreads();
    A += Tile;
    B += Tile * N;
    for (int k = 0; k < Tile; ++k)
      sum += tileA[r * Tile + k] * tileB[k * Tile + c];
    __syncthreads();
  }
  C[r * N + c] = alpha * sum + beta * C[r * N + c];
}

/// 64 x 8 and 8 x 64 tiles in shared memory; each thread computes 8
/// consecutive rows of one column of the 64 x 64 block tile.
/// Launch: grid (N / 64, M / 64), block 512.
extern "C" __global__ void sgemm_tile1d(int M, int N, int K, float alpha,
                                        const float *A, const float *B,
                                        float beta, float *C) {
  constexpr int BM = 64, BN = 64, BK = 8, TM = 8;
  __shared__ float tileA[BM * BK];
  __shared__ float tileB[BK * BN];
  int col = threadIdx.x % BN, row = threadIdx.x / BN;
  A += blockIdx.y * BM * K;
  B += blockIdx.x * BN;
  C += blockIdx.y * BM * N + blockIdx.x * BN;
  int aRow = threadIdx.x / BK, aCol = threadIdx.x % BK;
  int bRow = threadIdx.x / BN, bCol = threadIdx.x % BN;
  float sums[TM] = {};
  for (int k0 = 0; k0 < K; k0 += BK) {
    tileA[aRow * BK + aCol] = A[aRow * K + aCol];
    tileB[bRow * BN + bCol] = B[bRow * N + bCol];
    __syncthreads();
    A += BK;
    B += BK * N;
    for (int k = 0; k < BK; ++k) {
      float b = tileB[k * BN + col];
      for (int i = 0; i < TM; ++i)
        sums[i] += tileA[(row * TM + i) * BK + k] * b;
    }
    __syncthreads();
  }
  for (int i = 0; i < TM; ++i)
    C[(row * TM + i) * N + col] =
        alpha * sums[i] + beta * C[(row * TM + i) * N + col];
}

/// 128 x 8 and 8 x 128 tiles in shared memory; each thread computes an 8 x 8
/// tile of the 128 x 128 block tile from registers.
/// Launch: grid (N / 128, M / 128), block 256.
extern "C" __global__ void sgemm_tile2d(int M, int N, int K, float alpha,
                                        const float *A, const float *B,
                                        float beta, float *C) {
  constexpr int BM = 128, BN = 128, BK = 8, TM = 8, TN = 8;
  constexpr int Threads = BM * BN / (TM * TN);
  __shared__ float tileA[BM * BK];
  __shared__ float tileB[BK * BN];
  int col = threadIdx.x % (BN / TN), row = threadIdx.x / (BN / TN);
  A += blockIdx.y * BM * K;
  B += blockIdx.x * BN;
  C += blockIdx.y * BM * N + blockIdx.x * BN;
  int aRow = threadIdx.x / BK, aCol = threadIdx.x % BK;
  int bRow = threadIdx.x / BN, bCol = threadIdx.x % BN;
  float sums[TM * TN] = {};
  float regA[TM], regB[TN];
  for (int k0 = 0; k0 < K; k0 += BK) {
    for (int at = 0; at < BM; at += Threads / BK)
      tileA[(aRow + at) * BK + aCol] = A[(aRow + at) * K + aCol];
    for (int at = 0; at < BK; at += Threads / BN)
      tileB[(bRow + at) * BN + bCol] = B[(bRow + at) * N + bCol];
    __syncthreads();
    A += BK;
    B += BK * N;
    for (int k = 0; k < BK; ++k) {
      for (int i = 0; i < TM; ++i)
        regA[i] = tileA[(row * TM + i) * BK + k];
      for (int j = 0; j < TN; ++j)
        regB[j] = tileB[k * BN + col * TN + j];
      for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j)
          sums[i * TN + j] += regA[i] * regB[j];
    }
    __syncthreads();
  }
  for (int i = 0; i < TM; ++i)
    for (int j = 0; j < TN; ++j) {
      float &out = C[(row * TM + i) * N + col * TN + j];
      out = alpha * sums[i * TN + j] + beta * out;
    }
}

/// sgemm_tile2d with 128-bit loads: A's tile is stored transposed so that a
/// thread's 8 values of A are contiguous, and global loads and stores move
/// float4s.
/// Launch: grid (N / 128, M / 128), block 256.
extern "C" __global__ void sgemm_vectorized(int M, int N, int K, float alpha,
                                            const float *A, const float *B,
                                            float beta, float *C) {
  constexpr int BM = 128, BN = 128, BK = 8, TM = 8, TN = 8;
  __shared__ float tileA[BK * BM];
  __shared__ float tileB[BK * BN];
  int col = threadIdx.x % (BN / TN), row = threadIdx.x / (BN / TN);
  A += blockIdx.y * BM * K;
  B += blockIdx.x * BN;
  C += blockIdx.y * BM * N + blockIdx.x * BN;
  int aRow = threadIdx.x / (BK / 4), aCol = threadIdx.x % (BK / 4);
  int bRow = threadIdx.x / (BN / 4), bCol = threadIdx.x % (BN / 4);
  float sums[TM * TN] = {};
  float regA[TM], regB[TN];
  for (int k0 = 0; k0 < K; k0 += BK) {
    float4 a = reinterpret_cast<const float4 *>(&A[aRow * K + aCol * 4])[0];
    tileA[(aCol * 4 + 0) * BM + aRow] = a.x;
    tileA[(aCol * 4 + 1) * BM + aRow] = a.y;
    tileA[(aCol * 4 + 2) * BM + aRow] = a.z;
    tileA[(aCol * 4 + 3) * BM + aRow] = a.w;
    reinterpret_cast<float4 *>(&tileB[bRow * BN + bCol * 4])[0] =
        reinterpret_cast<const float4 *>(&B[bRow * N + bCol * 4])[0];
    __syncthreads();
    A += BK;
    B += BK * N;
    for (int k = 0; k < BK; ++k) {
      for (int i = 0; i < TM; ++i)
        regA[i] = tileA[k * BM + row * TM + i];
      for (int j = 0; j < TN; ++j)
        regB[j] = tileB[k * BN + col * TN + j];
      for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j)
          sums[i * TN + j] += regA[i] * regB[j];
    }
    __syncthreads();
  }
  for (int i = 0; i < TM; ++i)
    for (int j = 0; j < TN; j += 4) {
      float4 &out =
          reinterpret_cast<float4 *>(&C[(row * TM + i) * N + col * TN + j])[0];
      out.x = alpha * sums[i * TN + j + 0] + beta * out.x;
      out.y = alpha * sums[i * TN + j + 1] + beta * out.y;
      out.z = alpha * sums[i * TN + j + 2] + beta * out.z;
      out.w = alpha * sums[i * TN + j + 3] + beta * out.w;
    }
}
