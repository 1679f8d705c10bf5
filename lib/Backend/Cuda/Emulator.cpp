//===- Emulator.cpp - The CUDA execution model on the host ----------------===//
//
// Builds the generated CUDA source, unchanged, with the host compiler and an
// emulation header that defines the CUDA keywords, the thread-index
// variables (thread-local), shared memory, __syncthreads, warp shuffles and
// the device functions the source uses. A generated shim runs each kernel block
// by block; within a block, the threads of a kernel that synchronizes run
// as fibers that switch at each barrier, and those of other kernels one
// after another. Arguments are passed as to cuLaunchKernel: an
// array of pointers to the values.
//
// Each build runs in a fresh private directory (mkdtemp, mode 0700) that is
// removed afterwards, whether the build succeeded or not. Built objects are
// cached in the "emu" subdirectory of the cache directory, one entry
// `<key>.so` per object, keyed by a hash of the compiler, its options, the
// emulation header, the kernels and the shim (ens/Support/DiskCache.h states
// what a cache entry must be before it is used). An object is loaded only from
// bytes that are in memory and verified: those just built, or those of a
// cache entry whose owner, checksum and key were checked. A corrupt,
// truncated, planted or foreign entry is therefore rebuilt, never loaded,
// and the rebuilt entry replaces it. The verified bytes are loaded through
// a sealed anonymous memory file, so nothing can change them between the
// check and dlopen (lib/Runtime/SharedObject.cpp).
//
//===----------------------------------------------------------------------===//

#include "ens/Backend/Cuda/Emulator.h"
#include "ens/Support/DiskCache.h"
#include "ens/Support/FileSystem.h"
#include "ens/Support/HostCompiler.h"
#include "ens/Support/TensorTypes.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::ens;
using namespace mlir::ens::cuda;
namespace rt = ::ens::runtime;

/// What the host compiler needs to build CUDA source. Kernels that
/// synchronize run each thread of a block as a fiber: __syncthreads()
/// switches back to the block's scheduler, which resumes every thread in
/// turn, so no thread passes a barrier before all have reached it.
static const char *const kEmulationHeader = R"(// ens: CUDA on the host.
#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <deque>
#include <functional>
#include <math.h>
#include <setjmp.h>
#include <ucontext.h>
#include <vector>
#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
#define __launch_bounds__(...)
#define __restrict__ __restrict
struct dim3 { unsigned x = 1, y = 1, z = 1; };
typedef dim3 uint3;
static thread_local uint3 threadIdx, blockIdx;
static thread_local dim3 blockDim, gridDim;
static inline int __float_as_int(float x) { int i; std::memcpy(&i, &x, 4); return i; }
static inline float __int_as_float(int i) { float x; std::memcpy(&x, &i, 4); return x; }
static inline unsigned __float_as_uint(float x) { unsigned i; std::memcpy(&i, &x, 4); return i; }
static inline float __uint_as_float(unsigned i) { float x; std::memcpy(&x, &i, 4); return x; }
static inline long long __double_as_longlong(double x) { long long i; std::memcpy(&i, &x, 8); return i; }
static inline double __longlong_as_double(long long i) { double x; std::memcpy(&x, &i, 8); return x; }

