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
