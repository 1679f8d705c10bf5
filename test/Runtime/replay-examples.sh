#!/usr/bin/env bash
#===- replay-examples.sh - Exported examples replay as ens-run runs them --===#
#
# Usage: replay-examples.sh BIN_DIR SRC_ROOT WORK_DIR TARGET
#
# For every public function of every program under examples/: ens-run
# draws random inputs and writes them with its results on the backend
# TARGET names (cuda-emu or cpu); ens-export writes the function's
# artifact; ens-replay, which links the runtime alone, runs the artifact
# on the same inputs and must give the same results bit for bit
# (--rtol=0 --atol=0): the artifact holds the code ens-run ran.
#
#===----------------------------------------------------------------------===#
set -euo pipefail
bin="$1" root="$2" work="$3" target="$4"
rm -rf "$work" && mkdir -p "$work"
case "$target" in
  cuda-emu) export_flags=(--target=cuda --emulator) ;;
  cpu) export_flags=(--target=cpu) ;;
  *) echo "unknown target $target" >&2; exit 2 ;;
esac
count=0
for program in "$root"/examples/*.mlir "$root"/examples/workloads/*.mlir; do
  for entry in $(sed -n 's/^ *func\.func @\([A-Za-z0-9_]*\).*/\1/p' "$program"); do
    name="$(basename "$program" .mlir)-$entry"
    dir="$work/$name"
    "$bin/ens-run" "$program" --entry="$entry" --random-inputs=7 \
      --backend="$target" --write-inputs="$dir/in" --output-dir="$dir/want"
    "$bin/ens-export" "$program" --entry="$entry" "${export_flags[@]}" \
      -o "$dir/program.ens"
    inputs=() expects=()
    n=$(ls "$dir/in" | wc -l)
    for ((i = 0; i < n; ++i)); do inputs+=(--input="$dir/in/in$i.npy"); done
    n=$(ls "$dir/want" | wc -l)
    for ((i = 0; i < n; ++i)); do expects+=(--expect="$dir/want/out$i.npy"); done
    "$bin/ens-replay" "$dir/program.ens" --backend="$target" \
      "${inputs[@]}" "${expects[@]}" --rtol=0 --atol=0
    count=$((count + 1))
  done
done
echo "replayed $count functions on $target"
