/*===- ens_runtime.h - The C interface of libens-runtime ---------*- C -*-===*\
|*                                                                          *|
|* Runs programs exported by ens-export (or ens::Executable::save) without  *|
|* the compiler: libens-runtime links no LLVM or MLIR. Every function       *|
|* returns 0 on success, or nonzero with a message that                    *|
|* ens_runtime_last_error() gives until this thread's next call.            *|
|*                                                                          *|
|*   ens_program *program;                                                  *|
|*   if (ens_program_load("step.ens", "cuda", &program) != 0)               *|
|*     fprintf(stderr, "%s\n", ens_runtime_last_error());                   *|
|*   ens_program_run(program, args, 2, results, 1, NULL);                   *|
|*   ens_program_free(program);                                             *|
|*                                                                          *|
\*===----------------------------------------------------------------------===*/

#ifndef ENS_ENS_RUNTIME_H
#define ENS_ENS_RUNTIME_H

#include <dlpack/dlpack.h>

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#define ENS_RUNTIME_API __attribute__((visibility("default")))
#else
#define ENS_RUNTIME_API
#endif

/** A loaded program. Calls from several threads take turns. */
typedef struct ens_program ens_program;

/** The message of this thread's last failure ("" if none). */
ENS_RUNTIME_API const char *ens_runtime_last_error(void);

/** Loads the artifact at `path` for `backend`: "cpu", "cuda" or "cuda-emu";
 *  NULL for the artifact's own target (cpu or cuda). */
ENS_RUNTIME_API int ens_program_load(const char *path, const char *backend,
                                     ens_program **program);

/** The number of arguments and results. */
ENS_RUNTIME_API size_t ens_program_num_args(const ens_program *program);
ENS_RUNTIME_API size_t ens_program_num_results(const ens_program *program);

/** Runs the program: reads `args` and writes `results`, compact row-major
 *  tensors of the signature's types. On cuda they may be device tensors
 *  (kDLCUDA), run on `stream` (a CUstream; NULL for the program's own);
 *  otherwise host tensors (kDLCPU). Returns when the results are
 *  written. */
ENS_RUNTIME_API int ens_program_run(ens_program *program,
                                    const DLTensor *const *args,
                                    size_t num_args,
                                    const DLTensor *const *results,
                                    size_t num_results, void *stream);

/** Frees a program (NULL is allowed). */
ENS_RUNTIME_API void ens_program_free(ens_program *program);

#ifdef __cplusplus
}
#endif

#endif /* ENS_ENS_RUNTIME_H */
