#!/usr/bin/env bash
#===- scripts/main-job.sh - Build ens and run the examples ----------------===#
#
# The README's first command: installs, builds, and runs the example models
# with ens-run.
#
#===----------------------------------------------------------------------===#
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${ENS_BUILD_DIR:-$root/build}"
"$root/scripts/build.sh" ens-opt ens-run

data="$root/examples/data"
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
