"""The CPU of a command and of every process it starts, Chromium's included (Linux).

``/usr/bin/time`` counts a process's reaped children only; Playwright's driver starts Chromium
detached, so a browser test's Chromium (most of the browser tier's CPU) is never in its figure.
This polls ``/proc`` for the command's descendants every 0.3 s and sums each process's own user
and system time as last seen (a process that lives less than a poll is missed)::

    python3 -m tests.cpu_tree python3 -m pytest -p no:cacheprovider -n 0 tests/browser/test_x.py

prints, after the command's own output, one line: the wall time, the CPU of all the processes,
and Chromium's share of it. The command's exit status is returned.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time

_TICK = os.sysconf("SC_CLK_TCK")


def _stat(pid: str) -> tuple[int, float, str, int] | None:
    """(parent pid, user + system seconds, name, start time) of a process, None if gone."""
    try:
        with open(f"/proc/{pid}/stat", encoding="utf-8", errors="replace") as f:
            text = f.read()
    except OSError:
        return None
    name = text[text.index("(") + 1 : text.rindex(")")]
    fields = text[text.rindex(")") + 2 :].split()
    # fields[0] is the state (field 3 of proc(5)): ppid is field 4, utime 14, stime 15, start 22
    return int(fields[1]), (int(fields[11]) + int(fields[12])) / _TICK, name, int(fields[19])


def main(argv: list[str]) -> int:
    started = time.monotonic()
    proc = subprocess.Popen(argv)
    seen: dict[tuple[int, int], tuple[float, str]] = {}
    while proc.poll() is None:
        stats = {int(p): s for p in os.listdir("/proc") if p.isdigit() and (s := _stat(p))}
        tree, grew = {proc.pid}, True
        while grew:
            new = {pid for pid, s in stats.items() if s[0] in tree} - tree
            tree |= new
            grew = bool(new)
        for pid in tree:
            if pid in stats:
                _, cpu, name, start = stats[pid]
                seen[(pid, start)] = (cpu, name)
        time.sleep(0.3)
    total = sum(cpu for cpu, _ in seen.values())
    chromium = sum(cpu for cpu, name in seen.values() if "chrom" in name)
    print(
        f"cpu_tree: wall {time.monotonic() - started:.0f} s, CPU of every process "
        f"{total:.1f} s, of it Chromium {chromium:.1f} s",
        flush=True,
    )
    return proc.returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