namespace ens_emu {
/// The dynamic shared memory of the running block.
static thread_local unsigned char *sharedMemory;
/// 16-byte aligned storage for it, as a GPU aligns it.
struct alignas(16) SharedChunk {
  unsigned char bytes[16];
};
/// What stopped the running launch (a misaligned access), or null; the
/// launcher returns it, as a GPU reports the kernel's error at its end.
static thread_local const char *fault;
/// A thread of the running block. A fiber starts on its own stack through
/// ucontext, and switches with _setjmp/_longjmp, which unlike swapcontext
/// make no system call to save the signal mask.
struct Fiber {
  ucontext_t start;
  jmp_buf resume;
  uint3 thread;
  bool started, done;
};
static thread_local jmp_buf scheduler;
static thread_local ucontext_t schedulerContext;
static thread_local Fiber *running;
/// One slot per thread of the running block for warp shuffles.
static thread_local std::vector<unsigned long long> shuffleSlots;
/// One slot per thread of the running block for the fragments of mma.sync.
struct MmaFragments {
  float a[4], b[2];
};
static thread_local std::vector<MmaFragments> mmaSlots;
/// One slot per thread of the running block for its cp.async copies that
/// are not yet made: those not yet committed, and its groups, oldest first.
struct AsyncCopy {
  unsigned char *shared;
  const unsigned char *global;
  int bytes, srcBytes;
};
struct AsyncCopies {
  std::vector<AsyncCopy> uncommitted;
  std::deque<std::vector<AsyncCopy>> groups;
};
static thread_local std::vector<AsyncCopies> asyncCopySlots;
static thread_local const std::function<void()> *kernelBody;
static void fiberMain() {
  (*kernelBody)();
  running->done = true;
  _longjmp(scheduler, 1);
}
/// The fibers of the running block and their stacks, reused by the blocks
/// of a launch.
static thread_local std::vector<Fiber> fibers;
static thread_local std::vector<std::vector<char>> stacks;
/// Frees the fibers, their stacks and the threads' slots when a launch is
/// over: every emulated program is a shared object of its own, with its
/// own copy of them, so a process that loads many programs would otherwise
/// keep about 65 KiB a thread for each.
static void releaseBlockState() {
  std::vector<Fiber>().swap(fibers);
  std::vector<std::vector<char>>().swap(stacks);
  std::vector<unsigned long long>().swap(shuffleSlots);
  std::vector<MmaFragments>().swap(mmaSlots);
  std::vector<AsyncCopies>().swap(asyncCopySlots);
}
/// Runs `body` on every thread of the block `blockIdx`, as fibers: each
/// runs until it reaches a barrier or ends, then the next one; a round
/// ends with every live thread at the same barrier.
static void runBlock(const std::function<void()> &body) {
  constexpr size_t kStack = 64 * 1024;
  unsigned threads = blockDim.x * blockDim.y * blockDim.z;
  fibers.assign(threads, Fiber());
  stacks.resize(threads);
  shuffleSlots.assign(threads, 0);
  mmaSlots.assign(threads, MmaFragments());
  asyncCopySlots.assign(threads, AsyncCopies());
  kernelBody = &body;
  for (unsigned i = 0; i < threads; ++i) {
    Fiber &fiber = fibers[i];
    stacks[i].resize(kStack);
    fiber.thread.x = i % blockDim.x;
    fiber.thread.y = i / blockDim.x % blockDim.y;
    fiber.thread.z = i / (blockDim.x * blockDim.y);
    getcontext(&fiber.start);
    fiber.start.uc_stack.ss_sp = stacks[i].data();
    fiber.start.uc_stack.ss_size = kStack;
    fiber.start.uc_link = nullptr;
    makecontext(&fiber.start, fiberMain, 0);
  }
  for (bool live = true; live;) {
    live = false;
    for (Fiber &fiber : fibers) {
      if (fiber.done)
        continue;
      threadIdx = fiber.thread;
      running = &fiber;
      if (!_setjmp(scheduler)) {
        if (fiber.started)
          _longjmp(fiber.resume, 1);
        fiber.started = true;
        swapcontext(&schedulerContext, &fiber.start);
      }
      live |= !fiber.done;
    }
  }
}
} // namespace ens_emu
static inline void __syncthreads() {
  if (!_setjmp(ens_emu::running->resume))
    _longjmp(ens_emu::scheduler, 1);
}
/// A warp's barrier, for kernels whose warps share nothing (a member
/// each): every live thread of the block waits at it, which orders the
/// warp's threads as the GPU does and the other warps' more than it does.
static inline void __syncwarp(unsigned = 0xffffffffu) { __syncthreads(); }
/// The blocks of a grid run one after another, and a block's threads one
/// at a time on one host thread: every access is seen by the threads that
/// run after it, as a fence orders it on the GPU, and an atomic
/// read-modify-write is a plain one.
static inline void __threadfence() {}
/// atom.inc: the old value, and old + 1 in its place, or 0 from `limit` on.
static inline unsigned atomicInc(unsigned *address, unsigned limit) {
  unsigned old = *address;
  *address = old >= limit ? 0 : old + 1;
  return old;
}
/// A load that bypasses L1 (ld.global.cg): the host has no incoherent cache.
template <typename T> static inline T __ldcg(const T *address) { return *address; }
/// Every thread of the block posts its value, waits for all, reads its
/// source lane's (its own past the warp's end) and waits again, so that no
/// slot is overwritten before it is read. Kernels call it with every thread
/// of the block that has not returned, as the generated reductions do.
template <typename T>
static inline T __shfl_down_sync(unsigned, T value, int delta) {
  static_assert(sizeof(T) <= 8, "shuffles move up to 8 bytes");
  unsigned lane = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  unsigned threads = blockDim.x * blockDim.y * blockDim.z;
  std::memcpy(&ens_emu::shuffleSlots[lane], &value, sizeof(T));
  __syncthreads();
  unsigned source = lane + delta;
  T result = value;
  if (source / 32 == lane / 32 && source < threads)
    std::memcpy(&result, &ens_emu::shuffleSlots[source], sizeof(T));
  __syncthreads();
  return result;
}
/// cvt.rna.tf32.f32: to nearest, ties away from zero (adding half a TF32
/// ulp to the magnitude carries into bit 13 exactly when the dropped bits
/// are at least half of it), the low 13 bits cleared; NaN stays NaN.
#define ENS_EMULATED_MMA 1
static inline unsigned ens_cvt_tf32(float x) {
  unsigned bits;
  std::memcpy(&bits, &x, 4);
  if ((bits & 0x7fffffffu) > 0x7f800000u)
    return 0x7fffffffu;
  if ((bits & 0x7f800000u) != 0x7f800000u)
    bits += 0x1000u;
  return bits & 0xffffe000u;
}
/// mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 over the warp: every
/// thread posts its fragments of a and b, waits for all, computes its own
/// four elements of d from its warp's fragments (PTX ISA, "Matrix
/// Fragments for mma.m16n8k8": group g = lane / 4 and t = lane % 4 hold
/// a[g][t], a[g+8][t], a[g][t+4], a[g+8][t+4], b[t][g], b[t+4][g] and
/// d[g][2t], d[g][2t+1], d[g+8][2t], d[g+8][2t+1]), and waits again. The
/// hardware reads only the TF32 bits of a and b; their products are exact
/// in f32, and each is added to the accumulator in order of k, rounding
/// to nearest (the order and rounding inside a tensor core are not
/// specified). Kernels call it with every thread of the block, as the
/// generated ones do.
static inline void ens_mma_tf32_m16n8k8(float d[4], const unsigned a[4],
                                        const unsigned b[2], const float c[4]) {
  unsigned self = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  ens_emu::MmaFragments &mine = ens_emu::mmaSlots[self];
  for (int i = 0; i < 4; ++i)
    mine.a[i] = __uint_as_float(a[i] & 0xffffe000u);
  for (int i = 0; i < 2; ++i)
    mine.b[i] = __uint_as_float(b[i] & 0xffffe000u);
  __syncthreads();
  const ens_emu::MmaFragments *warp = &ens_emu::mmaSlots[self / 32 * 32];
  unsigned g = self % 32 / 4, t = self % 4;
  float result[4];
  for (unsigned i = 0; i < 4; ++i) {
    unsigned row = g + (i >= 2 ? 8 : 0), col = 2 * t + i % 2;
    float sum = c[i];
    for (unsigned k = 0; k < 8; ++k) {
      float x = warp[row % 8 * 4 + k % 4].a[(row >= 8) + 2 * (k >= 4)];
      float y = warp[col * 4 + k % 4].b[k >= 4];
      sum += x * y;
    }
    result[i] = sum;
  }
  __syncthreads();
  for (int i = 0; i < 4; ++i)
    d[i] = result[i];
}
/// cp.async.{ca,cg}.shared.global, cp.async.commit_group and
/// cp.async.wait_group as the PTX ISA defines them: a copy started by a
/// thread is pending until that thread commits it in a group (a commit with
/// no copies since the last one makes an empty group), and its bytes are
/// written only when the thread waits with at most N more recent groups
/// pending: the latest moment the ISA allows, so that a kernel that reads
/// the destination before the wait covering its group sees what was there
/// before, and one that lets another thread read it without a barrier after
/// that wait does too. Copies not yet committed are not waited for. The
/// source's first srcBytes bytes are read when the copy is made, the rest
/// of the destination is zero.
#define ENS_EMULATED_CP_ASYNC 1
namespace ens_emu {
static inline AsyncCopies &asyncCopiesOfThread() {
  unsigned self = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  if (asyncCopySlots.size() <= self)
    asyncCopySlots.resize(blockDim.x * blockDim.y * blockDim.z);
  return asyncCopySlots[self];
}
} // namespace ens_emu
template <int Bytes>
static inline void ens_cp_async(void *shared, const void *global, int srcBytes) {
  static_assert(Bytes == 4 || Bytes == 8 || Bytes == 16, "cp.async copies 4, 8 or 16 bytes");
  // Both addresses are aligned to the copy's size, or the copy faults.
  if (reinterpret_cast<std::uintptr_t>(shared) % Bytes ||
      reinterpret_cast<std::uintptr_t>(global) % Bytes) {
    if (!ens_emu::fault)
      ens_emu::fault = Bytes == 16  ? "misaligned address: a 16-byte cp.async"
                       : Bytes == 8 ? "misaligned address: an 8-byte cp.async"
                                    : "misaligned address: a 4-byte cp.async";
    return;
  }
  ens_emu::asyncCopiesOfThread().uncommitted.push_back(
      {static_cast<unsigned char *>(shared), static_cast<const unsigned char *>(global), Bytes,
       srcBytes < 0 ? 0 : (srcBytes > Bytes ? Bytes : srcBytes)});
}
static inline void ens_cp_async_commit() {
  ens_emu::AsyncCopies &copies = ens_emu::asyncCopiesOfThread();
  copies.groups.push_back(std::move(copies.uncommitted));
  copies.uncommitted.clear();
}
template <int N> static inline void ens_cp_async_wait() {
  static_assert(N >= 0, "cp.async.wait_group waits for N >= 0 groups");
  ens_emu::AsyncCopies &copies = ens_emu::asyncCopiesOfThread();
  for (; copies.groups.size() > static_cast<size_t>(N); copies.groups.pop_front())
    for (const ens_emu::AsyncCopy &copy : copies.groups.front()) {
      std::memcpy(copy.shared, copy.global, copy.srcBytes);
      std::memset(copy.shared + copy.srcBytes, 0, copy.bytes - copy.srcBytes);
    }
}
#define __shared__ static thread_local
#define ENS_DYNAMIC_SHARED(name) unsigned char *name = ens_emu::sharedMemory
)";

