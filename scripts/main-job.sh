#!/usr/bin/env bash
#===- scripts/main-job.sh - Build ens and run the examples ----------------===#
#
# The README's first command: installs, builds, and runs the example models
# with ens-run: one member, then 128 members batched with ens.vmap, then
# their initialisation and one training step (value_and_grad + Adam).
#
#===----------------------------------------------------------------------===#
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${ENS_BUILD_DIR:-$root/build}"
"$root/scripts/build.sh" ens-opt ens-run

data="examples/data"
run() {
  echo "+ ens-run $*"
  "$build/bin/ens-run" "$@"
}
cd "$root"
run examples/mlp.mlir --entry=loss --input="$data/x.npy" \
  --input="$data/w1.npy" --input="$data/b1.npy" --input="$data/w2.npy" \
  --input="$data/b2.npy" --input="$data/targets.npy"
run examples/tensordot.mlir --input="$data/td_x.npy" \
  --input="$data/td_w.npy" --input="$data/td_b.npy"
run examples/ensemble_tensordot.mlir --entry=predict_batch --random-inputs=1
run examples/ensemble_mlp.mlir --entry=ensemble_loss_shared \
  --random-inputs=1 --summary

# Initialise 128 members from one key, then train them for three steps on
# the example batch, each member with its own learning rate.
state="$(mktemp -d)"
trap 'rm -rf "$state"' EXIT
run examples/ensemble_init.mlir --entry=init --input="$data/key.npy" \
  --output-dir="$state" --summary
for step in 1 2 3; do
  inputs=()
  for i in $(seq 0 11); do inputs+=(--input="$state/out$i.npy"); done
  run examples/ensemble_train_step.mlir --entry=train_step "${inputs[@]}" \
    --input="$data/step$step.npy" --input="$data/lr128.npy" \
    --input="$data/x.npy" --input="$data/targets.npy" --output-dir="$state" \
    --summary | grep '^out12'
done
echo "+ ens-opt --ens-stdlib --ens-autodiff --ens-batch examples/ensemble_train_step.mlir"
ops=$("$build/bin/ens-opt" --ens-stdlib --ens-autodiff --ens-batch \
  examples/ensemble_train_step.mlir | grep -c ' = ens\.')
echo "  one program of $ops ens ops, no vmap and no loop over the 128 members"
