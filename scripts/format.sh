#!/usr/bin/env bash
#===- scripts/format.sh - clang-format the C++ of the tree ----------------===#
#
# Usage: scripts/format.sh [--check]
#
# Formats every tracked C and C++ file under include/, lib/, tools/, test/,
# examples/ and python/ with clang-format 14 and the tree's .clang-format (LLVM
# style). With --check it changes nothing and fails, naming the files,
# when any would change: the `clang-format` test runs it so. CUDA sources
# are left alone: the tests' .cu files carry RUN lines that reflowing
# would break, and Prelude.cuh is emitted as it is written.
#
#===----------------------------------------------------------------------===#
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
format="${CLANG_FORMAT:-clang-format-14}"
mapfile -t files < <(git -C "$root" ls-files 'include/*.h' 'lib/*.h' \
  'lib/*.cpp' 'tools/*.h' 'tools/*.cpp' 'test/*.h' 'test/*.cpp' 'test/*.c' \
  'examples/*.h' 'examples/*.cpp' 'python/*.h' 'python/*.cpp')
cd "$root"
if [[ "${1:-}" == --check ]]; then
  "$format" --dry-run -Werror "${files[@]}"
else
  "$format" -i "${files[@]}"
fi
