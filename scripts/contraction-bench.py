#!/usr/bin/env python3
"""Times one batched contraction compiled by ens for the CPU, both ways round.

Usage: PYTHONPATH=build/python python scripts/contraction-bench.py M B I O [ROUNDS]

Compiles `mbi,mio->mbo` (the weight read along its rows) and `mbi,moi->mbo`
(the weight transposed) for M members of a batch of B, I inputs and O
outputs, on one thread, checks both against NumPy in float64, and prints the
median time of ROUNDS (default 5) alternating rounds of at least 0.3 s each,
with GFLOP/s (2*M*B*I*O per call) and the ratio of the two medians. A
benchmark, not a test: docs/notes/benchmark-results.md quotes its runs.
"""
import sys
import time

import numpy as np

import ens


def program(members, batch, inputs, outputs, spec, weight):
    return f"""func.func @f(%x: tensor<{members}x{batch}x{inputs}xf32>,
                  %w: tensor<{members}x{weight}xf32>)
    -> tensor<{members}x{batch}x{outputs}xf32> {{
  %y = ens.einsum %x, %w {{spec = "{spec}"}}
      : tensor<{members}x{batch}x{inputs}xf32>, tensor<{members}x{weight}xf32>
      -> tensor<{members}x{batch}x{outputs}xf32>
  return %y : tensor<{members}x{batch}x{outputs}xf32>
}}"""


def main():
    members, batch, inputs, outputs = (int(v) for v in sys.argv[1:5])
    rounds = int(sys.argv[5]) if len(sys.argv) > 5 else 5
    rng = np.random.default_rng(0)
    x = rng.standard_normal((members, batch, inputs), dtype=np.float32)
    w_io = rng.standard_normal((members, inputs, outputs), dtype=np.float32)
    w_oi = np.ascontiguousarray(w_io.transpose(0, 2, 1))
    shape = (members, batch, inputs, outputs)
    cases = {
        "mbi,mio->mbo": (program(*shape, "mbi,mio->mbo", f"{inputs}x{outputs}"), w_io),
        "mbi,moi->mbo": (program(*shape, "mbi,moi->mbo", f"{outputs}x{inputs}"), w_oi),
    }
    compiled = {spec: (ens.compile(text, threads=1), w) for spec, (text, w) in cases.items()}
    want = np.einsum("mbi,mio->mbo", x.astype(np.float64), w_io.astype(np.float64))
    flop = 2 * members * batch * inputs * outputs
    times = {spec: [] for spec in compiled}
    for _ in range(rounds):
        for spec, (function, w) in compiled.items():
            function(x, w)
            calls, start = 0, time.perf_counter()
            while calls < 3 or time.perf_counter() - start < 0.3:
                function(x, w)
                calls += 1
            times[spec].append((time.perf_counter() - start) / calls)
    medians = {}
    for spec, (function, w) in compiled.items():
        error = np.max(np.abs(function(x, w) - want)) / np.max(np.abs(want))
        medians[spec] = sorted(times[spec])[rounds // 2]
        print(f"{spec} {members}x{batch}x{inputs}x{outputs}: median "
              f"{medians[spec] * 1e3:.3f} ms, {flop / medians[spec] / 1e9:.1f} "
              f"GFLOP/s, relative error {error:.1e}")
    print(f"moi/mio {medians['mbi,moi->mbo'] / medians['mbi,mio->mbo']:.2f}")


if __name__ == "__main__":
    main()
