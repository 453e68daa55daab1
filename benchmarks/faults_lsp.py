"""The long fault run: the fault-injection suite (tests/faults) repeated, each round in a fresh pytest
process, with the figures the hardening issue asks for (CI runs one round as part of the tests).

  .venv/bin/python benchmarks/faults_lsp.py [--rounds 5]

A round injects every fault of tests/faults into the real server over stdio: compilers missing, not
executable, printing garbage, crashing, hanging; model files missing, truncated, of the wrong
architecture, unreadable; a cache folder that cannot be written; a 10k-event watcher storm; a
client that disappears mid-request; SIGTERM during a compile; and the refusals (paths outside the
workspace, untrusted workspaces, TCP bound to loopback). Each case asserts that the server stays
up, or ends cleanly where the fault is its end, says so once, and leaves no child process or temp
file. After each round this script also looks for processes the round started that are still
alive (they inherit a marker in their environment; a program run in verification's sandbox, whose
environment is scrubbed, is checked by the suite itself).

Prints per round and in total: faults injected (test cases), survived (passed), not survived,
processes left behind, and the round's wall time. Exit status 1 when any fault was not survived or
anything was left behind.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
import uuid
import xml.etree.ElementTree as ElementTree
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ROUND_TIMEOUT_S = 1800.0
MARKER_ENV = "CASS_LSP_FAULT_ROUND"
"""Set for each round's pytest process, so every process the round starts inherits it."""


def marked_processes(marker: str) -> dict[int, str]:
    """Live processes (not zombies) whose environment carries the round's marker."""
    needle = f"{MARKER_ENV}={marker}".encode()
    found = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            if needle not in (entry / "environ").read_bytes().split(b"\0"):
                continue
            if (entry / "stat").read_text().rsplit(")", 1)[1].split()[0] == "Z":
                continue
            command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace").strip()
        except OSError:
            continue
        found[int(entry.name)] = command
    return found


def run_round(junit: Path, marker: str) -> tuple[int, int, list[str], float]:
    """(cases, passed, names of the cases that failed, seconds) of one run of tests/faults."""
    started = time.monotonic()
    subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", f"--junitxml={junit}", "tests/faults"],
        cwd=ROOT,
        env={**os.environ, MARKER_ENV: marker},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        timeout=ROUND_TIMEOUT_S,
        check=False,
    )
    seconds = time.monotonic() - started
    cases = ElementTree.parse(junit).getroot().iter("testcase")
    total, failed = 0, []
    for case in cases:
        total += 1
        if case.find("failure") is not None or case.find("error") is not None or case.find("skipped") is not None:
            failed.append(f"{case.get('classname')}::{case.get('name')}")
    return total, total - len(failed), failed, seconds


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    injected = survived = 0
    left_behind: dict[int, str] = {}
    with tempfile.TemporaryDirectory(prefix="cass-faults-") as tmp:
        for number in range(1, args.rounds + 1):
            marker = uuid.uuid4().hex
            cases, passed, failed, seconds = run_round(Path(tmp) / f"round{number}.xml", marker)
            deadline = time.monotonic() + 10
            while (new := marked_processes(marker)) and time.monotonic() < deadline:
                time.sleep(0.5)
            left_behind.update(new)
            injected += cases
            survived += passed
            print(
                f"round {number}: {cases} faults injected, {passed} survived, {cases - passed} not survived, "
                f"{len(new)} processes left behind, {seconds:.0f} s"
            )
            for name in failed:
                print(f"  not survived: {name}")
    print(
        f"total: {args.rounds} rounds, {injected} faults injected, {survived} survived, "
        f"{injected - survived} not survived, {len(left_behind)} processes left behind"
    )
    for pid, command in left_behind.items():
        print(f"  left behind: {pid} {command[:200]}")
    return 0 if injected and survived == injected and not left_behind else 1


if __name__ == "__main__":
    sys.exit(main())
