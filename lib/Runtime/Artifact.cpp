//===- Artifact.cpp - Exported ens programs on disk -----------------------===//
//
// The artifact format of Artifact.h: a fixed header, a JSON manifest and
// the sections, each covered by a hash, so that nothing is used before all
// of it is known to be what was written.
//
//===----------------------------------------------------------------------===//

#include "ens/Runtime/Artifact.h"
#include "ens/Runtime/Bytes.h"

#include "ens/Runtime/FileIO.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstring>

using namespace ens::runtime;
using nlohmann::json;

static constexpr char kMagic[8] = {'E', 'N', 'S', 'P', 'R', 'O', 'G', '\0'};
static constexpr size_t kHeaderBytes = 32;
/// The largest manifest the runtime parses: plans are small, and the bulk
/// (code, constants) lies in the sections.
static constexpr uint64_t kMaxManifestBytes = uint64_t(64) << 20;

const char *ens::runtime::getArtifactTargetName(ArtifactTarget target) {
  return target == ArtifactTarget::Cpu ? "cpu" : "cuda";
}

std::string ens::runtime::section::cubin(std::string_view arch) {
  return std::string(arch) + ".cubin";
}

std::string ens::runtime::section::ptx(std::string_view arch) {
  return std::string(arch) + ".ptx";
}

const std::string *Artifact::findSection(const std::string &name) const {
  auto it = sections.find(name);
  return it == sections.end() ? nullptr : &it->second;
}

static void putU64(std::string &out, uint64_t value) {
  char bytes[8];
  putLittleEndian64(bytes, value);
  out.append(bytes, sizeof(bytes));
}

//===----------------------------------------------------------------------===//
// Writing
//===----------------------------------------------------------------------===//

static json toJson(const TensorSpec &spec) {
  return {{"name", spec.name},
          {"dtype", getDTypeSpelling(spec.dtype)},
          {"shape", spec.shape}};
}

/// The plan as JSON; the constants' bytes are appended to `constants`.
static json toJson(const LaunchPlan &plan, std::string &constants) {
  json buffers = json::array();
  for (const BufferInfo &buffer : plan.buffers) {
    json entry = {{"kind", getBufferKindName(buffer.kind)},
                  {"index", buffer.index},
                  {"dtype", getDTypeSpelling(buffer.dtype)},
                  {"shape", buffer.shape},
                  {"bytes", buffer.bytes}};
    if (buffer.kind == BufferKind::Temporary)
      entry["arena_offset"] = buffer.arenaOffset;
    if (buffer.kind == BufferKind::Constant) {
      entry["constant_offset"] = constants.size();
      constants.append(buffer.init.begin(), buffer.init.end());
    }
    buffers.push_back(std::move(entry));
  }
  json kernels = json::array();
  for (const KernelInfo &kernel : plan.kernels)
    kernels.push_back(
        {{"name", kernel.name},
         {"params", kernel.paramTypes},
         {"source_ops", kernel.sourceOps},
         {"uses_barriers", kernel.usesBarriers},
         {"flops", kernel.flops},
         {"fma_flops", kernel.fmaFlops},
         {"tensor_flops", kernel.tensorFlops},
         {"tensor_passes", kernel.tensorPasses},
         {"bytes_in_flight_per_thread", kernel.bytesInFlightPerThread},
         {"dependent_loads_per_thread", kernel.dependentLoadsPerThread},
         {"bytes_read", kernel.bytesRead},
         {"bytes_written", kernel.bytesWritten}});
  json launches = json::array();
  for (const KernelLaunch &launch : plan.launches) {
    json args = json::array();
    for (const KernelArg &arg : launch.args)
      args.push_back({{arg.isBuffer ? "buffer" : "scalar", arg.value}});
    launches.push_back({{"kernel", launch.kernel},
                        {"grid", launch.grid},
                        {"block", launch.block},
                        {"shared_bytes", launch.sharedBytes},
                        {"args", std::move(args)}});
  }
  json result = {{"buffers", std::move(buffers)},
                 {"kernels", std::move(kernels)},
                 {"launches", std::move(launches)},
                 {"arena_bytes", plan.arenaBytes}};
  // Only a plan with vendor GEMM steps has the key, so that the artifacts
  // of other plans stay as they were.
  if (!plan.gemms.empty()) {
    json gemms = json::array();
    auto operand = [](const GemmOperand &x) {
      return json{{"buffer", x.buffer},
                  {"offset", x.offset},
                  {"ld", x.ld},
                  {"stride", x.stride}};
    };
    for (const GemmStep &gemm : plan.gemms)
      gemms.push_back({{"after", gemm.after},
                       {"trans_a", gemm.transA},
                       {"trans_b", gemm.transB},
                       {"m", gemm.m},
                       {"n", gemm.n},
                       {"k", gemm.k},
                       {"batch", gemm.batch},
                       {"alpha", gemm.alpha},
                       {"beta", gemm.beta},
                       {"a", operand(gemm.a)},
                       {"b", operand(gemm.b)},
                       {"c", operand(gemm.c)},
                       {"source_ops", gemm.sourceOps}});
    result["gemms"] = std::move(gemms);
  }
  return result;
}

