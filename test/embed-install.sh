#!/usr/bin/env bash
# Installs the build, whole and by component (runtime, development, tools),
# into fresh prefixes, then builds and runs the examples against them with
# find_package(ens), as an application would, and against the build tree.
#   test/embed-install.sh BUILD_DIR SOURCE_DIR [CC CXX [FLAGS]]
# CC and CXX build the applications; FLAGS (the build's sanitizer flags)
# go to their compiles and links.
set -euo pipefail
build="$(cd "$1" && pwd)"
source="$(cd "$2" && pwd)"
work="$build/embed-install-test"
rm -rf "$work"
fail() {
  echo "embed-install.sh: $*" >&2
  exit 1
}
cmake --install "$build" --prefix "$work/prefix" > /dev/null
for component in runtime development tools; do
  cmake --install "$build" --component "$component" \
    --prefix "$work/$component" > /dev/null
done
options=()
command -v ninja > /dev/null && options=(-G Ninja)
if [[ -n "${3:-}" ]]; then
  options+=(-DCMAKE_C_COMPILER="$3" -DCMAKE_CXX_COMPILER="$4")
fi
if [[ -n "${5:-}" ]]; then
  options+=(-DCMAKE_C_FLAGS="$5" -DCMAKE_CXX_FLAGS="$5"
              -DCMAKE_EXE_LINKER_FLAGS="$5")
fi
# app EXAMPLE NAME ENS_DIR: builds examples/EXAMPLE as $work/NAME against
# the package in ENS_DIR.
app() {
  cmake -S "$source/examples/$1" -B "$work/$2" "${options[@]}" \
    -Dens_DIR="$3" > /dev/null
  cmake --build "$work/$2" > /dev/null
}

# ens's own static libraries are linked into libens and the tools, and
# installed by no component; each component holds only its own part.
if find "$work/prefix" -name '*.a' | grep .; then
  fail "the install holds static libraries"
fi
[[ -f "$work/runtime/bin/ens-replay" && ! -e "$work/runtime/bin/ens-opt" ]] ||
  fail "the runtime component is not ens-replay alone among the tools"
if find "$work/runtime" -name 'libens.so*' | grep .; then
  fail "the runtime component holds libens"
fi
[[ -f "$work/development/include/ens/ens.h" &&
   ! -e "$work/development/bin" ]] ||
  fail "the development component is not libens and its headers"
[[ -f "$work/tools/bin/ens-opt" && ! -e "$work/tools/lib" ]] ||
  fail "the tools component is not the tools alone"

# The C++ API, from the development component alone and from the build
# tree (-Dens_DIR=BUILD_DIR).
app embed embed "$work/development/lib/cmake/ens"
"$work/embed/embed"
app embed embed-build-tree "$build"
"$work/embed-build-tree/embed"

# Members over MPI processes with ens/distributed.h, where MPI is
# installed: 1, 2 and 3 processes give the same outputs as one.
if command -v mpirun > /dev/null && command -v mpicc > /dev/null; then
  app embed-mpi mpi-build "$work/prefix/lib/cmake/ens"
  for processes in 1 2 3; do
    OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
      mpirun --oversubscribe -np "$processes" "$work/mpi-build/embed-mpi"
  done
fi

# The runtime component alone: a C application runs an artifact exported
# by the installed ens-export (the tools component), and neither it nor
# the runtime links LLVM or MLIR.
app runtime-embed runtime-build "$work/runtime/lib/cmake/ens"
"$work/tools/bin/ens-export" "$source/examples/runtime-embed/fma.mlir" \
  --emulator -o "$work/fma.ens"
"$work/runtime-build/runtime-embed" "$work/fma.ens" cuda-emu
if ldd "$work/runtime-build/runtime-embed" | grep -E "LLVM|MLIR"; then
  fail "the runtime application links LLVM or MLIR"
fi
