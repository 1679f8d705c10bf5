#!/usr/bin/env bash
#===- scripts/gpu-kit.sh - The GPU check kit ------------------------------===#
#
# Usage: scripts/gpu-kit.sh [--no-build] [BUILD_DIR] [KIT_DIR]
#
# Builds ens-replay and libens-runtime in BUILD_DIR (default ./build; with
# --no-build, as the test suite calls it, uses what is built there) and
# writes the GPU check kit to KIT_DIR (default BUILD_DIR/gpu-kit, which
# git ignores): everything a machine with a GPU and no MLIR needs to run
# ens's CUDA programs, check them and time them against PyTorch
# (docs/cuda.md, "Running on a lent GPU"). The kit holds
#
#   bin/ens-replay, lib/libens-runtime.so   the runtime alone (no LLVM)
#   run.sh                                  the one command to run there
#   device-run.sh                           the one device run (versions,
#                                           run.sh --runs=20, all peers)
#   torch_peer.py, jax_peer.py, common.py,  the PyTorch and JAX peers
#   state_files.py                          (ens-bench's, in `check` mode)
#   programs/NAME/                          one program each:
#     step.ens        its cuda artifact (sm_80, sm_90, PTX, emulator build)
#     meta.sh         what it is, its tolerances, the peers' model, the
#                     performance model's H100 estimate
#     in/             its inputs, or
#     state.ens, state-in/, extra/  what makes them: a program (the
#                     workload's @random_state, or examples/ensemble_init)
#                     run there on a key, then inputs carried as they are
#     want/           its results, computed here by the interpreter (the
#                     large shapes leave results over WANT_MAX bytes out,
#                     listed in want/unchecked)
#
# Training steps carry the program that makes their state instead of the
# state itself, to keep the kit under 48 MiB; their results are checked
# within tolerances that cover the state made on the GPU.
#
#===----------------------------------------------------------------------===#
set -euo pipefail
build_first=1
if [[ "${1:-}" == --no-build ]]; then
  build_first=0
  shift
fi
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="$(cd "${1:-$root/build}" && pwd)"
kit="${2:-$build/gpu-kit}"
bin="$build/bin"
limit=$((48 * 1024 * 1024))

if ((build_first)); then
  cmake --build "$build" --target ens-replay ens-export ens-run > /dev/null
fi
rm -rf "$kit"
mkdir -p "$kit/programs"
cmake --install "$build" --component runtime --prefix "$kit" > /dev/null
peers="$root/tools/ens-bench/peers"
cp "$root/scripts/gpu-kit/run.sh" "$root/scripts/gpu-kit/device-run.sh" \
  "$peers/torch_peer.py" "$peers/jax_peer.py" "$peers/common.py" \
  "$peers/state_files.py" "$kit/"

# export NAME FILE ENTRY: the artifact of FILE's @ENTRY as NAME/step.ens,
# at the GPU precision $precision if it is set (else f32).
precision=""
export_program() {
  "$bin/ens-export" "$2" --entry="$3" --emulator \
    ${precision:+--gpu-precision="$precision"} -o "$kit/programs/$1/$4"
}

# model_us FILE ENTRY: the performance model's H100 estimate of FILE's
# @ENTRY in microseconds (docs/cuda.md, "Performance model"), which the
# kit prints beside the time measured on the GPU.
model_us() {
  "$bin/ens-run" "$1" --entry="$2" --kernel-report=json \
    ${precision:+--gpu-precision="$precision"} |
    python3 -c 'import json, sys; print("%.1f" % json.load(sys.stdin)["estimate"]["h100"]["us"])'
}

