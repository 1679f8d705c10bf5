#!/usr/bin/env bash
#===- run.sh - The GPU check kit's one command ----------------------------===#
#
# Usage: run.sh [--backend=cuda|cuda-emu] [--runs=N] [--no-peers|--peers]
#
# Runs on a machine with a GPU, from the kit that scripts/gpu-kit.sh wrote,
# with nothing but the kit: for every program it makes the inputs (running
# the program's state maker where it has one), runs the program with
# ens-replay, checks every result against the interpreter's (but those
# listed in want/unchecked), times N runs (CUDA events around the
# launches), and for the training steps checks and times the peers on the
# same data and step: PyTorch where `python3 -c "import torch"` works (a
# loop over members, torch.func.vmap, vmap under a CUDA graph, a
# hand-written baddbmm step under a CUDA graph) and JAX where
# `import jax` works (jit of vmap(value_and_grad) + Adam at FP32); a peer
# that cannot run prints "-", "n/a" where it cannot run on this device,
# "wrong results" where its check fails. It prints one table.
# --backend=cuda-emu runs the same artifacts through the CPU emulation of
# CUDA instead, which stands in for the GPU where there is none (with one
# run and no peers unless --peers: then the peers run on the CPU). Exits 1
# if any program fails its check.
#
#===----------------------------------------------------------------------===#
set -uo pipefail
kit="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
backend=cuda runs="" peers=""
for arg in "$@"; do
  case "$arg" in
    --backend=*) backend="${arg#--backend=}" ;;
    --runs=*) runs="${arg#--runs=}" ;;
    --no-peers) peers=0 ;;
    --peers) peers=1 ;;
    *) echo "run.sh: unknown argument '$arg'" >&2; exit 2 ;;
  esac
done
if [[ "$backend" == cuda-emu ]]; then
  runs="${runs:-1}"
  peers="${peers:-0}"
fi
peers="${peers:-1}"
runs="${runs:-50}"
replay="$kit/bin/ens-replay"
work="$(mktemp -d "${TMPDIR:-/tmp}/ens-gpu-kit-XXXXXX")"
trap 'rm -rf "$work"' EXIT
torch=0 jax=0
if ((peers)) && python3 -c "import torch" 2> /dev/null; then
  torch=1
fi
if ((peers)) && python3 -c "import jax" 2> /dev/null; then
  jax=1
fi
device="$backend"
if [[ "$backend" == cuda ]] && command -v nvidia-smi > /dev/null; then
  device="$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)"
fi

# json_field JSON KEY: the value of KEY in a one-line JSON object.
json_field() {
  sed -n "s/.*\"$2\": *\"\{0,1\}\([^,\"}]*\).*/\1/p" <<< "$1"
}
# micros SECONDS: SECONDS in microseconds, or "-".
micros() {
  [[ -n "$1" ]] && awk -v s="$1" 'BEGIN { printf "%.1f", s * 1e6 }' || echo -
}

# inputs NAME DIR: makes program NAME's inputs as DIR/in<i>.npy.
inputs() {
  local program="$kit/programs/$1" dir="$2" i=0 count
  mkdir -p "$dir"
  if [[ -f "$program/state.ens" ]]; then
    local args=()
    count=$(ls "$program/state-in" | wc -l)
    for ((k = 0; k < count; ++k)); do
      args+=(--input="$program/state-in/in$k.npy")
    done
    "$replay" "$program/state.ens" --backend="$backend" "${args[@]}" \
      --output-dir="$dir.state" > /dev/null || return 1
    count=$(ls "$dir.state" | wc -l)
    for ((k = 0; k < count; ++k, ++i)); do
      ln -s "$dir.state/out$k.npy" "$dir/in$i.npy"
    done
    count=$(ls "$program/extra" | wc -l)
    for ((k = 0; k < count; ++k, ++i)); do
      ln -s "$program/extra/in$k.npy" "$dir/in$i.npy"
    done
  else
    count=$(ls "$program/in" | wc -l)
    for ((k = 0; k < count; ++k)); do
      ln -s "$program/in/in$k.npy" "$dir/in$k.npy"
    done
  fi
}

status=0
rows=()
for program in "$kit"/programs/*/; do
  name="$(basename "$program")"
  DESCRIPTION="" PEER=none ACTIVATION="" ATOL=1e-4 RTOL=1e-4
  MODEL_H100_US=-
  # shellcheck source=/dev/null
  source "$program/meta.sh"
  dir="$work/$name"
  if ! inputs "$name" "$dir"; then
    rows+=("$name|FAILED (making its inputs)|-|-|-|-|-|-")
    status=1
    continue
  fi
  args=() expects=()
  count=$(ls "$dir" | wc -l)
  for ((k = 0; k < count; ++k)); do args+=(--input="$dir/in$k.npy"); done
  # Results listed in want/unchecked (too large for the kit) have no file.
  count=$(ls "$program/want" | grep -c '^out')
  [[ -f "$program/want/unchecked" ]] &&
    count=$((count + $(wc -l < "$program/want/unchecked")))
  for ((k = 0; k < count; ++k)); do
    if [[ -f "$program/want/out$k.npy" ]]; then
      expects+=(--expect="$program/want/out$k.npy")
    else
      expects+=(--expect=-)
    fi
  done
  if ! result="$("$replay" "$program/step.ens" --backend="$backend" \
      "${args[@]}" "${expects[@]}" --atol="$ATOL" --rtol="$RTOL" \
      --time="$runs" --json 2> "$work/$name.err")"; then
    echo "$name: $(cat "$work/$name.err")" >&2
    rows+=("$name|FAILED|-|-|-|-|-|-")
    status=1
    continue
  fi
  ens="$(json_field "$result" median_s)"
  cells=()
  for column in torch:loop torch:vmap torch:vmap-graph torch:bmm-graph \
      jax:jit-vmap; do
    cell=- framework="${column%%:*}" impl="${column#*:}"
    enabled=$torch
    [[ "$framework" == jax ]] && enabled=$jax
    if ((enabled)) && [[ "$PEER" != none ]]; then
      peer="$(python3 "$kit/${framework}_peer.py" check --state="$dir" \
        --want="$program/want" --activation="$ACTIVATION" --impl="$impl" \
        --runs="$runs" --atol="$ATOL" --rtol="$RTOL" 2> /dev/null)"
      median="$(json_field "$peer" median_s)"
      if [[ -n "$median" ]]; then
        cell="$(micros "$median") ($(awk -v p="$median" -v e="$ens" \
          'BEGIN { printf "%.2fx", p / e }'))"
      elif [[ -n "$(json_field "$peer" mismatch)" ]]; then
        cell="wrong results"
      else
        cell="n/a"
      fi
    fi
    cells+=("$cell")
  done
  rows+=("$name|$(micros "$ens")|$MODEL_H100_US|$(IFS='|'; echo "${cells[*]}")")
  # Each row as soon as it is known, so that a run cut short keeps it.
  echo "run.sh: ${rows[-1]}" >&2
done

echo "ens on $device: median of $runs runs, microseconds, beside the"
echo "performance model's H100 estimate; each peer's median and its time"
echo "over ens's (above 1x: ens is faster); '-': the peer cannot run here"
format="%-14s %11s %8s %17s %17s %17s %17s %17s\n"
printf "$format" program ens "model" "torch loop" "torch vmap" \
  "vmap+CUDA graph" "bmm+CUDA graph" "JAX jit(vmap)"
for row in "${rows[@]}"; do
  IFS='|' read -r -a cells <<< "$row"
  printf "$format" "${cells[@]}"
done
exit "$status"
