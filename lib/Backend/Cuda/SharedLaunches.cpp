//===- SharedLaunches.cpp - Independent kernels in one launch -------------===//
//
// Writes independent kernels as one launch whose blocks each run one of
// them (its section), from consecutive ranges of blocks: the phases of a
// tiled loop that do not depend on each other (TiledKernelEmitter.cpp), and
// the kernels of consecutive loops over members that share nothing they
// write, launch by launch in order. The groups of a heterogeneous ensemble
// (one ens.vmap per architecture, side by side in one function;
// docs/batching.md) are such loops, so that a step takes as many launches
// as its deepest group alone.
//
//===----------------------------------------------------------------------===//

#include "KernelEmitter.h"
#include "PhaseCounts.h"

#include "llvm/Support/Debug.h"
#include "llvm/Support/raw_ostream.h"

#define DEBUG_TYPE "ens-cuda-plan"

using namespace mlir;
using namespace mlir::ens;
using namespace mlir::ens::cuda;

void KernelEmitter::addSection(KernelBuilder &launch, KernelBuilder &section,
                               SideBySide &sides) const {
  // The sections share the kernel's parameters, since a buffer's parameter
  // is named after it.
  for (auto [arg, cType] :
       llvm::zip(section.launch.args, section.info.paramTypes))
    launch.bindParam(arg.value, cType);
  launch.read.insert(section.read.begin(), section.read.end());
  launch.written.insert(section.written.begin(), section.written.end());
  launch.twoBlocksPerSm |= section.twoBlocksPerSm;
  // The launch's indices are as wide as the widest section's.
  launch.indexBits = sides.sections.empty()
                         ? section.indexBits
                         : std::max(launch.indexBits, section.indexBits);
  launch.launch.block[0] =
      std::max(launch.launch.block[0], section.launch.block[0]);
  // The sections share the dynamic shared memory of a block.
  launch.launch.sharedBytes =
      std::max(launch.launch.sharedBytes, section.launch.sharedBytes);
  KernelInfo &info = launch.info;
  info.sourceOps +=
      (info.sourceOps.empty() ? "" : "; ") + section.info.sourceOps;
  info.usesBarriers |= section.info.usesBarriers;
  sides.work.add(info, section.info, section.launch.grid[0]);
  launch.launch.grid[0] = sides.work.blocks;
  countTraffic(section);
  sides.sections.push_back({section.info, section.launch.grid[0]});
}

void KernelEmitter::finishSideBySide(KernelBuilder &launch, SideBySide &sides) {
  sides.work.finish(launch.info);
  finishKernel(launch, std::move(sides.sections));
}

/// Whether `kernel` can run beside `sections` in one launch: its block fits
/// theirs, since a section of fewer threads than the launch's block has the
/// others return at once, which only one without block-wide barriers or
/// reductions may (one whose warps each compute a member).
static bool fitsBeside(ArrayRef<SharedSection> sections,
                       const KernelBuilder &kernel) {
  unsigned threads = kernel.launch.block[0];
  for (const SharedSection &section : sections)
    threads = std::max(threads, section.kernel.kernel.launch.block[0]);
  auto fits = [&](const KernelBuilder &other) {
    return other.launch.grid[1] == 1 && other.launch.grid[2] == 1 &&
           other.launch.block[1] == 1 && other.launch.block[2] == 1 &&
           (other.launch.block[0] == threads || other.warp);
  };
  return fits(kernel) &&
         llvm::all_of(sections, [&](const SharedSection &section) {
           return fits(section.kernel.kernel);
         });
}

/// Whether the kernels `next` read nothing that `shared` write and write
/// nothing that they use.
static bool isIndependent(const SharedLaunches &shared,
                          ArrayRef<SectionableKernel> next) {
  llvm::SetVector<int64_t> read, written;
  for (const std::vector<SharedSection> &launch : shared.launches)
    for (const SharedSection &section : launch) {
      read.insert(section.kernel.kernel.read.begin(),
                  section.kernel.kernel.read.end());
      written.insert(section.kernel.kernel.written.begin(),
                     section.kernel.kernel.written.end());
    }
  return llvm::all_of(next, [&](const SectionableKernel &kernel) {
    return llvm::none_of(kernel.kernel.read,
                         [&](int64_t b) { return written.contains(b); }) &&
           llvm::none_of(kernel.kernel.written, [&](int64_t b) {
             return read.contains(b) || written.contains(b);
           });
  });
}

