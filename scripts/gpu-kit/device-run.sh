#!/usr/bin/env bash
#===- device-run.sh - The GPU check kit's one device run ------------------===#
#
# Usage: device-run.sh [RUN.SH ARGUMENTS]
#
# What the lead runs once on a lent GPU machine, from the kit that
# scripts/gpu-kit.sh wrote (about 300 s): the device, driver, CUDA, Python,
# torch, JAX and numpy versions, then run.sh --runs=20 with every peer it
# finds (a peer that cannot run prints "-"). Extra arguments go to run.sh.
#
#===----------------------------------------------------------------------===#
set -uo pipefail
kit="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
echo "== versions"
date -u
if command -v nvidia-smi > /dev/null; then
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm \
    --format=csv,noheader
else
  echo "nvidia-smi: not found"
fi
command -v nvcc > /dev/null && nvcc --version | tail -1
python3 - << 'PY' 2>&1
import sys
print("python", sys.version.split()[0])
for name in ("numpy", "torch", "jax", "jaxlib"):
    try:
        module = __import__(name)
        print(name, module.__version__)
    except Exception as error:
        print(name, "-", type(error).__name__, error)
try:
    import torch
    print("torch cuda", torch.version.cuda, "device",
          torch.cuda.get_device_name() if torch.cuda.is_available() else "-")
except Exception:
    pass
try:
    import jax
    print("jax devices", jax.devices())
except Exception as error:
    print("jax devices -", error)
PY
echo "== run.sh --runs=20 $*"
"$kit/run.sh" --runs=20 "$@"