std::string ens::runtime::serializeArtifact(const Artifact &artifact) {
  std::map<std::string, std::string> sections = artifact.sections;
  json manifest = {{"target", getArtifactTargetName(artifact.target)},
                   {"entry", artifact.entry},
                   {"options", artifact.options},
                   {"source_sha256", artifact.sourceHash},
                   {"producer", artifact.producer}};
  for (auto [list, name] :
       {std::pair(&artifact.signature.args, "args"),
        std::pair(&artifact.signature.results, "results")}) {
    json specs = json::array();
    for (const TensorSpec &spec : *list)
      specs.push_back(toJson(spec));
    manifest["signature"][name] = std::move(specs);
  }
  if (artifact.target == ArtifactTarget::Cuda) {
    std::string constants;
    manifest["plan"] = toJson(artifact.plan, constants);
    sections[section::kConstants] = std::move(constants);
  }
  json table = json::array();
  std::string payload;
  for (const auto &[name, bytes] : sections) {
    table.push_back({{"name", name},
                     {"offset", payload.size()},
                     {"bytes", bytes.size()},
                     {"fnv1a64", hashFnv1a(bytes)}});
    payload += bytes;
  }
  manifest["sections"] = std::move(table);
  std::string text = manifest.dump(1);

  std::string out(kMagic, sizeof(kMagic));
  uint32_t version = artifact.plan.gemms.empty() ? kArtifactVersionWithoutGemms
                                                 : kArtifactVersion;
  for (int i = 0; i < 4; ++i)
    out.push_back(static_cast<char>(version >> (8 * i)));
  out.append(4, '\0');
  putU64(out, text.size());
  putU64(out, hashFnv1a(text));
  return out + text + payload;
}

Error ens::runtime::writeArtifact(const std::string &path,
                                  const Artifact &artifact) {
  return writeFileAtomically(path, serializeArtifact(artifact));
}

//===----------------------------------------------------------------------===//
// Reading
//===----------------------------------------------------------------------===//