void KernelEmitter::emitSharedLaunch(ArrayRef<SharedSection> sections) {
  if (sections.size() == 1) {
    // A kernel alone, as it was, at its new position.
    KernelBuilder kernel = sections[0].kernel.kernel;
    StringRef kind = StringRef(kernel.info.name).split('_').second;
    kernel.info.name =
        ("k" + Twine(program.plan.kernels.size()) + "_" + kind).str();
    finishKernel(kernel, sections[0].kernel.sections);
    return;
  }
  KernelBuilder launch = beginKernel({}, "groups");
  launch.info.sourceOps.clear();
  unsigned threads = 0;
  for (const SharedSection &section : sections)
    threads = std::max(threads, section.kernel.kernel.launch.block[0]);
  SideBySide sides;
  std::vector<KernelSection> flattened;
  int64_t dependentLoads = 1;
  llvm::raw_string_ostream os(launch.body);
  for (auto [position, shared] : llvm::enumerate(sections)) {
    KernelBuilder section = shared.kernel.kernel;
    int64_t first = sides.work.blocks;
    addSection(launch, section, sides);
    dependentLoads =
        std::max(dependentLoads, section.info.dependentLoadsPerThread);
    // The model sees the sections of a kernel that runs several itself.
    if (shared.kernel.sections.empty())
      flattened.push_back(sides.sections.back());
    else
      llvm::append_range(flattened, shared.kernel.sections);
    if (position == 0)
      os << "  if (blockIdx.x < " << sides.work.blocks << "u) {\n";
    else if (position + 1 < sections.size())
      os << "  } else if (blockIdx.x < " << sides.work.blocks << "u) {\n";
    else
      os << "  } else {\n";
    os << "  const unsigned ens_block = blockIdx.x - " << first << "u;\n";
    // Threads past the section's block have no work (fitsBeside).
    if (section.launch.block[0] < threads)
      os << "  if (threadIdx.x >= " << section.launch.block[0]
         << "u) return;\n";
    os << section.body;
  }
  os << "  }\n";
  launch.info.dependentLoadsPerThread = dependentLoads;
  sides.sections = std::move(flattened);
  LLVM_DEBUG(llvm::dbgs() << "one launch runs the kernels of "
                          << sections.size()
                          << " independent loops over members: "
                          << launch.info.sourceOps << "\n");
  finishSideBySide(launch, sides);
}

llvm::Error KernelEmitter::emitSharingForall(scf::ForallOp forall) {
  size_t kernelsBefore = program.plan.kernels.size();
  size_t gemmsBefore = program.plan.gemms.size();
  size_t configsBefore = program.configs.size();
  if (llvm::Error failure = emitForall(forall))
    return failure;
  // The loop's kernels, a launch each, if all can be sections.
  std::vector<SectionableKernel> written;
  bool sections = program.plan.gemms.size() == gemmsBefore &&
                  program.plan.launches.size() == program.plan.kernels.size() &&
                  program.configs.size() == configsBefore + 1;
  for (size_t i = kernelsBefore; sections && i < program.plan.kernels.size();
       ++i) {
    auto it = sectionable.find(i);
    sections = it != sectionable.end();
    if (sections)
      written.push_back(it->second);
  }
  if (!sections || written.empty()) {
    shared.reset();
    return llvm::Error::success();
  }
  // The launches before must be those of the loops before, with no GEMM
  // step after the first.
  bool adjacent = shared &&
                  shared->first + shared->launches.size() == kernelsBefore &&
                  llvm::none_of(program.plan.gemms, [&](const GemmStep &gemm) {
                    return gemm.after > shared->first;
                  });
  bool independent = adjacent && isIndependent(*shared, written);
  LLVM_DEBUG(if (adjacent) llvm::dbgs()
             << "a loop over members after " << shared->configs.size()
             << " before it: "
             << (independent ? "shares their launches"
                             : "uses what they write, or writes what they "
                               "use: launches of its own")
             << "\n");
  if (!independent) {
    shared = SharedLaunches{
        {}, {configsBefore}, kernelsBefore, written.front().source};
    for (auto [i, kernel] : llvm::enumerate(written))
      shared->launches.push_back({{kernel, kernelsBefore + i, 0}});
    return llvm::Error::success();
  }
  // Each launch of the loop joins the first launch after the one its
  // previous launch joined that its block fits, or comes after them all:
  // the loop's launches keep their order, and the loops before do not
  // depend on it.
  std::vector<std::vector<SharedSection>> launches = shared->launches;
  size_t next = 0;
  for (auto [i, kernel] : llvm::enumerate(written)) {
    SharedSection section{kernel, kernelsBefore + i, 0};
    while (next < launches.size() && !fitsBeside(launches[next], kernel.kernel))
      ++next;
    if (next == launches.size())
      launches.push_back({});
    launches[next++].push_back(std::move(section));
  }
  // Takes back the launches from the first one of the loops before, and
  // writes them again, each of several kernels as one.
  size_t first = shared->first;
  kernels.resize(shared->source);
  program.plan.kernels.resize(first);
  program.plan.launches.resize(first);
  program.sections.resize(first);
  // Where each section was and is now, to point the configs at it.
  struct Move {
    size_t from;
    int64_t fromBlock, blocks;
    size_t to;
    int64_t toBlock;
  };
  std::vector<Move> moves;
  for (std::vector<SharedSection> &launch : launches) {
    int64_t block = 0;
    for (SharedSection &section : launch) {
      int64_t blocks = section.kernel.kernel.launch.grid[0];
      moves.push_back({section.at, section.firstBlock, blocks,
                       program.plan.kernels.size(), block});
      section.at = program.plan.kernels.size();
      section.firstBlock = block;
      block += blocks;
    }
    emitSharedLaunch(launch);
  }
  auto move = [&](unsigned &kernel, int64_t &block) {
    for (const Move &m : moves)
      if (m.from == kernel && block >= m.fromBlock &&
          block < m.fromBlock + m.blocks) {
        kernel = m.to;
        block += m.toBlock - m.fromBlock;
        return;
      }
  };
  shared->configs.push_back(configsBefore);
  for (size_t position : shared->configs) {
    KernelConfig &config = program.configs[position];
    if (config.strategy != Strategy::Tiled) {
      move(config.kernel, config.firstBlock);
      continue;
    }
    for (PhaseConfig &phase : config.phases)
      move(phase.kernel, phase.firstBlock);
    if (!config.phases.empty())
      config.kernel = config.phases.front().kernel;
  }
  shared->launches = std::move(launches);
  return llvm::Error::success();
}