/// The shim that launches each kernel over its grid: const char *(const
/// unsigned *grid, const unsigned *block, unsigned sharedBytes, void
/// **params), which returns what stopped the launch (a misaligned access),
/// or null.
static std::string getShim(const LaunchPlan &plan) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "#include \"ens_cuda_emu.h\"\n#include \"kernels.cu\"\n";
  os << "extern \"C\" const int " << rt::kEmulatorAbiSymbol << " = 2;\n";
  for (const KernelInfo &kernel : plan.kernels) {
    os << "extern \"C\" const char *ens_emu_" << kernel.name
       << "(const unsigned *g, const unsigned *b, unsigned shared, "
          "void **p) {\n"
       << "  gridDim.x = g[0]; gridDim.y = g[1]; gridDim.z = g[2];\n"
       << "  blockDim.x = b[0]; blockDim.y = b[1]; blockDim.z = b[2];\n"
       << "  std::vector<ens_emu::SharedChunk> memory(shared / 16 + 1);\n"
       << "  ens_emu::sharedMemory = (unsigned char *)memory.data();\n"
       << "  ens_emu::fault = nullptr;\n"
       << "  std::function<void()> body = [&] { " << kernel.name << "(";
    for (auto [i, type] : llvm::enumerate(kernel.paramTypes))
      os << (i ? ", " : "") << "*(" << type << " *)p[" << i << "]";
    // CUDA promises no order of the blocks. They run last first at a
    // kernel's first launch, which breaks a kernel whose blocks read what
    // blocks before them write (as the phases that a tiled launch runs
    // side by side must not), and first first at the next, and so on, so
    // that a split whose tiles' last chunks finish them sees both its
    // first and its last chunk arrive last. The count is atomic: threads
    // may run executables that share this code.
    os << "); };\n"
       << "  static std::atomic<unsigned long long> launches{0};\n"
       << "  bool lastFirst =\n"
       << "      launches.fetch_add(1, std::memory_order_relaxed) % 2 == 0;\n"
       << "  unsigned long long blocks = 1ull * g[0] * g[1] * g[2];\n"
       << "  for (unsigned long long i = 0; i < blocks; ++i) {\n"
       << "    unsigned long long k = lastFirst ? blocks - 1 - i : i;\n"
       << "    blockIdx.x = k % g[0]; blockIdx.y = k / g[0] % g[1];\n"
       << "    blockIdx.z = k / g[0] / g[1];\n";
    if (kernel.usesBarriers) {
      os << "    ens_emu::runBlock(body);\n";
    } else {
      // Without barriers, running the threads in order is a schedule.
      os << "    ens_emu::asyncCopySlots.clear();\n"
         << "    for (unsigned tz = 0; tz < b[2]; ++tz)\n"
         << "    for (unsigned ty = 0; ty < b[1]; ++ty)\n"
         << "    for (unsigned tx = 0; tx < b[0]; ++tx) {\n"
         << "      threadIdx.x = tx; threadIdx.y = ty; threadIdx.z = tz;\n"
         << "      body();\n"
         << "    }\n";
    }
    os << "  }\n"
       << "  ens_emu::releaseBlockState();\n"
       << "  return ens_emu::fault;\n";
    os << "}\n";
  }
  return text;
}

