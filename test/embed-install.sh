#!/usr/bin/env bash
# Installs the build into a fresh prefix, then builds and runs
# examples/embed against it with find_package(ens), as an application would.
#   test/embed-install.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build="$(cd "$1" && pwd)"
source="$(cd "$2" && pwd)"
work="$build/embed-install-test"
rm -rf "$work"
cmake --install "$build" --prefix "$work/prefix" > /dev/null
generator=()
command -v ninja > /dev/null && generator=(-G Ninja)
cmake -S "$source/examples/embed" -B "$work/build" "${generator[@]}" \
  -Dens_DIR="$work/prefix/lib/cmake/ens" > /dev/null
cmake --build "$work/build" > /dev/null
"$work/build/embed"

# The runtime component alone: a C application runs an artifact exported
# by the installed ens-export, and neither it nor the runtime links LLVM
# or MLIR.
cmake -S "$source/examples/runtime-embed" -B "$work/runtime-build" \
  "${generator[@]}" -Dens_DIR="$work/prefix/lib/cmake/ens" > /dev/null
cmake --build "$work/runtime-build" > /dev/null
"$work/prefix/bin/ens-export" "$source/examples/runtime-embed/fma.mlir" \
  --emulator -o "$work/fma.ens"
"$work/runtime-build/runtime-embed" "$work/fma.ens" cuda-emu
if ldd "$work/runtime-build/runtime-embed" | grep -E "LLVM|MLIR"; then
  echo "embed-install.sh: the runtime application links LLVM or MLIR" >&2
  exit 1
fi
