#!/usr/bin/env bash
# Usage: kill-while-writing.sh DIR ENS-OPT
#
# Runs ens-opt with its output a FIFO that is opened but never read, so
# that ens-opt blocks writing an output larger than the pipe's buffer, then
# kills it with SIGSEGV, which runs LLVM's signal handler, and prints the
# type of the output path afterwards.
set -euo pipefail
dir=$1
ens_opt=$2
{
  echo 'func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {'
  echo '  %v0 = ens.neg %x : tensor<4xf32>'
  for i in $(seq 1 3000); do
    echo "  %v$i = ens.neg %v$((i - 1)) : tensor<4xf32>"
  done
  echo '  return %v3000 : tensor<4xf32>'
  echo '}'
} > "$dir/big.mlir"
mkfifo "$dir/out"
# Opened for reading and writing here, so that ens-opt's open never waits.
exec 3<> "$dir/out"
"$ens_opt" "$dir/big.mlir" -o "$dir/out" &
pid=$!
# Wait (at most 30 s) until it blocks in the write.
for _ in $(seq 1 300); do
  if grep -q pipe_write "/proc/$pid/wchan" 2>/dev/null; then
    break
  fi
  sleep 0.1
done
kill -SEGV "$pid"
status=0
wait "$pid" || status=$?
echo "ens-opt exit status $status"
stat -c '%F' "$dir/out"
