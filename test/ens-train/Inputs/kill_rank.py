"""Kills one process of a distributed ens-train run and checks that the
whole run ends soon after, with an error. Standard library only.

    python3 kill_rank.py LIMIT_SECONDS COMMAND...

Starts COMMAND (an mpirun of ens-train), waits until it has trained (a
"step" on its output), kills the last ens-train process it started with
SIGKILL, and waits at most LIMIT_SECONDS for COMMAND to end. Exits 0 if it
ended in time with a non-zero status and no ens-train process of it is
left, printing how long it took and COMMAND's last output line; 1
otherwise.
"""

import os
import signal
import subprocess
import sys
import time


def descendants(pid):
    """The pids of pid's descendants whose command is ens-train."""
    children = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % entry) as f:
                fields = f.read().rsplit(")", 1)[1].split()
            with open("/proc/%s/cmdline" % entry, "rb") as f:
                command = f.read().split(b"\0")[0]
        except OSError:
            continue
        children.setdefault(int(fields[1]), []).append((int(entry), command))
    found, todo = [], [pid]
    while todo:
        for child, command in children.get(todo.pop(), []):
            todo.append(child)
            if command.endswith(b"ens-train"):
                found.append(child)
    return sorted(found)


def main():
    limit = float(sys.argv[1])
    run = subprocess.Popen(sys.argv[2:], stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT)
    output = b""
    # ens-train writes "step N/M" progress once it trains.
    while b"step" not in output:
        chunk = run.stdout.read1(4096)
        if not chunk:
            print("the run ended before it trained:", output.decode()[-500:])
            return 1
        output += chunk
    ranks = descendants(run.pid)
    if len(ranks) < 2:
        print("expected several ens-train processes, found", ranks)
        return 1
    os.kill(ranks[-1], signal.SIGKILL)
    killed = time.monotonic()
    try:
        rest, _ = run.communicate(timeout=limit)
    except subprocess.TimeoutExpired:
        run.kill()
        print("the run did not end within %g s of the kill" % limit)
        return 1
    took = time.monotonic() - killed
    left = descendants(run.pid)
    lines = [line for line in (output + rest).decode().splitlines()
             if line.strip()]
    if run.returncode == 0 or left:
        print("status %d, processes left: %s" % (run.returncode, left))
        return 1
    print("ended %.1f s after the kill, status %d" % (took, run.returncode))
    print("\n".join(line for line in lines if "exited on signal" in line))
    return 0


if __name__ == "__main__":
    sys.exit(main())