/// Throws std::invalid_argument on the first number of `value`, under
/// object key `key`, that the reader could not convert to its field's type
/// exactly: nlohmann converts with a plain cast, which is undefined for a
/// floating-point value outside the target's range and silently wraps an
/// integer. Only "alpha" and "beta" (a GEMM step's factors) are floats, and
/// only "fnv1a64" (a section's hash) uses the whole range of uint64_t; the
/// fields of unsigned type hold 32 bits.
static void checkNumbers(const json &value, const std::string &key) {
  if (value.is_object()) {
    for (const auto &[name, item] : value.items())
      checkNumbers(item, name);
    return;
  }
  if (value.is_array()) {
    for (const json &item : value)
      checkNumbers(item, key);
    return;
  }
  auto fail = [&] {
    throw std::invalid_argument("\"" + key + "\" is " + value.dump() +
                                ", out of its range");
  };
  if (value.is_number_float()) {
    double number = value.get<double>();
    if ((key != "alpha" && key != "beta") || !std::isfinite(number) ||
        std::fabs(number) > FLT_MAX)
      fail();
    return;
  }
  static const char *const kUnsigned[] = {"index", "kernel", "grid", "block",
                                          "shared_bytes"};
  if (value.is_number_unsigned() && key != "fnv1a64" &&
      value.get<uint64_t>() > uint64_t(INT64_MAX))
    fail();
  if (value.is_number_integer() &&
      std::find(std::begin(kUnsigned), std::end(kUnsigned), key) !=
          std::end(kUnsigned) &&
      (value.get<int64_t>() < 0 || value.get<int64_t>() > int64_t(UINT32_MAX)))
    fail();
}

namespace {
/// Reads the manifest's JSON into an Artifact; nlohmann's exceptions (a
/// missing key, a wrong type) are caught by the caller.
struct ManifestReader {
  Artifact &artifact;

  static DType readDType(const json &value) {
    std::optional<DType> dtype = parseDTypeSpelling(value.get<std::string>());
    if (!dtype)
      throw std::invalid_argument("unknown element type " + value.dump());
    return *dtype;
  }

  static TensorSpec readSpec(const json &value) {
    TensorSpec spec;
    spec.name = value.at("name").get<std::string>();
    spec.dtype = readDType(value.at("dtype"));
    spec.shape = value.at("shape").get<std::vector<int64_t>>();
    if (!getDenseBytes(spec.dtype, spec.shape))
      throw std::invalid_argument("the shape of " + value.dump() +
                                  " is negative or too large");
    return spec;
  }

