#!/usr/bin/env python3
#===- model_vs_sass.py - The model's hot loops against the CUBIN's SASS ---===#
#
# Compares the load and store instructions per iteration of each hot loop
# that the performance model counts (`ens-run --kernel-report=json`, each
# launch's "model": {"hot_loops"}) with those of the innermost loops of the
# same kernel in the real CUBIN (`ens-sass --json`): the independent
# oracle. Model loops and SASS loops are paired one to one, closest first
# in FFMAs and instructions (not in the loads and stores compared), then
# improved by exchanges that shorten the pairs' total distance,
# allowing ptxas to have unrolled a loop k = 1 or 2 times further (the
# counts are then compared with k times the model's);
# every paired loop with at least --min-loads loads must agree within
# --tolerance on its loads and on its stores (stores within one), and every
# SASS loop with at least 32 FFMAs (a contraction's register tile) must be
# paired.
#
# The dependent-load chains too: each paired loop's global load rounds a
# pass (ens-sass's "ldg_rounds", the round trips its loads make one after
# another) against those the model charges an iteration ("load_rounds"),
# over the iterations it charges them ("iterations"). Where they differ,
# the launch's latency term is redone with the SASS's rounds in the
# model's place (scaled by the chain's length), and the launch's estimate
# must stay within --tolerance. A launch named in --expected-chain-misses
# must miss (a known gap, which docs/cuda.md explains): it fails once it no
# longer does, so that the list shrinks. Exits 1 on a miss; prints one
# line per loop and per launch whose chain differs.
#
#===----------------------------------------------------------------------===#

import argparse
import json
import math
import sys


def sass_counts(loop):
    return {
        "loads": loop["ldg"] + loop["lds"],
        "stores": loop["stg"] + loop["sts"],
        "ffma": loop["ffma"],
        "instructions": loop["instructions"],
        "rounds": loop["ldg_rounds"],
    }


def distance(model, sass, k):
    def term(a, b):
        return abs(math.log(a + 1) - math.log(b + 1))

    return term(k * model["ffma"], sass["ffma"]) + term(
        k * model["instructions"], sass["instructions"])


