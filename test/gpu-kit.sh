#!/usr/bin/env bash
# Writes the GPU check kit (scripts/gpu-kit.sh, which refuses a kit over
# 48 MiB), then runs its GPU command with the emulator standing in for the
# GPU: every program makes its inputs, runs from its artifact through
# ens-replay alone and matches the interpreter's results.
#   test/gpu-kit.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build="$(cd "$1" && pwd)"
source="$(cd "$2" && pwd)"
kit="$build/gpu-kit-test"
# --no-build: the suite's other tests are running the same binaries.
"$source/scripts/gpu-kit.sh" --no-build "$build" "$kit"
output="$("$kit/run.sh" --backend=cuda-emu)"
echo "$output"
# Eleven programs, each with a time: none failed.
test "$(grep -c -E '^[a-z_0-9]+ +[0-9]+\.[0-9]' <<< "$output")" -eq 11
