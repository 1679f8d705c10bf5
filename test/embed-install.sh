#!/usr/bin/env bash
# Installs the build into a fresh prefix, then builds and runs
# examples/embed against it with find_package(ens), as an application would.
#   test/embed-install.sh BUILD_DIR SOURCE_DIR [CC CXX [FLAGS]]
# CC and CXX build the applications; FLAGS (the build's sanitizer flags)
# go to their compiles and links.
set -euo pipefail
build="$(cd "$1" && pwd)"
source="$(cd "$2" && pwd)"
work="$build/embed-install-test"
rm -rf "$work"
cmake --install "$build" --prefix "$work/prefix" > /dev/null
options=()
command -v ninja > /dev/null && options=(-G Ninja)
if [[ -n "${3:-}" ]]; then
  options+=(-DCMAKE_C_COMPILER="$3" -DCMAKE_CXX_COMPILER="$4")
fi
if [[ -n "${5:-}" ]]; then
  options+=(-DCMAKE_C_FLAGS="$5" -DCMAKE_CXX_FLAGS="$5"
              -DCMAKE_EXE_LINKER_FLAGS="$5")
fi
cmake -S "$source/examples/embed" -B "$work/build" "${options[@]}" \
  -Dens_DIR="$work/prefix/lib/cmake/ens" > /dev/null
cmake --build "$work/build" > /dev/null
"$work/build/embed"

# Members over MPI processes with ens/distributed.h, where MPI is
# installed: 1, 2 and 3 processes give the same outputs as one.
if command -v mpirun > /dev/null && command -v mpicc > /dev/null; then
  cmake -S "$source/examples/embed-mpi" -B "$work/mpi-build" \
    "${options[@]}" -Dens_DIR="$work/prefix/lib/cmake/ens" > /dev/null
  cmake --build "$work/mpi-build" > /dev/null
  for processes in 1 2 3; do
    OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
      mpirun --oversubscribe -np "$processes" "$work/mpi-build/embed-mpi"
  done
fi

# The runtime component alone: a C application runs an artifact exported
# by the installed ens-export, and neither it nor the runtime links LLVM
# or MLIR.
cmake -S "$source/examples/runtime-embed" -B "$work/runtime-build" \
  "${options[@]}" -Dens_DIR="$work/prefix/lib/cmake/ens" > /dev/null
cmake --build "$work/runtime-build" > /dev/null
"$work/prefix/bin/ens-export" "$source/examples/runtime-embed/fma.mlir" \
  --emulator -o "$work/fma.ens"
"$work/runtime-build/runtime-embed" "$work/fma.ens" cuda-emu
if ldd "$work/runtime-build/runtime-embed" | grep -E "LLVM|MLIR"; then
  echo "embed-install.sh: the runtime application links LLVM or MLIR" >&2
  exit 1
fi
