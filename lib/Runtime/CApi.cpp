//===- CApi.cpp - The C interface of libens-runtime -----------------------===//

#include "ens/ens_runtime.h"

#include "ens/Runtime/Program.h"

using namespace ens::runtime;

struct ens_program {
  std::unique_ptr<Program> program;
};

static thread_local std::string lastError;

/// Records `failure` as this thread's last error; 0 for success, else 1.
static int report(Error failure) {
  lastError = failure ? failure.getMessage() : "";
  return failure ? 1 : 0;
}

const char *ens_runtime_last_error(void) { return lastError.c_str(); }

int ens_program_load(const char *path, const char *backendName,
                     ens_program **program) {
  if (!path || !program)
    return report(Error("ens_program_load: null path or program"));
  *program = nullptr;
  // Nothing may escape a C interface: an allocation failure is an error.
  try {
    Expected<Artifact> artifact = readArtifact(path);
    if (!artifact)
      return report(artifact.takeError());
    Backend backend =
        artifact->target == ArtifactTarget::Cpu ? Backend::Cpu : Backend::Cuda;
    if (backendName) {
      std::optional<Backend> named = parseBackendName(backendName);
      if (!named)
        return report(Error(std::string("unknown backend '") + backendName +
                            "' (known: cpu, cuda, cuda-emu)"));
      backend = *named;
    }
    Expected<std::unique_ptr<Program>> loaded =
        Program::load(std::move(*artifact), backend);
    if (!loaded)
      return report(loaded.takeError());
    *program = new ens_program{std::move(*loaded)};
    return report(Error::success());
  } catch (const std::exception &error) {
    return report(Error(std::string("ens_program_load: ") + error.what()));
  }
}

size_t ens_program_num_args(const ens_program *program) {
  return program ? program->program->getSignature().args.size() : 0;
}

size_t ens_program_num_results(const ens_program *program) {
  return program ? program->program->getSignature().results.size() : 0;
}

int ens_program_run(ens_program *program, const DLTensor *const *args,
                    size_t numArgs, const DLTensor *const *results,
                    size_t numResults, void *stream) {
  if (!program || (numArgs && !args) || (numResults && !results))
    return report(Error("ens_program_run: null program or tensor list"));
  try {
    return report(program->program->run(
        std::vector<const DLTensor *>(args, args + numArgs),
        std::vector<const DLTensor *>(results, results + numResults), stream));
  } catch (const std::exception &error) {
    return report(Error(std::string("ens_program_run: ") + error.what()));
  }
}

void ens_program_free(ens_program *program) { delete program; }