/// The magic of a cache entry: an emulated object, format version 1.
static constexpr StringLiteral kMagic = "ENSEMU01";

/// The host compiler's options before the output and input files; part of
/// the cache key.
static const char *const kCompilerOptions[] = {
    // No contraction: the host rounds a * b + c twice, as NVRTC does with
    // --fmad=false; the kernels' explicit fmaf rounds once on both.
    "-O1", "-shared", "-fPIC", "-std=c++17", "-ffp-contract=off",
    // _longjmp between fiber stacks is what fortified longjmp rejects.
    "-U_FORTIFY_SOURCE", "-x", "c++"};

/// Builds the shared object of `source` and its `shim` with `compiler` and
/// returns its bytes.
static llvm::Expected<std::string>
buildObject(StringRef compiler, StringRef source, StringRef shim) {
  HostBuild build;
  build.directoryPrefix = "ens-cuda-emu";
  build.files = {{"ens_cuda_emu.h", kEmulationHeader},
                 {"kernels.cu", source},
                 {"shim.cpp", shim}};
  build.options.assign(std::begin(kCompilerOptions),
                       std::end(kCompilerOptions));
  build.output = "kernels.so";
  build.inputs = {"shim.cpp"};
  build.what = "the emulated kernels";
  build.maxOutputBytes = kMaxCacheEntryBytes;
  return runHostBuild(compiler, build);
}