def check_chain(launch, extra_rounds, tolerance):
    """Whether `launch`'s H100 estimate stays within `tolerance` when its
    latency term waits `extra_rounds` more round trips a thread (fewer if
    negative): the term scaled by the chain's new length, or where the
    model charged no chain, DRAM round trips (500 ns, docs/cuda.md); and
    the line that says so."""
    estimate = launch["estimate"]["h100"]
    terms = dict(estimate["terms"])
    launch_us = terms.pop("launch")
    chain = launch["model"]["dependent_loads_per_thread"]
    latency = terms["latency"]
    if chain > 0:
        terms["latency"] = latency * max(chain + extra_rounds, 0) / chain
    else:
        terms["latency"] = latency + max(extra_rounds, 0) * 0.5
    redone = launch_us + max(terms.values())
    ok = abs(redone - estimate["us"]) <= tolerance * estimate["us"]
    return ok, (f"{launch['name']}: chain {chain} rounds, SASS's "
                f"{chain + extra_rounds:g}: latency {latency:.1f} -> "
                f"{terms['latency']:.1f} us, estimate {estimate['us']:.1f} "
                f"-> {redone:.1f} us")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("report", help="ens-run --kernel-report=json output")
    parser.add_argument("sass", help="ens-sass --json output of its CUBIN")
    parser.add_argument("--tolerance", type=float, default=0.2)
    parser.add_argument("--min-loads", type=int, default=4)
    parser.add_argument("--expected-chain-misses", default="",
                        help="launches whose chain is known to miss, "
                        "comma-separated")
    args = parser.parse_args()
    with open(args.report) as f:
        report = json.load(f)
    with open(args.sass) as f:
        kernels = {k["name"]: k for k in json.load(f)}
    expected = {n for n in args.expected_chain_misses.split(",") if n}
    failures = checked = 0
    for launch in report["launches"]:
        name = launch["name"]
        if name not in kernels:
            print(f"{name}: not in the CUBIN")
            failures += 1
            continue
        sass = [sass_counts(loop) for loop in kernels[name]["loops"]]
        model = launch.get("model", {}).get("hot_loops", [])
        # Pairs, closest first, each model loop with one SASS loop; a
        # further unrolling by ptxas (k = 2) must be clearly closer.
        candidates = sorted(
            (distance(loop, sass[j], k) + (0.3 if k == 2 else 0), i, j, k)
            for i, loop in enumerate(model) for j in range(len(sass))
            for k in (1, 2))
        pairs, paired = {}, set()
        for _, i, j, k in candidates:
            if i not in pairs and j not in paired:
                pairs[i] = (j, k)
                paired.add(j)
        # Closest first can pair two loops of equal FFMAs crosswise (one
        # takes the other's SASS loop by a hair); exchanging the SASS loops
        # of two pairs while that shortens their total distance undoes it.
        def cost(i, j, k):
            return distance(model[i], sass[j], k) + (0.3 if k == 2 else 0)
        improved = True
        while improved:
            improved = False
            for a in list(pairs):
                for b in list(pairs):
                    (ja, ka), (jb, kb) = pairs[a], pairs[b]
                    if a >= b or ka != kb:
                        continue
                    if (cost(a, jb, ka) + cost(b, ja, kb) <
                            cost(a, ja, ka) + cost(b, jb, kb) - 1e-9):
                        pairs[a], pairs[b] = (jb, ka), (ja, kb)
                        improved = True
        extra_rounds = 0.0
        for i, loop in enumerate(model):
            if i not in pairs:
                print(f"{name} loop {i}: no SASS loop left to pair")
                continue
            j, k = pairs[i]
            got = sass[j]
            # One SASS iteration is k of the model's.
            extra_rounds += (loop["iterations"] / k *
                             (got["rounds"] - k * loop["load_rounds"]))
            want_loads = k * loop["loads"]
            want_stores = k * loop["stores"]
            ok = True
            if want_loads >= args.min_loads:
                checked += 1
                ok = (abs(got["loads"] - want_loads) <=
                      args.tolerance * want_loads and
                      abs(got["stores"] - want_stores) <=
                      max(1, args.tolerance * want_stores))
            print(f"{name} loop {i}: model x{k} loads {want_loads} stores "
                  f"{want_stores} ffma {k * loop['ffma']} instructions "
                  f"{k * loop['instructions']}; SASS loads {got['loads']} "
                  f"stores {got['stores']} ffma {got['ffma']} instructions "
                  f"{got['instructions']}; rounds model "
                  f"{k * loop['load_rounds']} SASS {got['rounds']}: "
                  f"{'ok' if ok else 'MISS'}")
            failures += not ok
        chain_ok, line = (check_chain(launch, extra_rounds, args.tolerance)
                          if extra_rounds else (True, f"{name}: chain agrees"))
        # A known miss must still miss.
        if name in expected:
            verdict = "MISS (no longer missed)" if chain_ok else "expected miss"
            failures += chain_ok
        else:
            verdict = "ok" if chain_ok else "MISS"
            failures += not chain_ok
        if extra_rounds or name in expected:
            print(f"{line}: {verdict}")
        # A SASS loop that repeats a paired one's loads and FFMAs is a copy
        # ptxas made of it (the leftover steps of a split's chunk, unrolled
        # the same way), not a loop the model misses.
        signatures = {(sass[j]["loads"], sass[j]["ffma"]) for j in paired}
        for j, loop in enumerate(sass):
            if (loop["ffma"] >= 32 and j not in paired and
                    (loop["loads"], loop["ffma"]) not in signatures):
                print(f"{name}: SASS loop {j} with {loop['ffma']} FFMA has "
                      "no loop in the model: MISS")
                failures += 1
    print(f"{checked} hot loops checked, {failures} missed")
    return 1 if failures or not checked else 0


if __name__ == "__main__":
    sys.exit(main())