  void readPlan(const json &value, const std::string &constants) {
    LaunchPlan &plan = artifact.plan;
    plan.arenaBytes = value.at("arena_bytes").get<int64_t>();
    for (const json &entry : value.at("buffers")) {
      BufferInfo buffer;
      std::string kind = entry.at("kind").get<std::string>();
      std::optional<BufferKind> known = parseBufferKindName(kind);
      if (!known)
        throw std::invalid_argument("unknown buffer kind '" + kind + "'");
      buffer.kind = *known;
      buffer.index = entry.at("index").get<unsigned>();
      buffer.dtype = readDType(entry.at("dtype"));
      buffer.shape = entry.at("shape").get<std::vector<int64_t>>();
      buffer.bytes = entry.at("bytes").get<int64_t>();
      if (buffer.kind == BufferKind::Temporary)
        buffer.arenaOffset = entry.at("arena_offset").get<int64_t>();
      if (buffer.kind == BufferKind::Constant) {
        uint64_t offset = entry.at("constant_offset").get<uint64_t>();
        if (buffer.bytes < 0 || offset > constants.size() ||
            static_cast<uint64_t>(buffer.bytes) > constants.size() - offset)
          throw std::invalid_argument("a constant lies outside its section");
        buffer.init.assign(constants.begin() + offset,
                           constants.begin() + offset + buffer.bytes);
      }
      plan.buffers.push_back(std::move(buffer));
    }
    for (const json &entry : value.at("kernels")) {
      KernelInfo kernel;
      kernel.name = entry.at("name").get<std::string>();
      kernel.paramTypes = entry.at("params").get<std::vector<std::string>>();
      kernel.sourceOps = entry.at("source_ops").get<std::string>();
      kernel.usesBarriers = entry.at("uses_barriers").get<bool>();
      kernel.flops = entry.at("flops").get<int64_t>();
      kernel.fmaFlops = entry.at("fma_flops").get<int64_t>();
      // Artifacts written before tensor cores have none.
      kernel.tensorFlops = entry.value("tensor_flops", int64_t(0));
      kernel.tensorPasses = entry.value("tensor_passes", 1);
      kernel.bytesInFlightPerThread =
          entry.at("bytes_in_flight_per_thread").get<int64_t>();
      // Artifacts written before the field have one round trip a thread.
      kernel.dependentLoadsPerThread =
          entry.value("dependent_loads_per_thread", int64_t(1));
      kernel.bytesRead = entry.at("bytes_read").get<int64_t>();
      kernel.bytesWritten = entry.at("bytes_written").get<int64_t>();
      plan.kernels.push_back(std::move(kernel));
    }
    for (const json &entry : value.at("launches")) {
      KernelLaunch launch;
      launch.kernel = entry.at("kernel").get<unsigned>();
      launch.grid = entry.at("grid").get<std::array<unsigned, 3>>();
      launch.block = entry.at("block").get<std::array<unsigned, 3>>();
      launch.sharedBytes = entry.at("shared_bytes").get<unsigned>();
      for (const json &arg : entry.at("args")) {
        bool isBuffer = arg.contains("buffer");
        launch.args.push_back(
            {isBuffer, arg.at(isBuffer ? "buffer" : "scalar").get<int64_t>()});
      }
      plan.launches.push_back(std::move(launch));
    }
    if (!value.contains("gemms"))
      return;
    auto operand = [](const json &x) {
      return GemmOperand{
          x.at("buffer").get<int64_t>(), x.at("offset").get<int64_t>(),
          x.at("ld").get<int64_t>(), x.at("stride").get<int64_t>()};
    };
    for (const json &entry : value.at("gemms")) {
      GemmStep gemm;
      gemm.after = entry.at("after").get<size_t>();
      gemm.transA = entry.at("trans_a").get<bool>();
      gemm.transB = entry.at("trans_b").get<bool>();
      gemm.m = entry.at("m").get<int64_t>();
      gemm.n = entry.at("n").get<int64_t>();
      gemm.k = entry.at("k").get<int64_t>();
      gemm.batch = entry.at("batch").get<int64_t>();
      gemm.alpha = entry.at("alpha").get<float>();
      gemm.beta = entry.at("beta").get<float>();
      gemm.a = operand(entry.at("a"));
      gemm.b = operand(entry.at("b"));
      gemm.c = operand(entry.at("c"));
      gemm.sourceOps = entry.at("source_ops").get<std::string>();
      plan.gemms.push_back(std::move(gemm));
    }
  }

  void read(const json &manifest) {
    std::string target = manifest.at("target").get<std::string>();
    if (target != "cpu" && target != "cuda")
      throw std::invalid_argument("unknown target '" + target + "'");
    artifact.target =
        target == "cpu" ? ArtifactTarget::Cpu : ArtifactTarget::Cuda;
    artifact.entry = manifest.at("entry").get<std::string>();
    artifact.options =
        manifest.at("options").get<std::map<std::string, std::string>>();
    artifact.sourceHash = manifest.at("source_sha256").get<std::string>();
    artifact.producer = manifest.at("producer").get<std::string>();
    for (const json &spec : manifest.at("signature").at("args"))
      artifact.signature.args.push_back(readSpec(spec));
    for (const json &spec : manifest.at("signature").at("results"))
      artifact.signature.results.push_back(readSpec(spec));
  }
};
} // namespace