llvm::Expected<std::string>
cuda::buildEmulatorObject(const CudaProgram &program,
                          StringRef cacheDirectory) {
  if (llvm::Error tooMuch = toLlvmError(rt::checkEmulatedWork(program.plan)))
    return std::move(tooMuch);
  llvm::Expected<std::string> compiler = findHostCompiler("cuda-emu");
  if (!compiler)
    return compiler.takeError();
  std::string shim = getShim(program.plan);
  // Each part with its length, so that no two different builds describe
  // themselves alike.
  std::string what;
  auto describe = [&](StringRef part) {
    what += std::to_string(part.size()) + ":" + part.str() + "\n";
  };
  describe(*compiler);
  for (const char *option : kCompilerOptions)
    describe(option);
  for (StringRef part : {StringRef(kEmulationHeader), StringRef(program.source),
                         StringRef(shim)})
    describe(part);
  std::string key = getCacheKey(what);

  DiskCache cache(cacheDirectory, "emu", ".so", kMagic);
  llvm::Expected<bool> usable = cache.open();
  if (!usable)
    return usable.takeError();
  if (*usable)
    if (std::optional<std::vector<std::string>> cached = cache.read(key, 1))
      return std::move(cached->front());
  llvm::Expected<std::string> built =
      buildObject(*compiler, program.source, shim);
  if (!built)
    return built.takeError();
  // Only an object that loads with every kernel is worth keeping.
  rt::Expected<std::unique_ptr<rt::Runner>> loads =
      rt::createEmulatedRunner(program.plan, *built);
  if (!loads)
    return toLlvmError(loads.takeError());
  if (*usable)
    cache.write(key, {*built});
  return built;
}

llvm::Expected<std::unique_ptr<EmulatedExecutable>>
EmulatedExecutable::compile(CudaProgram program, StringRef cacheDirectory) {
  llvm::Expected<std::string> object =
      buildEmulatorObject(program, cacheDirectory);
  if (!object)
    return object.takeError();
  rt::Expected<std::unique_ptr<rt::Runner>> runner =
      rt::createEmulatedRunner(program.plan, *object);
  if (!runner)
    return toLlvmError(runner.takeError());
  return std::unique_ptr<EmulatedExecutable>(
      new EmulatedExecutable(std::move(program), std::move(*runner)));
}

EmulatedExecutable::EmulatedExecutable(CudaProgram program,
                                       std::unique_ptr<rt::Runner> runner)
    : program(std::move(program)), runner(std::move(runner)) {}

EmulatedExecutable::~EmulatedExecutable() = default;

llvm::Expected<std::vector<HostTensor>>
EmulatedExecutable::run(ArrayRef<HostTensor> args) {
  return runOnHostTensors(*runner, program, args);
}
