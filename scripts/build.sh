#!/usr/bin/env bash
#===- scripts/build.sh - Configure and build ens -------------------------===#
#
# Installs the dependencies, then configures and builds ens in ./build (or
# $ENS_BUILD_DIR). Extra arguments are build targets; none builds everything.
# ENS_WERROR=ON (as scripts/test-all.sh and CI set it) makes warnings in
# ens's own sources errors; unset, the build keeps its configured choice.
#
#===----------------------------------------------------------------------===#
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${ENS_BUILD_DIR:-$root/build}"

"$root/scripts/install-deps.sh"
generator=()
if [[ ! -f "$build/CMakeCache.txt" ]] && command -v ninja >/dev/null; then
  generator=(-G Ninja)
fi
# install-deps.sh made the Python venv: the package must build, not be
# skipped quietly (python/CMakeLists.txt).
cmake -S "$root" -B "$build" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release \
  -DENS_REQUIRE_PYTHON=ON ${ENS_WERROR:+-DENS_WERROR="$ENS_WERROR"}
cmake --build "$build" --parallel "$(nproc)" ${1:+--target "$@"}