/// Reads the section table of `manifest` over `payload` into `artifact`.
static Error readSections(const json &manifest, std::string_view payload,
                          Artifact &artifact) {
  uint64_t end = 0;
  for (const json &entry : manifest.at("sections")) {
    std::string name = entry.at("name").get<std::string>();
    uint64_t offset = entry.at("offset").get<uint64_t>();
    uint64_t bytes = entry.at("bytes").get<uint64_t>();
    // Back to back, in order: every byte belongs to one section.
    if (offset != end || bytes > payload.size() - offset)
      return Error("section '" + name + "' lies outside the file (truncated?)");
    std::string_view data = payload.substr(offset, bytes);
    if (hashFnv1a(data) != entry.at("fnv1a64").get<uint64_t>())
      return Error("section '" + name + "' is corrupt (its hash differs)");
    if (!artifact.sections.emplace(name, std::string(data)).second)
      return Error("section '" + name + "' appears twice");
    end = offset + bytes;
  }
  if (end != payload.size())
    return Error(std::to_string(payload.size() - end) +
                 " bytes follow the last section");
  return Error::success();
}

Expected<Artifact> ens::runtime::parseArtifact(std::string_view bytes,
                                               const std::string &name) {
  auto fail = [&](const std::string &message) {
    return Error(name + ": " + message);
  };
  if (bytes.size() < kHeaderBytes ||
      std::memcmp(bytes.data(), kMagic, sizeof(kMagic)) != 0)
    return fail("not an ens artifact (no ENSPROG header)");
  uint32_t version = 0;
  for (int i = 3; i >= 0; --i)
    version = version << 8 | static_cast<unsigned char>(bytes[8 + i]);
  if (version != kArtifactVersion && version != kArtifactVersionWithoutGemms)
    return fail("artifact format version " + std::to_string(version) +
                "; this runtime reads versions " +
                std::to_string(kArtifactVersionWithoutGemms) + " and " +
                std::to_string(kArtifactVersion) + " (export it again)");
  if (bytes.substr(12, 4) != std::string_view("\0\0\0\0", 4))
    return fail("the header's reserved bytes are not zero (corrupt?)");
  uint64_t manifestBytes = getLittleEndian64(bytes.data() + 16);
  if (manifestBytes > bytes.size() - kHeaderBytes)
    return fail("the manifest runs past the end of the file (truncated?)");
  if (manifestBytes > kMaxManifestBytes)
    return fail("the manifest has " + std::to_string(manifestBytes) +
                " bytes, over the limit of " +
                std::to_string(kMaxManifestBytes));
  std::string_view text = bytes.substr(kHeaderBytes, manifestBytes);
  if (hashFnv1a(text) != getLittleEndian64(bytes.data() + 24))
    return fail("the manifest is corrupt (its hash differs)");
  Artifact artifact;
  try {
    json manifest = json::parse(text);
    checkNumbers(manifest, "");
    ManifestReader{artifact}.read(manifest);
    if (Error failure = readSections(
            manifest, bytes.substr(kHeaderBytes + manifestBytes), artifact))
      return fail(failure.getMessage());
    if (artifact.target == ArtifactTarget::Cuda) {
      const std::string *constants = artifact.findSection(section::kConstants);
      ManifestReader{artifact}.readPlan(manifest.at("plan"),
                                        constants ? *constants : "");
    }
  } catch (const std::exception &error) {
    return fail(std::string("malformed manifest: ") + error.what());
  }
  // Steps in an artifact of the version without them are what a runtime of
  // that version would skip: the artifact is inconsistent.
  if (version == kArtifactVersionWithoutGemms && !artifact.plan.gemms.empty())
    return fail("a version " + std::to_string(version) +
                " artifact with vendor GEMM steps (corrupt?)");
  if (artifact.target == ArtifactTarget::Cuda)
    if (Error failure = verifyPlan(artifact.plan, artifact.signature))
      return fail("invalid launch plan: " + failure.getMessage());
  return artifact;
}

Expected<Artifact> ens::runtime::readArtifact(const std::string &path) {
  ReadOptions options;
  options.maxBytes = kMaxArtifactBytes;
  Expected<std::string> bytes = readRegularFile(path, options);
  if (!bytes)
    return bytes.takeError();
  return parseArtifact(*bytes, path);
}
