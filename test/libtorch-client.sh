#!/usr/bin/env bash
# Installs the build into a fresh prefix, then builds and runs
# examples/libtorch against it and libtorch: an ensemble kept as
# torch::Tensors, trained by an ens-compiled step through DLPack, checked
# against libtorch's autograd and Adam.
#   test/libtorch-client.sh BUILD_DIR SOURCE_DIR TORCH_DIR
# TORCH_DIR holds TorchConfig.cmake; the main configure looks it up.
set -euo pipefail
build="$(cd "$1" && pwd)"
source="$(cd "$2" && pwd)"
torch_dir="${3:-}"
if [[ ! -f "$torch_dir/TorchConfig.cmake" ]]; then
  echo "libtorch-client: libtorch was not found when $build was configured" \
       "(Torch_DIR=$torch_dir). It is required by the test suite: install" \
       "libtorch-dev (scripts/install-deps.sh), then reconfigure, or pass" \
       "-DTorch_DIR=<directory of TorchConfig.cmake>." >&2
  exit 1
fi
work="$build/libtorch-client-test"
rm -rf "$work"
mkdir -p "$work"
# Runs a step silently, showing its output only when it fails.
quiet() { "$@" > "$work/log" 2>&1 || { cat "$work/log" >&2; return 1; }; }
quiet cmake --install "$build" --prefix "$work/prefix"
generator=()
command -v ninja > /dev/null && generator=(-G Ninja)
# libtorch's headers dominate the build; ccache makes reruns cheap (the
# prefix path is the same each run, so the cache hits).
launcher=()
command -v ccache > /dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
quiet cmake -S "$source/examples/libtorch" -B "$work/build" "${generator[@]}" \
  "${launcher[@]}" -Dens_DIR="$work/prefix/lib/cmake/ens" \
  -DTorch_DIR="$torch_dir"
quiet cmake --build "$work/build"
"$work/build/libtorch-client"