# write_meta NAME KEY VALUE [KEY VALUE]...: the program's meta.sh, which
# run.sh sources.
write_meta() {
  local file="$kit/programs/$1/meta.sh"
  shift
  : > "$file"
  while (($#)); do
    printf '%s=%q\n' "$1" "$2" >> "$file"
    shift 2
  done
}

# A program with its inputs: ens-run draws them and the interpreter gives
# the results.
plain() {
  local name="$1" file="$2" entry="$3" description="$4"
  local dir="$kit/programs/$name"
  mkdir -p "$dir"
  export_program "$name" "$file" "$entry" step.ens
  "$bin/ens-run" "$file" --entry="$entry" --random-inputs=1 \
    --write-inputs="$dir/in" --output-dir="$dir/want" > /dev/null
  write_meta "$name" DESCRIPTION "$description" PEER none ATOL 1e-4 \
    RTOL 1e-4 MODEL_H100_US "$(model_us "$file" "$entry")"
}

# A training step whose state program STATE_FILE @STATE_ENTRY makes its
# first inputs from STATE_INPUTS; EXTRA inputs follow them.
train_step() {
  local name="$1" file="$2" state_file="$3" state_entry="$4"
  local activation="$5" description="$6" state_inputs="$7" extra="$8"
  local dir="$kit/programs/$name"
  mkdir -p "$dir/state-in" "$dir/extra"
  export_program "$name" "$file" train_step step.ens
  export_program "$name" "$state_file" "$state_entry" state.ens
  local i=0 args=()
  for input in $state_inputs; do
    cp "$input" "$dir/state-in/in$i.npy"
    args+=(--input="$input")
    i=$((i + 1))
  done
  "$bin/ens-run" "$state_file" --entry="$state_entry" "${args[@]}" \
    --output-dir="$dir/state" > /dev/null
  local count
  count=$(ls "$dir/state" | wc -l)
  args=()
  for ((i = 0; i < count; ++i)); do
    args+=(--input="$dir/state/out$i.npy")
  done
  i=0
  for input in $extra; do
    cp "$input" "$dir/extra/in$i.npy"
    args+=(--input="$input")
    i=$((i + 1))
  done
  "$bin/ens-run" "$file" --entry=train_step "${args[@]}" \
    --output-dir="$dir/want" > /dev/null
  # The state itself is made again on the GPU.
  rm -rf "$dir/state"
  # Results over WANT_MAX bytes (weights and their Adam moments of the
  # large shapes) are left unchecked, listed in want/unchecked, to keep
  # the kit under its limit; the loss, the biases and every smaller
  # result, which the whole forward and backward pass feed, are checked.
  if [[ -n "${WANT_MAX:-}" ]]; then
    count=$(ls "$dir/want" | wc -l)
    for ((i = 0; i < count; ++i)); do
      if (($(stat -c %s "$dir/want/out$i.npy") > WANT_MAX)); then
        rm "$dir/want/out$i.npy"
        echo "$i" >> "$dir/want/unchecked"
      fi
    done
  fi
  # A step at another precision has the same peers as at f32: they run
  # once, beside the f32 step.
  local peer=mlp_train_step
  [[ -n "$precision" ]] && peer=none
  write_meta "$name" DESCRIPTION "$description" PEER "$peer" \
    ACTIVATION "$activation" ATOL 2e-4 RTOL 1e-3 \
    MODEL_H100_US "$(model_us "$file" train_step)"
}

data="$root/examples/data"
workloads="$root/examples/workloads"
echo "gpu-kit.sh: exporting the programs and computing their results" \
  "with the interpreter (a few minutes)"
train_step seed_step "$root/examples/ensemble_train_step.mlir" \
  "$root/examples/ensemble_init.mlir" init tanh \
  "128 members 64->32 tanh->8, batch 256: the seed training step" \
  "$data/key.npy" \
  "$data/step1.npy $data/lr128.npy $data/x.npy $data/targets.npy"
train_step tanh_256 "$workloads/tanh_256.mlir" "$workloads/tanh_256.mlir" \
  random_state tanh "4 members 256->256 tanh->256, batch 512: training step" \
  "$data/key.npy" ""
train_step mnist_mlp "$workloads/mnist_mlp.mlir" \
  "$workloads/mnist_mlp.mlir" random_state relu \
  "10 members 784->128->128->10 relu, batch 64: training step" \
  "$data/key.npy" ""
# Shapes of issue #26, item 4: wide members, very many tiny members, one
# member alone (launch overhead). The last two are made by the workload
# generator with the seed step's member shape; each makes its own state
# from a key on the device, so the 48 MiB limit does not decide them.
WANT_MAX=$((512 * 1024))
train_step wide_relu "$workloads/wide_relu.mlir" "$workloads/wide_relu.mlir" \
  random_state relu "16 members 512->512->512 relu, batch 256: training step" \
  "$data/key.npy" ""
# The tensor-core path (docs/cuda.md, "TF32 tensor cores") at 3xTF32, which
# keeps FP32's accuracy and so the same checks, on the workloads whose
# contractions it computes most of.
precision=3xtf32
train_step wide_relu_3xtf32 "$workloads/wide_relu.mlir" \
  "$workloads/wide_relu.mlir" random_state relu \
  "wide_relu's step with --gpu-precision=3xtf32 (tensor cores)" \
  "$data/key.npy" ""
train_step mnist_mlp_3xtf32 "$workloads/mnist_mlp.mlir" \
  "$workloads/mnist_mlp.mlir" random_state relu \
  "mnist_mlp's step with --gpu-precision=3xtf32 (tensor cores)" \
  "$data/key.npy" ""
precision=""
generated="$(mktemp -d "${TMPDIR:-/tmp}/ens-gpu-kit-XXXXXX")"
trap 'rm -rf "$generated"' EXIT
# generate NAME MEMBERS: the seed step's 64->32 tanh->8 member, batch 256.
generate() {
  python3 "$workloads/make_workloads.py" --members "$2" --batch 256 \
    --widths 64,32,8 --activation tanh -o "$generated/$1.mlir"
  echo "$generated/$1.mlir"
}
file="$(generate many_1000 1000)"
train_step many_1000 "$file" "$file" random_state tanh \
  "1000 members 64->32 tanh->8, batch 256: training step" "$data/key.npy" ""
file="$(generate one_member 1)"
train_step one_member "$file" "$file" random_state tanh \
  "1 member 64->32 tanh->8, batch 256: training step" "$data/key.npy" ""
WANT_MAX=""
plain mlp_loss "$root/examples/mlp.mlir" loss \
  "one 64->32 tanh->8 MLP's loss, batch 256"
plain ensemble_forward "$root/examples/ensemble_mlp.mlir" ensemble_forward \
  "an ensemble's forward pass (examples/ensemble_mlp.mlir)"
plain tensordot "$root/examples/ensemble_tensordot.mlir" predict_batch \
  "examples/ensemble_tensordot.mlir's batched prediction"

size=$(du -sb "$kit" | cut -f1)
if ((size > limit)); then
  echo "gpu-kit.sh: the kit has $size bytes, over the limit of $limit" >&2
  exit 1
fi
echo "gpu-kit.sh: wrote $kit ($size bytes); on the GPU machine run:"
echo "  $(basename "$kit")/run.sh"
