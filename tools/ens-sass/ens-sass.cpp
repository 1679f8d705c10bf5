//===- ens-sass.cpp - What the SASS of CUDA kernels does ------------------===//
//
// Disassembles CUBINs with the toolkit's cuobjdump and reports, for each
// kernel and for each of its innermost loops (a backward branch whose range
// holds no other), the evidence the performance claims of docs/cuda.md rest
// on: the share of float arithmetic done by fused multiply-adds (FFMA, HMMA,
// ...) and the global and shared loads per fused multiply-add, each
// counted as the multiply-adds it does for its thread (an HMMA.1688 does
// 32, 16 x 8 x 8 over the warp), and spills
// (local loads and stores: ptxas spills through local memory). A CUDA
// source is first compiled with NVRTC with the options given. With --check,
// the exit status says whether every hot loop of a contraction (one that
// multiplies and stores nothing) meets the thresholds and no kernel spills;
// the checks of issue #31 are opt-in, for the kernels that claim them:
// --require-wide-loads (a kernel with a contraction loads global memory in
// 64- or 128-bit accesses or asynchronously, LDGSTS), --max-lsu-per-fma
// (load/store instructions per FMA in a contraction's hot loop, an LDS.128
// counting as one) and --require-32-bit-counters (no 64-bit comparison,
// ISETP .EX, in a hot loop) and --require-coalesced (no global access in
// a hot loop spreads a warp's lanes over more than twice the sectors its
// bytes need, by the dataflow analysis of LaneAddresses.h). Each hot loop's
// global load rounds (LoadRounds.h) are the round trips to global memory
// that a pass through it makes one after another: the dependent-load chain
// the model's latency term charges.
//
//===----------------------------------------------------------------------===//

#include "LaneAddresses.h"
#include "LoadRounds.h"
#include "Sass.h"

#include "ens/Backend/Cuda/Nvrtc.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <map>
#include <optional>

using namespace mlir;
using namespace mlir::ens;
using namespace mlir::ens::sass;
namespace cl = llvm::cl;

namespace {
cl::list<std::string> inputs(cl::Positional, cl::ZeroOrMore,
                             cl::desc("<file.cubin | file.cu>..."));
cl::opt<std::string>
    cuobjdumpPath("cuobjdump",
                  cl::desc("The cuobjdump to run (default: the one CMake "
                           "found, else the first on PATH)"),
                  cl::value_desc("PATH"), cl::init(ENS_CUOBJDUMP));
cl::opt<std::string> arch("arch",
                          cl::desc("Architecture to compile .cu inputs for"),
                          cl::init("sm_80"));
cl::list<std::string>
    nvrtcOptions("nvrtc-option",
                 cl::desc("An NVRTC option for .cu inputs (repeatable)"),
                 cl::value_desc("OPTION"));
cl::opt<bool> printCuobjdump(
    "print-cuobjdump",
    cl::desc("Print the cuobjdump ens-sass runs and exit; exit with 1 if "
             "there is none, or if the build has no NVRTC to compile the "
             "kernels to analyse"));
cl::opt<bool>
    check("check", cl::desc("Exit with 1 if a contraction's hot loop (one that "
                            "multiplies and stores nothing) misses a "
                            "threshold, or a kernel spills"));
cl::opt<bool>
    json("json",
         cl::desc("Print, instead of the text report, per kernel and per "
                  "innermost loop the instructions, FFMAs, float arithmetic, "
                  "and global and shared loads and stores, as JSON (what "
                  "the performance model's counts are checked against)"));
cl::opt<double>
    minFmaShare("min-fma-share",
                cl::desc("--check: least share of float arithmetic in fused "
                         "multiply-adds in a hot loop"),
                cl::init(0.7));
cl::opt<double> maxLoadsPerFma(
    "max-loads-per-fma",
    cl::desc("--check: most global and shared loads per fused multiply-add "
             "in a hot loop"),
    cl::init(0.6));
cl::opt<double> maxLsuPerFma(
    "max-lsu-per-fma",
    cl::desc("--check: most load/store instructions (global, shared, and "
             "asynchronous copies) per fused multiply-add in a "
             "contraction's hot loop; 0 (the default) checks none"),
    cl::init(0.0));
cl::opt<bool> requireWideLoads(
    "require-wide-loads",
    cl::desc("--check: a kernel with a contraction's hot loop must load "
             "global memory in 64- or 128-bit accesses or with cp.async "
             "(LDGSTS)"));
cl::opt<bool> require32BitCounters(
    "require-32-bit-counters",
    cl::desc("--check: no hot loop may compare 64-bit integers (ISETP with "
             ".EX), the sign of 64-bit loop counters and indices"));
cl::opt<std::string>
    launches("launches",
             cl::desc("The kernel report (ens-run --kernel-report=json) of the "
                      "kernels' launches: their block and grid widths let the "
                      "coalescing analysis follow the warps of several blocks"),
             cl::value_desc("FILE"));
cl::opt<bool> requireCoalesced(
    "require-coalesced",
    cl::desc("--check: no global access in a hot loop may spread its first "
             "warp's lanes over more than twice the 32-byte sectors their "
             "bytes need (LaneAddresses.h)"));

/// Instruction counts over a range of a kernel.
struct Counts {
  int64_t instructions = 0, floatArithmetic = 0, fusedMultiplyAdds = 0;
  /// Multiplies, fused or not, and global and shared stores.
  int64_t multiplies = 0, stores = 0;
  int64_t globalLoads = 0, sharedLoads = 0, localLoads = 0, localStores = 0;
  int64_t globalStores = 0, sharedStores = 0;
  /// Global loads of 64 or 128 bits, asynchronous global-to-shared copies
  /// (LDGSTS), and 64-bit integer comparisons (ISETP .EX).
  int64_t wideGlobalLoads = 0, asyncCopies = 0, compares64 = 0;
  /// The multiply-adds a thread's fused multiply-add instructions do: one
  /// each, and m n k / 32 for a warp's matrix multiply-add of shape m n k
  /// (32 for HMMA.1688), whose operands a thread loads a share of.
  int64_t threadMultiplyAdds = 0;

