/* Runs the artifact of fma.mlir (out = a * b + c over 2x3 f32 tensors)
 * through libens-runtime's C interface, and checks every element against
 * the same arithmetic done here.
 *   runtime-embed fma.ens [cpu|cuda|cuda-emu] */
#include <ens/ens_runtime.h>

#include <stdio.h>

static DLTensor view(float *data, int64_t *shape) {
  DLTensor tensor = {0};
  tensor.data = data;
  tensor.device.device_type = kDLCPU;
  tensor.ndim = 2;
  tensor.dtype.code = kDLFloat;
  tensor.dtype.bits = 32;
  tensor.dtype.lanes = 1;
  tensor.shape = shape;
  return tensor;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: runtime-embed fma.ens [backend]\n");
    return 2;
  }
  ens_program *program = NULL;
  if (ens_program_load(argv[1], argc > 2 ? argv[2] : NULL, &program) != 0) {
    fprintf(stderr, "runtime-embed: %s\n", ens_runtime_last_error());
    return 1;
  }
  int64_t shape[2] = {2, 3};
  float a[6] = {1, 2, 3, 4, 5, 6}, b[6] = {0.5f, -1, 2, 0, 3, 0.25f};
  float c[6] = {1, 1, 1, 1, 1, -1}, out[6] = {0};
  DLTensor ta = view(a, shape), tb = view(b, shape), tc = view(c, shape);
  DLTensor tout = view(out, shape);
  const DLTensor *args[] = {&ta, &tb, &tc};
  const DLTensor *results[] = {&tout};
  int status = ens_program_run(program, args, 3, results, 1, NULL);
  ens_program_free(program);
  if (status != 0) {
    fprintf(stderr, "runtime-embed: %s\n", ens_runtime_last_error());
    return 1;
  }
  for (int i = 0; i < 6; ++i)
    if (out[i] != a[i] * b[i] + c[i]) {
      fprintf(stderr, "runtime-embed: element %d is %g, not %g\n", i, out[i],
              a[i] * b[i] + c[i]);
      return 1;
    }
  printf("runtime-embed: fma matches on every element\n");
  return 0;
}
