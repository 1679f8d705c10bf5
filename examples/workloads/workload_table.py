"""Prints the "Workloads" table of docs/cuda.md from ens-run's own output.

For each workload of issue #13, item 5 (the seed step,
examples/ensemble_train_step.mlir, and the three generated ones in this
folder) it runs

    ens-run FILE --entry=train_step --kernel-report=json
    ens-run FILE --entry=train_step --cuda-plan

and prints one Markdown row per workload: kernels and launches, the plan's
strategy, the grid blocks of the launch with the most FLOPs, the whole
step's estimate and roofline from the performance model (H100 and A100),
their ratio, the term that binds the most expensive launch, and the
issue's target ratio. The estimates are the model's (docs/cuda.md,
"Performance model"), not measurements.

    python3 examples/workloads/workload_table.py [--ens-run build/bin/ens-run]
        [--gpu-precision=f32|tf32|3xtf32] [--shapes] [--launches]

--shapes adds the seed step's structure with one member and with 1,000
(make_workloads.py writes them to a temporary folder); --launches prints,
after the table, one row per launch of each workload: its grid and block,
the H100 estimate, the bound and every term of the model in microseconds.
"""
import argparse
import json
import pathlib
import re
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[2]

# (workload, file relative to the repository, issue #13's target for
# estimate / roofline)
WORKLOADS = [
    ("1. seed step: 128 members 64->32 tanh->8, batch 256",
     "examples/ensemble_train_step.mlir", 2.5),
    ("2. mnist_mlp: 10 members 784->128 relu->128 relu->10, batch 64",
     "examples/workloads/mnist_mlp.mlir", 3.0),
    ("3. wide_relu: 16 members 512->512 relu->512, batch 256",
     "examples/workloads/wide_relu.mlir", 3.0),
    ("4. tanh_256: 4 members 256->256 tanh->256, batch 512",
     "examples/workloads/tanh_256.mlir", 3.0),
]


# The seed step's structure at one member and at 1,000 (issue #31's one-
# and many-member shapes): (name, make_workloads.py arguments, target).
SHAPES = [
    ("5. one member: 1 member 64->32 tanh->8, batch 256",
     ["--members", "1", "--batch", "256", "--widths", "64,32,8",
      "--activation", "tanh"], 2.5),
    ("6. many members: 1000 members 64->32 tanh->8, batch 256",
     ["--members", "1000", "--batch", "256", "--widths", "64,32,8",
      "--activation", "tanh"], 2.5),
]

TERMS = ("compute", "issue", "lsu", "shared", "l2", "dram", "latency",
         "launch")


def run(ens_run, path, *flags):
    result = subprocess.run([ens_run, str(path), "--entry=train_step", *flags],
                            capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"{ens_run} {path} {' '.join(flags)} failed:\n"
                 f"{result.stderr}")
    return result.stdout


def strategies(plan):
    """The strategy of each kernel config in --cuda-plan's text."""
    # "kernel NAME: STRATEGY, ..." for a loop of one kernel, "loop: STRATEGY,
    # ..." for a loop of a kernel per phase.
    found = re.findall(
        r"^(?:kernel \S+|loop): ([a-z-]+), (\d+) members, (\d+) threads",
        plan, re.MULTILINE)
    return [f"{s} ({t} threads)" for s, _, t in found] or ["none"]


def row(name, path, target, ens_run, precision):
    flag = f"--gpu-precision={precision}"
    report = json.loads(run(ens_run, ROOT / path, "--kernel-report=json", flag))
    plan = run(ens_run, ROOT / path, "--cuda-plan", flag)
    launches = report["launches"]
    heaviest = max(launches, key=lambda launch: launch["flops"])
    blocks = heaviest["grid"][0] * heaviest["grid"][1] * heaviest["grid"][2]
    cells = [name, f"{report['kernels']} / {len(launches)}",
             ", ".join(sorted(set(strategies(plan)))),
             f"{blocks} ({heaviest['name']})"]
    for gpu in ("h100", "a100"):
        estimate = report["estimate"][gpu]
        # The term the model names for the launch that costs the most.
        slowest = max(launches, key=lambda launch: launch["estimate"][gpu]["us"])
        ratio = estimate["us"] / estimate["roofline_us"]
        cells += [f"{estimate['us']:.1f}", f"{estimate['roofline_us']:.2f}",
                  f"{ratio:.1f}x", slowest["estimate"][gpu]["bound"]]
    cells.append(f"<= {target:g}x")
    return "| " + " | ".join(cells) + " |"


def launch_rows(name, path, ens_run, precision):
    """One Markdown row per launch of the workload: the H100 terms."""
    report = json.loads(run(ens_run, ROOT / path, "--kernel-report=json",
                            f"--gpu-precision={precision}"))
    rows = []
    for launch in report["launches"]:
        estimate = launch["estimate"]["h100"]
        grid = "x".join(str(n) for n in launch["grid"])
        cells = [name.split(":")[0], launch["name"], grid,
                 str(launch["block"][0]), f"{estimate['us']:.1f}",
                 estimate["bound"]]
        cells += [f"{estimate['terms'][term]:.1f}" for term in TERMS]
        rows.append("| " + " | ".join(cells) + " |")
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--ens-run", default=str(ROOT / "build/bin/ens-run"),
                        help="the ens-run to ask (default: build/bin/ens-run)")
    parser.add_argument("--gpu-precision", default="f32",
                        help="ens-run's --gpu-precision (default: f32)")
    parser.add_argument("--shapes", action="store_true",
                        help="add the one- and 1,000-member shapes")
    parser.add_argument("--launches", action="store_true",
                        help="print each launch's H100 terms after the table")
    args = parser.parse_args()
    workloads = list(WORKLOADS)
    folder = tempfile.TemporaryDirectory()
    if args.shapes:
        for name, shape, target in SHAPES:
            path = pathlib.Path(folder.name) / (name.split(".")[0] + ".mlir")
            subprocess.run([sys.executable,
                            str(ROOT / "examples/workloads/make_workloads.py"),
                            *shape, "-o", str(path)], check=True)
            workloads.append((name, path, target))
    print("| workload | kernels / launches | strategy | blocks of the "
          "kernel with the most FLOPs | H100 estimate (us) | H100 roofline "
          "(us) | H100 ratio | H100 bound | A100 estimate (us) | A100 "
          "roofline (us) | A100 ratio | A100 bound | target ratio |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for name, path, target in workloads:
        print(row(name, path, target, args.ens_run, args.gpu_precision))
    if args.launches:
        print()
        print("| workload | launch | grid | block | H100 estimate (us) | "
              "bound | " + " | ".join(TERMS) + " |")
        print("|---" * (6 + len(TERMS)) + "|")
        for name, path, _ in workloads:
            for line in launch_rows(name, path, args.ens_run,
                                    args.gpu_precision):
                print(line)


if __name__ == "__main__":
    main()