  /// Load/store instructions: global, shared and asynchronous copies.
  int64_t getLoadStores() const {
    return globalLoads + sharedLoads + globalStores + sharedStores +
           asyncCopies;
  }
  /// Per multiply-add of a thread (threadMultiplyAdds).
  double getLoadStoresPerFma() const {
    return threadMultiplyAdds ? double(getLoadStores()) / threadMultiplyAdds
                              : double(getLoadStores());
  }

  /// The share of the float arithmetic's work that fused multiply-adds
  /// do, each counted as its thread's multiply-adds (threadMultiplyAdds).
  double getFmaShare() const {
    int64_t work = threadMultiplyAdds + floatArithmetic - fusedMultiplyAdds;
    return work ? double(threadMultiplyAdds) / work : 0;
  }
  /// Loads per multiply-add of a thread (threadMultiplyAdds); a loop that
  /// loads without any has infinitely many, reported as the load count.
  double getLoadsPerFma() const {
    int64_t loads = globalLoads + sharedLoads;
    return threadMultiplyAdds ? double(loads) / threadMultiplyAdds
                              : double(loads);
  }
};

} // namespace

/// Base opcodes of fused multiply-adds, scalar and matrix.
static const StringRef kFusedMultiplyAdds[] = {"FFMA", "FFMA32I", "HFMA2",
                                               "DFMA", "HMMA",    "DMMA"};
/// Base opcodes of the other float additions and multiplications.
static const StringRef kOtherFloatArithmetic[] = {
    "FADD", "FADD32I", "FMUL", "FMUL32I", "HADD2", "HMUL2", "DADD", "DMUL"};

static bool isFusedMultiplyAdd(StringRef op) {
  return llvm::is_contained(kFusedMultiplyAdds, op);
}

/// Base opcodes of multiplies that are not fused with an add.
static const StringRef kPlainMultiplies[] = {"FMUL", "FMUL32I", "HMUL2",
                                             "DMUL"};

static bool isFloatArithmetic(StringRef op) {
  return isFusedMultiplyAdd(op) ||
         llvm::is_contained(kOtherFloatArithmetic, op);
}

/// The multiply-adds a thread does in fused multiply-add `op` with
/// `modifiers`: m n k / 32 for a matrix multiply-add whose first modifier
/// names its shape m16 n8 k (".1688", ".16816"), else 1.
static int64_t getThreadMultiplyAdds(StringRef op, StringRef modifiers) {
  if (op != "HMMA" && op != "DMMA")
    return 1;
  StringRef shape = modifiers.drop_front().split('.').first;
  int64_t k = 0;
  if (!shape.consume_front("168") || shape.getAsInteger(10, k) || k <= 0)
    return 1;
  return 16 * 8 * k / 32;
}

