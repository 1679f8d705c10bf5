"""Kills ens-train with SIGKILL while it checkpoints, and checks that every
kill leaves a checkpoint that resumes.

    python3 kill_checkpoints.py ENS_TRAIN WORK_DIR [TRIALS]

ens-train first writes a checkpoint of one step. Then, TRIALS times, it
resumes from that directory with a checkpoint after every step, and is
killed (SIGKILL) once it has written to the directory: half of the kills
come at a uniformly random moment of the training loop after that, half
right after its next write, inside checkpointing. Each run must find the checkpoint that the previous kill
left (its "resuming from" line) at a step no earlier than the one before.
A last run must resume and finish, and leave exactly CURRENT and one
generation. The random seed is printed, to repeat a failure.
"""

import os
import random
import re
import signal
import subprocess
import sys
import time

COMMON = ["--members=2", "--plot=", "--checkpoint-every=1"]
TIMEOUT = 30


def fail(message):
    print("FAIL: " + message)
    sys.exit(1)


def snapshot(directory):
    """What the directory holds, one level deep, with each entry's identity
    and time: it changes whenever a checkpoint file is written or renamed."""
    state = []
    for root, dirs, files in os.walk(directory):
        for name in dirs + files:
            path = os.path.join(root, name)
            try:
                info = os.lstat(path)
            except FileNotFoundError:
                continue
            state.append((path, info.st_ino, info.st_size, info.st_mtime_ns))
    return sorted(state)


def wait_for_write(directory, proc, deadline, what):
    before = snapshot(directory)
    while snapshot(directory) == before:
        if proc.poll() is not None or time.monotonic() > deadline:
            fail("%s: nothing was written: %s" % (what, proc.stderr.read().strip()))


def generations(directory):
    return [name for name in os.listdir(directory) if name.startswith("gen-")]


def start(tool, directory, steps):
    """Starts a resumed run; returns it and the step it resumed at."""
    proc = subprocess.Popen(
        [tool, "--resume=" + directory, "--steps=%d" % steps] + COMMON,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    for line in proc.stdout:
        match = re.match(r"  resuming from .* at step (\d+)$", line)
        if match:
            return proc, int(match.group(1))
    proc.wait()
    fail("ens-train did not resume (status %d): %s" %
         (proc.returncode, proc.stderr.read().strip()))


def main():
    tool, work = sys.argv[1], sys.argv[2]
    trials = int(sys.argv[3]) if len(sys.argv) > 3 else 20
    directory = os.path.join(work, "ck")
    seed = int.from_bytes(os.urandom(4), "little")
    rng = random.Random(seed)
    print("seed %d" % seed)

    subprocess.run([tool, "--steps=1", "--checkpoint=" + directory] + COMMON,
                   check=True, stdout=subprocess.DEVNULL)
    step, torn = 1, 0
    for trial in range(trials):
        proc, resumed = start(tool, directory, 1000000)
        if resumed < step:
            fail("trial %d resumed at step %d, before step %d" %
                 (trial, resumed, step))
        step = resumed
        # A first write shows that the loop runs; then either a random
        # moment, or the moment of the next write.
        deadline = time.monotonic() + TIMEOUT
        wait_for_write(directory, proc, deadline, "trial %d" % trial)
        if trial % 2:
            time.sleep(rng.uniform(0, 0.02))
        else:
            wait_for_write(directory, proc, deadline, "trial %d" % trial)
            time.sleep(rng.uniform(0, 0.001))
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        proc.stdout.close()
        proc.stderr.close()
        left = os.listdir(directory)
        if len(generations(directory)) > 1 or any(".tmp" in n for n in left):
            torn += 1

    proc, resumed = start(tool, directory, 1)
    out, err = proc.communicate()
    if proc.returncode != 0 or resumed < step:
        fail("the last run failed (status %d, step %d): %s" %
             (proc.returncode, resumed, err.strip()))
    left = sorted(os.listdir(directory))
    if len(left) != 2 or left[0] != "CURRENT" or len(generations(directory)) != 1:
        fail("the last run left %s" % left)
    print("%d kills, %d during a write; every one resumed, last at step %d" %
          (trials, torn, resumed))
    if torn == 0:
        fail("no kill came during a checkpoint write")


if __name__ == "__main__":
    main()
