"""Hostile programs against every sandbox level this machine offers, and what a confined run costs.

  .venv/bin/python benchmarks/attack_lsp.py [--rounds 3] [--runs 30]

Each attack of tests/unit/sandbox_attacks.py (read a file in $HOME, append to ~/.bashrc, read
/proc/<server>/environ, open /proc/<server>/mem, signal the server, connect to a loopback port, fork
1,000 times, setsid + kill the parent + keep running) runs ``--rounds`` times at each level, forced
with CASS_LSP_SANDBOX_LEVEL. "blocked" means the program reported the attack failed (for the last
one: it ran to its end and nothing outlived it); "leftovers" counts processes alive after a run.
The "none" level is run twice: as the server does by default (every run refused), and with
``allow_unconfined`` to show what the other levels stop.

Then the cost: ``--runs`` runs of /bin/true at each level against a bare exec of it through
cass_lsp.proc, measured in the same run (medians, and the ratio to the bare exec).
Exit status 1 when a confining level let an attack through or left a process behind.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from cass_lsp import proc
from cass_lsp.verify import sandbox
from tests.unit import sandbox_attacks
from tests.unit.sandbox_attacks import BLOCKED

TRUE = "/bin/true"


def _blocked(name: str, outcome: sandbox.RunOutcome | sandbox.SandboxError, left: list[str]) -> bool:
    if isinstance(outcome, sandbox.SandboxError):
        # A refused run is blocked; a launcher the program took down is not.
        return sandbox.UNCONFINED_SETTING in str(outcome)
    if name == "outlive":
        # A namespace's init shrugs off the kill: what matters is that the program ended and nothing stayed.
        return not left
    return outcome.exit_code == BLOCKED


def attack_level(exe: Path, rounds: int, *, allow_unconfined: bool) -> tuple[int, int, int, list[str]]:
    """(attempts, blocked, leftovers, the attacks that got through) at the current level."""
    attempts = blocked = leftovers = 0
    through: list[str] = []
    with (
        sandbox_attacks.victim() as victim,
        sandbox_attacks.fake_home() as home,
        sandbox_attacks.loopback_port() as port,
    ):
        os.environ["HOME"] = str(home)
        for _ in range(rounds):
            for label, args in sandbox_attacks.attacks(home, victim.pid, port):
                outcome, left = sandbox_attacks.run_attack(exe, args, allow_unconfined=allow_unconfined)
                attempts += 1
                leftovers += len(left)
                if _blocked(args[0], outcome, left):
                    blocked += 1
                elif label not in through:
                    through.append(label)
            (home / ".bashrc").write_text("# bashrc\n")
    return attempts, blocked, leftovers, through


def _median_ms(samples: list[float]) -> float:
    return statistics.median(samples) * 1000


def cost(runs: int, levels: list[sandbox.Level]) -> None:
    """Median wall time of /bin/true: bare through proc.run, then at each level."""
    bare = []
    for _ in range(runs):
        started = time.perf_counter()
        proc.run([TRUE], timeout=10)
        bare.append(time.perf_counter() - started)
    reference = _median_ms(bare)
    print(f"cost of one run (median of {runs}): bare exec {reference:.1f} ms")
    for level in levels:
        os.environ[sandbox.LEVEL_ENV] = level
        samples = []
        with sandbox.fresh_workdir("cass-bench-") as work:
            for _ in range(runs):
                started = time.perf_counter()
                sandbox.run([TRUE], workdir=work, allow_unconfined=True)
                samples.append(time.perf_counter() - started)
        ms = _median_ms(samples)
        print(f"  level {level:<8} {ms:6.1f} ms  ({ms / reference:.1f}x the bare exec)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=3, help="times each attack runs at each level")
    parser.add_argument("--runs", type=int, default=30, help="runs of /bin/true per level for the cost")
    args = parser.parse_args()
    failed = False
    offered: list[sandbox.Level] = []
    with tempfile.TemporaryDirectory(prefix="cass-attack-build-") as build:
        exe = sandbox_attacks.build(Path(build))
        print("level           attempts / blocked / leftovers")
        for level in sandbox.LEVELS:
            os.environ[sandbox.LEVEL_ENV] = level
            isolation = sandbox.isolation()
            if isolation.level != level:
                print(f"{level:<15} not offered here: {isolation.note}")
                continue
            offered.append(level)
            runs = [(level, False)] + ([("none, allowed", True)] if level == "none" else [])
            for label, allow in runs:
                attempts, blocked, leftovers, through = attack_level(exe, args.rounds, allow_unconfined=allow)
                line = f"{label:<15} {attempts:>8} / {blocked:>7} / {leftovers:>9}"
                if through:
                    line += f"   got through: {', '.join(through)}"
                print(line)
                if not allow and (blocked != attempts or leftovers):
                    failed = True
    cost(args.runs, offered)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