static Counts count(ArrayRef<Instruction> code) {
  Counts counts;
  for (const Instruction &instruction : code) {
    StringRef op = instruction.opcode, modifiers = instruction.modifiers;
    counts.wideGlobalLoads += op == "LDG" && getAccessBytes(modifiers) >= 8;
    counts.asyncCopies += op == "LDGSTS";
    counts.compares64 += op == "ISETP" && modifiers.contains(".EX");
    ++counts.instructions;
    counts.floatArithmetic += isFloatArithmetic(op);
    counts.fusedMultiplyAdds += isFusedMultiplyAdd(op);
    if (isFusedMultiplyAdd(op))
      counts.threadMultiplyAdds += getThreadMultiplyAdds(op, modifiers);
    counts.multiplies +=
        isFusedMultiplyAdd(op) || llvm::is_contained(kPlainMultiplies, op);
    counts.globalLoads += op == "LDG";
    counts.sharedLoads += op == "LDS" || op == "LDSM";
    counts.stores += op == "STG" || op == "STS";
    counts.globalStores += op == "STG";
    counts.sharedStores += op == "STS";
    counts.localLoads += op == "LDL";
    counts.localStores += op == "STL";
  }
  return counts;
}

static void printCounts(llvm::raw_ostream &os, const Counts &counts) {
  os << llvm::format(
      "instructions %lld, float arithmetic %lld, FMA %lld "
      "(%.1f%%), LDG %lld, LDS %lld, loads per FMA %.2f, "
      "LDL %lld, STL %lld, wide LDG %lld, LDGSTS %lld, load/stores per "
      "FMA %.2f, 64-bit compares %lld\n",
      (long long)counts.instructions, (long long)counts.floatArithmetic,
      (long long)counts.fusedMultiplyAdds, 100 * counts.getFmaShare(),
      (long long)counts.globalLoads, (long long)counts.sharedLoads,
      counts.getLoadsPerFma(), (long long)counts.localLoads,
      (long long)counts.localStores, (long long)counts.wideGlobalLoads,
      (long long)counts.asyncCopies, counts.getLoadStoresPerFma(),
      (long long)counts.compares64);
}

/// Prints how the global accesses among `kernel`'s instructions `first` to
/// `last` spread their lanes, and each uncoalesced one; returns whether
/// none is.
static bool reportLanes(const Kernel &kernel, ArrayRef<GlobalAccess> accesses,
                        size_t first, size_t last, llvm::raw_ostream &os) {
  int64_t total = 0, uncoalesced = 0, unknown = 0, unreached = 0;
  std::string details;
  llvm::raw_string_ostream detailsOs(details);
  for (const GlobalAccess &access : accesses) {
    if (access.index < first || access.index > last)
      continue;
    ++total;
    unreached += !access.reached;
    unknown += access.reached && !access.sectors;
    if (!access.isUncoalesced())
      continue;
    ++uncoalesced;
    const Instruction &instruction = kernel.code[access.index];
    detailsOs << llvm::format(
        "    uncoalesced %#06llx %s%s: %u sectors for "
        "%u\n",
        (unsigned long long)instruction.address, instruction.opcode.c_str(),
        instruction.modifiers.c_str(), *access.sectors, access.neededSectors);
  }
  os << llvm::format("    lanes: global accesses %lld, uncoalesced %lld, "
                     "unknown %lld, not reached %lld\n",
                     (long long)total, (long long)uncoalesced,
                     (long long)unknown, (long long)unreached)
     << details;
  return uncoalesced == 0;
}

/// Prints the report of `kernel`, launched as `shapes` says; returns
/// whether it meets the thresholds.
static bool report(const Kernel &kernel,
                   const std::map<std::string, LaunchShape> &shapes,
                   llvm::raw_ostream &os) {
  Counts total = count(kernel.code);
  os << "kernel " << kernel.name << ": ";
  printCounts(os, total);
  bool spills = total.localLoads || total.localStores;
  os << "  spills: " << (spills ? "yes" : "no") << "\n";
  bool meets = !spills;
  bool hasContraction = false;
  std::optional<LaunchShape> shape;
  if (auto it = shapes.find(kernel.name); it != shapes.end())
    shape = it->second;
  std::vector<GlobalAccess> accesses = analyzeGlobalAccesses(kernel, shape);
  for (auto [first, last] : findInnermostLoops(kernel)) {
    ArrayRef<Instruction> body =
        ArrayRef(kernel.code).slice(first, last - first + 1);
    Counts loop = count(body);
    os << llvm::format("  hot loop %#06llx-%#06llx: ",
                       (unsigned long long)kernel.code[first].address,
                       (unsigned long long)kernel.code[last].address);
    printCounts(os, loop);
    os << "    global load rounds: " << countLoadRounds(body) << "\n";
    if (!reportLanes(kernel, accesses, first, last, os) && requireCoalesced)
      meets = false;
    // Only a contraction's loop is held to the thresholds: one that
    // multiplies and keeps its results in registers from step to step (it
    // stores nothing). A loop without float multiplies (a copy, an index
    // loop, a sum, a maximum) has no multiply to fuse, and one that stores
    // computes elements one by one. A contraction written with FMUL and
    // FADD still multiplies without storing, and misses.
    if (require32BitCounters && loop.compares64)
      meets = false;
    if (!loop.multiplies || loop.stores)
      continue;
    hasContraction = true;
    if (loop.getFmaShare() < minFmaShare ||
        loop.getLoadsPerFma() > maxLoadsPerFma ||
        (maxLsuPerFma > 0 && loop.getLoadStoresPerFma() > maxLsuPerFma))
      meets = false;
  }
  if (requireWideLoads && hasContraction && !total.wideGlobalLoads &&
      !total.asyncCopies)
    meets = false;
  if (check)
    os << "  thresholds: " << (meets ? "met" : "missed") << "\n";
  return meets;
}

