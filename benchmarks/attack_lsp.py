"""Hostile programs against every sandbox level this machine offers, hostile repositories and
clients against the CLI and the socket server, and what a confined run costs.

  .venv/bin/python benchmarks/attack_lsp.py [--rounds 3] [--surface-rounds 1] [--runs 30]

Each attack of tests/toolchain/sandbox_attacks.py (read a file in $HOME, append to ~/.bashrc, read
/proc/<server>/environ, open /proc/<server>/mem, signal the server, connect to a loopback port, fork
1,000 times, setsid + kill the parent + keep running; and from issue #26: read the key the server
holds in its session keyring and plant one, 8 children x 200 MB under memory_mb=256, 3,000 nested
folders + 640 MB of disk) runs ``--rounds`` times at each level, forced with CASS_LSP_SANDBOX_LEVEL.
"blocked" means the program reported the attack failed (for setsid: it ran to its end and nothing
outlived it; for the keyring: no key planted either; for the memory: the run was stopped before all
8 children held theirs; for the folders: the run was stopped with the disk limit, the disk it held at
its peak (the sandbox's count, or the program's own last report) stayed within the limit plus the
margin of docs/THREAT_MODEL.md, and the cleanup left nothing; the peaks are printed);
"leftovers" counts processes alive after a run, and work dirs its cleanup left. The "none" level is
run twice: as the server does by default (every run refused), and with ``allow_unconfined`` to show
what the other levels stop.

Then the attempts of issue #26 outside the sandbox (tests/toolchain/surface_attacks.py), each a real
repository or client against the real command, ``--surface-rounds`` times: nvlink's --nvvmpath
loading the repository's libnvvm.so, ``#include "/dev/zero"``, the response file @/dev/stdin,
``-Xptxas --options-file``, a ``kernels.cu -> secret`` link under translate, 100 unauthenticated 1 MB
connections, escape sequences in an ``#error`` that verify prints. Every command runs with a 3 GB
address-space cap and this process as the subreaper of what it leaves, so an attack that is not
stopped still cannot take the machine's memory or leave a process unseen.

Then the cost: ``--runs`` runs of /bin/true at each level against a bare exec of it through
cass_lsp.core.proc, measured in the same run (medians, and the ratio to the bare exec).
Exit status 1 when a confining level let an attack through or left something behind, or an attempt
outside the sandbox was not blocked.
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

from cass_lsp.core import proc
from cass_lsp.verify import diskquota, sandbox
from tests.toolchain import sandbox_attacks, surface_attacks
from tests.toolchain.sandbox_attacks import BLOCKED, ESCAPED

TRUE = "/bin/true"


def _blocked(name: str, outcome: sandbox.RunOutcome | sandbox.SandboxError, left: list[str]) -> bool:
    planted = name == "keyring" and sandbox_attacks.planted_key()  # looked for (and removed) after every run
    if isinstance(outcome, sandbox.SandboxError):
        # A refused run is blocked; a launcher the program took down is not.
        return sandbox.UNCONFINED_SETTING in str(outcome) and not planted
    if name == "outlive":
        # A namespace's init shrugs off the kill: what matters is that the program ended and nothing stayed.
        return not left
    if name == "keyring":
        return outcome.exit_code == BLOCKED and not planted
    if name == "forkmem":
        return outcome.exit_code != ESCAPED  # stopped: by the bound's kill or a refused allocation
    if name == "litter":
        return sandbox_attacks.disk_held(outcome, left)
    return outcome.exit_code == BLOCKED


def attack_level(exe: Path, rounds: int, *, allow_unconfined: bool) -> tuple[int, int, int, list[str], list[int]]:
    """(attempts, blocked, leftovers, the attacks that got through, the disk peaks in MB of the
    litter attack's runs) at the current level."""
    attempts = blocked = leftovers = 0
    through: list[str] = []
    peaks: list[int] = []
    with (
        sandbox_attacks.victim() as victim,
        sandbox_attacks.fake_home() as home,
        sandbox_attacks.loopback_port() as port,
        sandbox_attacks.server_key() as has_keyring,
    ):
        os.environ["HOME"] = str(home)
        every = [(label, args, sandbox_attacks.ATTACK_LIMITS) for label, args in sandbox_attacks.attacks(home, victim.pid, port)]
        every += [a for a in sandbox_attacks.bound_attacks() if has_keyring or a[1][0] != "keyring"]
        if not has_keyring:
            print("  (no session keyring here: add_key is refused, so the keyring attack is not run)")
        for _ in range(rounds):
            for label, args, limits in every:
                outcome, left = sandbox_attacks.run_attack(exe, args, allow_unconfined=allow_unconfined, limits=limits)
                attempts += 1
                leftovers += len(left)
                if args[0] == "litter" and isinstance(outcome, sandbox.RunOutcome):
                    peaks.append(sandbox_attacks.disk_peak_mb(outcome))
                if _blocked(args[0], outcome, left):
                    blocked += 1
                elif label not in through:
                    through.append(label)
            (home / ".bashrc").write_text("# bashrc\n")
    return attempts, blocked, leftovers, through, peaks


def _disk_bound() -> str:
    limits = next(limits for _, args, limits in sandbox_attacks.bound_attacks() if args[0] == "litter")
    margin = diskquota.margin_mb(limits.disk_mb, limits.file_size_mb)
    return f"{limits.disk_mb} MB (+{margin} MB margin)"


def surface(rounds: int) -> bool:
    """Each attempt outside the sandbox ``rounds`` times; prints a line each; True when all were blocked."""
    print(f"{'outside the sandbox':<48} attempts / blocked / leftovers")
    everything_blocked = True
    for label, attempt in surface_attacks.attempts():
        blocked = leftovers = 0
        details: list[str] = []
        for _ in range(rounds):
            with tempfile.TemporaryDirectory(prefix="cass-surface-") as folder:
                outcome = attempt(Path(folder))
            blocked += outcome.blocked
            leftovers += len(outcome.leftovers)
            if outcome.detail not in details:
                details.append(outcome.detail)
        everything_blocked &= blocked == rounds and not leftovers
        print(f"  {label:<46} {rounds:>8} / {blocked:>7} / {leftovers:>9}   {'; '.join(details)}", flush=True)
    return everything_blocked


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
    parser.add_argument("--surface-rounds", type=int, default=1, help="times each attempt outside the sandbox runs")
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
                attempts, blocked, leftovers, through, peaks = attack_level(exe, args.rounds, allow_unconfined=allow)
                line = f"{label:<15} {attempts:>8} / {blocked:>7} / {leftovers:>9}"
                if peaks:
                    line += f"   disk peak {min(peaks)}-{max(peaks)} MB of {_disk_bound()}"
                if through:
                    line += f"   got through: {', '.join(through)}"
                print(line)
                if not allow and (blocked != attempts or leftovers):
                    failed = True
    if not surface(args.surface_rounds):
        failed = True
    cost(args.runs, offered)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
