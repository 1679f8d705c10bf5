#!/usr/bin/env bash
#===- scripts/fuzz.sh - Long runs of the libFuzzer targets ----------------===#
#
# Usage: scripts/fuzz.sh [SECONDS] [TARGET...]
#
# Configures ./build-fuzz (or $ENS_FUZZ_BUILD_DIR) with clang-14,
# ENS_FUZZ=ON, ASan+UBSan and assertions (as scripts/sanitize.sh does, so
# that one build serves both), builds the fuzz targets, runs each named
# target (default: all of test/fuzz) for SECONDS (default 3600), one after
# another, and prints the runs each made. The corpus grows in
# build-fuzz/test/fuzz/corpus/TARGET; a failing input is written to
# build-fuzz/fuzz-artifacts/ and the script exits with status 1. To keep it
# as a regression input, copy it to test/fuzz/regressions/TARGET/.
#
#===----------------------------------------------------------------------===#
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${ENS_FUZZ_BUILD_DIR:-$root/build-fuzz}"
seconds="${1:-3600}"
shift || true
targets=("$@")
if ((${#targets[@]} == 0)); then
  targets=(mlir npy npz artifact dataset checkpoint train-flags program)
fi

cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_C_COMPILER=clang-14 -DCMAKE_CXX_COMPILER=clang++-14 \
  -DENS_FUZZ=ON -DENS_SANITIZE=address,undefined -DENS_ENABLE_ASSERTIONS=ON \
  > /dev/null
cmake --build "$build" --parallel "$(nproc)" \
  --target "${targets[@]/#/ens-fuzz-}"

# The options the fuzz tests use (cmake/EnsSanitizers.cmake): leaks are
# checked but in the program target, whose JIT threads LeakSanitizer cannot
# walk here.
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:abort_on_error=1"
# cuda-emu caches one shared object per program it builds: the program
# target's cache goes to a scratch directory, removed at the end.
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
export TMPDIR="$scratch" XDG_CACHE_HOME="$scratch/cache"

declare -A timeouts=([program]=120 [mlir]=20)
declare -A dicts=([mlir]=mlir.dict [npy]=npy.dict [npz]=npy.dict
                  [dataset]=npy.dict [checkpoint]=npy.dict
                  [train-flags]=train-flags.dict)
artifacts="$build/fuzz-artifacts"
mkdir -p "$artifacts"
summary=()
status=0
for target in "${targets[@]}"; do
  corpus="$build/test/fuzz/corpus/$target"
  mkdir -p "$corpus"
  inputs=("$root/test/fuzz/corpus/$target")
  if [[ -d "$root/test/fuzz/regressions/$target" ]]; then
    inputs+=("$root/test/fuzz/regressions/$target")
  fi
  options=(-max_total_time="$seconds" -timeout="${timeouts[$target]:-10}"
           -print_final_stats=1 -artifact_prefix="$artifacts/$target-")
  if [[ -n "${dicts[$target]:-}" ]]; then
    options+=(-dict="$root/test/fuzz/${dicts[$target]}")
  fi
  leaks=1
  if [[ "$target" == program ]]; then
    leaks=0
    # Under ASan the process keeps about 3 MB a program it compiled
    # (docs/reliability.md): fork mode runs the inputs in child processes,
    # a fresh one per job, so that the growth never adds up over a long
    # run; a crash still stops it.
    options+=(-fork=1 -rss_limit_mb=6144)
  fi
  export ASAN_OPTIONS="allow_user_poisoning=0:abort_on_error=1"
  ASAN_OPTIONS+=":detect_leaks=$leaks"
  log="$build/fuzz-$target.log"
  echo "fuzz.sh: $target for ${seconds}s (log: $log)"
  result=clean
  if ! "$build/test/fuzz/ens-fuzz-$target" "${options[@]}" "$corpus" \
      "${inputs[@]}" > "$log" 2>&1; then
    result="FAILED: $(grep -o "Test unit written to .*" "$log" ||
      echo "see $log")"
    status=1
  fi
  # Fork mode prints no final stats: its last status line counts the runs.
  runs="$(grep -o "number_of_executed_units: [0-9]*" "$log" |
    grep -o "[0-9]*$" || grep -o "^#[0-9]*" "$log" | tail -1 | tr -d "#" ||
    echo "?")"
  rate="$(grep -o "average_exec_per_sec: *[0-9]*" "$log" |
    grep -o "[0-9]*$" || echo "?")"
  summary+=("$(printf "%-12s %8ss %12s runs %8s/s  %s" "$target" "$seconds" \
    "$runs" "$rate" "$result")")
done
printf "%s\n" "${summary[@]}"
exit "$status"