/// The counts of `counts` as a JSON object's members.
static void printJsonCounts(llvm::json::OStream &os, const Counts &counts) {
  os.attribute("instructions", counts.instructions);
  os.attribute("float_arithmetic", counts.floatArithmetic);
  os.attribute("ffma", counts.fusedMultiplyAdds);
  os.attribute("ldg", counts.globalLoads);
  os.attribute("lds", counts.sharedLoads);
  os.attribute("stg", counts.globalStores);
  os.attribute("sts", counts.sharedStores);
  os.attribute("ldl", counts.localLoads);
  os.attribute("stl", counts.localStores);
  os.attribute("wide_ldg", counts.wideGlobalLoads);
  os.attribute("ldgsts", counts.asyncCopies);
  os.attribute("isetp_64", counts.compares64);
}

/// Writes `kernel` and its innermost loops as a JSON object.
static void reportJson(const Kernel &kernel, llvm::json::OStream &os) {
  os.object([&] {
    os.attribute("name", kernel.name);
    printJsonCounts(os, count(kernel.code));
    os.attribute("ldg_rounds", countLoadRounds(kernel.code));
    os.attributeArray("loops", [&] {
      for (auto [first, last] : findInnermostLoops(kernel))
        os.object([&, first = first, last = last] {
          os.attribute("first", int64_t(kernel.code[first].address));
          os.attribute("last", int64_t(kernel.code[last].address));
          ArrayRef<Instruction> body =
              ArrayRef(kernel.code).slice(first, last - first + 1);
          printJsonCounts(os, count(body));
          os.attribute("ldg_rounds", countLoadRounds(body));
        });
    });
  });
}

static llvm::Error error(const Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

/// The CUBIN of `input`, compiled first into a temporary file if it is CUDA
/// source.
static llvm::Expected<std::string> getCubin(StringRef input,
                                            llvm::FileRemover &remover) {
  if (!input.ends_with(".cu"))
    return input.str();
  auto source = llvm::MemoryBuffer::getFile(input);
  if (!source)
    return error("cannot read " + input);
  std::vector<std::string> options(nvrtcOptions.begin(), nvrtcOptions.end());
  llvm::Expected<cuda::CompiledCuda> compiled = cuda::compileWithNvrtcOptions(
      (*source)->getBuffer(), llvm::sys::path::filename(input), arch, options);
  if (!compiled)
    return compiled.takeError();
  SmallString<128> path;
  if (std::error_code ec =
          llvm::sys::fs::createTemporaryFile("ens-sass", "cubin", path))
    return error("cannot create a temporary file: " + ec.message());
  remover.setFile(path);
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec);
  os << compiled->image;
  os.close();
  if (ec || os.has_error())
    return error("cannot write " + path);
  return path.str().str();
}

/// The cuobjdump to run.
static llvm::Expected<std::string> findCuobjdump() {
  if (!cuobjdumpPath.empty())
    return cuobjdumpPath;
  llvm::ErrorOr<std::string> found = llvm::sys::findProgramByName("cuobjdump");
  if (!found)
    return error("cuobjdump not found: run scripts/install-deps.sh or pass "
                 "--cuobjdump");
  return *found;
}

/// Runs cuobjdump -sass on `cubin` and returns its output.
static llvm::Expected<std::string> disassemble(StringRef cubin) {
  llvm::Expected<std::string> program = findCuobjdump();
  if (!program)
    return program.takeError();
  SmallString<128> output;
  if (std::error_code ec =
          llvm::sys::fs::createTemporaryFile("ens-sass", "txt", output))
    return error("cannot create a temporary file: " + ec.message());
  llvm::FileRemover remover(output);
  std::optional<StringRef> redirects[] = {std::nullopt, StringRef(output),
                                          std::nullopt};
  std::string message;
  int status =
      llvm::sys::ExecuteAndWait(*program, {*program, "-sass", cubin},
                                std::nullopt, redirects, 0, 0, &message);
  if (status != 0)
    return error("cuobjdump -sass " + cubin + " failed" +
                 (message.empty() ? "" : ": " + message));
  auto text = llvm::MemoryBuffer::getFile(output);
  if (!text)
    return error("cannot read cuobjdump's output");
  return (*text)->getBuffer().str();
}

