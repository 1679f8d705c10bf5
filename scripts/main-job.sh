#!/usr/bin/env bash
#===- scripts/main-job.sh - Build ens and train an ensemble ---------------===#
#
# The README's first command: installs, builds, then trains an ensemble with
# ens-train on its defaults: 128 members of examples/mlp.mlir, each with its
# own learning rate, for 300 full-batch Adam steps in ONE generated program,
# on a built-in 1-D regression problem with a gap in its inputs. It prints
# the summary (losses, held-out error and the members' spread inside and
# outside the gap) and writes the plot to build/ens-train.svg. Then it runs
# one example model with ens-run.
#
#===----------------------------------------------------------------------===#
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${ENS_BUILD_DIR:-$root/build}"
"$root/scripts/build.sh" ens-opt ens-run ens-train

cd "$root"
echo "+ ens-train --plot=$build/ens-train.svg"
"$build/bin/ens-train" --plot="$build/ens-train.svg"

data="examples/data"
echo "+ ens-run examples/mlp.mlir --entry=loss --input=$data/x.npy ..."
"$build/bin/ens-run" examples/mlp.mlir --entry=loss --input="$data/x.npy" \
  --input="$data/w1.npy" --input="$data/b1.npy" --input="$data/w2.npy" \
  --input="$data/b2.npy" --input="$data/targets.npy"
