#!/usr/bin/env bash
#===- scripts/sanitize.sh - The test suite under ASan and UBSan -----------===#
#
# Usage: scripts/sanitize.sh [--subset] [CTEST_ARGS...]
#
# Configures ./build-fuzz (or $ENS_FUZZ_BUILD_DIR) with clang-14,
# ENS_SANITIZE=address,undefined, ENS_FUZZ=ON and ENS_ENABLE_ASSERTIONS=ON
# (the configuration that scripts/fuzz.sh uses too, so that one build serves
# both), builds, and runs ctest with the sanitizer options of
# cmake/EnsSanitizers.cmake.
#
# Without --subset it builds everything and runs the whole suite. With
# --subset it builds and runs only what CI has time for (.ci/run): the
# Support, Interpreter and API unit tests, the fuzz targets over their
# seeds and for ENS_FUZZ_TEST_SECONDS (default 20) each, and the lit tests
# of -debug-only output, which need assertions.
#
#===----------------------------------------------------------------------===#
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${ENS_FUZZ_BUILD_DIR:-$root/build-fuzz}"
subset=0
if [[ "${1:-}" == --subset ]]; then
  subset=1
  shift
fi

"$root/scripts/install-deps.sh"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_C_COMPILER=clang-14 -DCMAKE_CXX_COMPILER=clang++-14 \
  -DENS_FUZZ=ON -DENS_SANITIZE=address,undefined -DENS_ENABLE_ASSERTIONS=ON \
  -DENS_FUZZ_TEST_SECONDS="${ENS_FUZZ_TEST_SECONDS:-20}"
# Kernels that cuda-emu builds go to a scratch cache, removed at the end.
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
export TMPDIR="$scratch" XDG_CACHE_HOME="$scratch/cache"
if ((subset)); then
  cmake --build "$build" --parallel "$(nproc)" --target EnsSupportTests \
    EnsInterpreterTests EnsApiTests ens-fuzz-mlir ens-fuzz-npy ens-fuzz-npz \
    ens-fuzz-artifact ens-fuzz-dataset ens-fuzz-checkpoint ens-fuzz-train-flags \
    ens-fuzz-program ens-opt
  ctest --test-dir "$build" --output-on-failure --parallel "$(nproc)" \
    -L '^(EnsSupportTests|EnsInterpreterTests|EnsApiTests|fuzz)$' "$@"
  "$(llvm-config-19 --prefix)/build/utils/lit/lit.py" -sv "$build/test" \
    --filter 'debug-output'
else
  cmake --build "$build" --parallel "$(nproc)"
  ctest --test-dir "$build" --output-on-failure --parallel "$(nproc)" "$@"
fi