/// The block and grid widths of each kernel in the kernel report that
/// --launches names: {"launches": [{"name", "grid": [x, y, z], "block":
/// [x, y, z]}, ...]}.
static llvm::Expected<std::map<std::string, LaunchShape>> readLaunchShapes() {
  std::map<std::string, LaunchShape> shapes;
  if (launches.empty())
    return shapes;
  auto text = llvm::MemoryBuffer::getFile(launches);
  if (!text)
    return error("cannot read " + launches);
  llvm::Expected<llvm::json::Value> report =
      llvm::json::parse((*text)->getBuffer());
  if (!report)
    return error(launches + ": " + llvm::toString(report.takeError()));
  const llvm::json::Object *object = report->getAsObject();
  const llvm::json::Array *list =
      object ? object->getArray("launches") : nullptr;
  if (!list)
    return error(launches + ": not a kernel report (no \"launches\")");
  for (const llvm::json::Value &launch : *list) {
    const llvm::json::Object *fields = launch.getAsObject();
    std::optional<StringRef> name =
        fields ? fields->getString("name") : std::nullopt;
    const llvm::json::Array *grid = fields ? fields->getArray("grid") : nullptr;
    const llvm::json::Array *block =
        fields ? fields->getArray("block") : nullptr;
    auto getWidth = [](const llvm::json::Array *dims) -> int64_t {
      return dims && !dims->empty() ? (*dims)[0].getAsInteger().value_or(0) : 0;
    };
    int64_t gridX = getWidth(grid), blockX = getWidth(block);
    if (!name || gridX <= 0 || blockX <= 0)
      return error(launches + ": a launch without a name, grid or block");
    shapes[name->str()] = {blockX, gridX};
  }
  return shapes;
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::ParseCommandLineOptions(
      argc, argv,
      "Report FMA share, loads per FMA and spills of CUDA kernels' SASS\n");
  if (printCuobjdump) {
    llvm::Expected<std::string> program = findCuobjdump();
    if (!program || !llvm::sys::fs::can_execute(*program) ||
        !cuda::isNvrtcAvailable()) {
      llvm::consumeError(program.takeError());
      return 1;
    }
    llvm::outs() << *program << "\n";
    return 0;
  }
  llvm::Expected<std::map<std::string, LaunchShape>> shapes =
      readLaunchShapes();
  if (!shapes) {
    llvm::WithColor::error() << llvm::toString(shapes.takeError()) << "\n";
    return 2;
  }
  bool meets = true;
  std::optional<llvm::json::OStream> jsonOs;
  if (json) {
    jsonOs.emplace(llvm::outs(), /*IndentSize=*/1);
    jsonOs->arrayBegin();
  }
  for (const std::string &input : inputs) {
    llvm::FileRemover remover;
    llvm::Expected<std::string> cubin = getCubin(input, remover);
    llvm::Expected<std::string> sass =
        cubin ? disassemble(*cubin) : cubin.takeError();
    if (!sass) {
      llvm::WithColor::error() << llvm::toString(sass.takeError()) << "\n";
      return 2;
    }
    for (const Kernel &kernel : parseSass(*sass)) {
      if (jsonOs)
        reportJson(kernel, *jsonOs);
      else
        meets &= report(kernel, *shapes, llvm::outs());
    }
  }
  if (jsonOs) {
    jsonOs->arrayEnd();
    llvm::outs() << "\n";
  }
  if (check && !meets) {
    llvm::outs() << llvm::format("thresholds missed: FMA share >= %g, loads "
                                 "per FMA <= %g, no spills",
                                 double(minFmaShare), double(maxLoadsPerFma));
    if (maxLsuPerFma > 0)
      llvm::outs() << llvm::format(", load/stores per FMA <= %g",
                                   double(maxLsuPerFma));
    if (requireWideLoads)
      llvm::outs() << ", wide or asynchronous global loads";
    if (require32BitCounters)
      llvm::outs() << ", 32-bit loop counters";
    if (requireCoalesced)
      llvm::outs() << ", coalesced global accesses";
    llvm::outs() << "\n";
    return 1;
  }
  return 0;
}
