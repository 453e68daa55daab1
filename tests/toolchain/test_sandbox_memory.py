"""The memory limit bounds the whole run, not each process: a real program forks children that
each take most of the limit, at every level, with the cgroup this machine offers and with the
fallback forced (``CASS_LSP_MEMORY_BOUND=process``: RLIMIT_AS and a small process cap)."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from cass_lsp.cli import doctor
from cass_lsp.verify import cgroups, sandbox
from cass_lsp.verify.sandbox import Limits
from tests.toolchain.sandbox_attacks import GCC

CHILD_MB = 200
CHILDREN = 8
# Forks CHILDREN children that each touch CHILD_MB, say so on a pipe and wait; once every child
# has either said so or died, prints how many hold their memory at once (said so and still alive).
SOURCE = r"""
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>
int main(void) {
    int acks[2];
    pipe(acks);
    pid_t kids[CHILDREN];
    int forked = 0, acked[CHILDREN] = {0}, dead[CHILDREN] = {0};
    for (; forked < CHILDREN; forked++) {
        kids[forked] = fork();
        if (kids[forked] < 0) { perror("fork"); break; }
        if (kids[forked] == 0) {
            size_t size = (size_t)CHILD_MB << 20;
            char *p = malloc(size);
            if (!p) _exit(1);
            /* volatile stores on every page: the compiler cannot leave them, or the malloc, out */
            for (size_t i = 0; i < size; i += 4096) ((volatile char *)p)[i] = 1;
            unsigned char me = (unsigned char)forked;
            write(acks[1], &me, 1);
            pause();
            _exit(0);
        }
    }
    close(acks[1]);
    struct pollfd ready = {acks[0], POLLIN, 0};
    for (int open = forked; open > 0;) {
        unsigned char who;
        if (poll(&ready, 1, 100) == 1 && read(acks[0], &who, 1) == 1 && who < forked) acked[who] = 1;
        open = 0;
        for (int i = 0; i < forked; i++) {
            if (!dead[i] && waitpid(kids[i], NULL, WNOHANG) == kids[i]) dead[i] = 1;
            open += !acked[i] && !dead[i];
        }
    }
    int held = 0;
    for (int i = 0; i < forked; i++) {
        if (!dead[i] && waitpid(kids[i], NULL, WNOHANG) == kids[i]) dead[i] = 1;
        held += acked[i] && !dead[i];
    }
    for (int i = 0; i < forked; i++) kill(kids[i], SIGKILL);
    while (wait(NULL) > 0) {}
    printf("%d\n", held);
    return held == CHILDREN ? 0 : 1;
}""".replace("CHILDREN", str(CHILDREN)).replace("CHILD_MB", str(CHILD_MB))


@pytest.fixture(scope="module")
def forker(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("memory")
    (out / "forker.c").write_text(SOURCE)
    subprocess.run([GCC, "-O1", "-o", str(out / "forker"), str(out / "forker.c")], check=True, timeout=120)
    return out / "forker"


def _run(forker: Path) -> sandbox.RunOutcome:
    with sandbox.fresh_workdir("cass-memory-") as work:
        program = shutil.copy2(forker, work / "forker")
        return sandbox.run([program], workdir=work, limits=Limits(memory_mb=256, timeout_seconds=60))


def test_the_children_together_stay_within_the_limit(level: str, forker: Path) -> None:
    bound = cgroups.memory_bound()
    if bound.parent is None:
        # Root has one on this machine and in CI (v1 or v2); a user has one only where systemd
        # delegates the server's cgroup tree: elsewhere the fallback (forced below) is what runs.
        if os.geteuid() == 0:
            pytest.fail(f"no cgroup bounds a run here, as root: {bound.note}")
        pytest.skip(f"no cgroup delegated to this user: {bound.note}")
    outcome = _run(forker)
    # 256 MB for the whole run: one child of 200 MB fits, a second does not.
    assert int(outcome.stdout) <= 1, outcome
    assert outcome.limit == "memory"
    assert outcome.describe() == "stopped: memory limit (256 MB for the whole run)"


def test_without_a_cgroup_the_process_cap_bounds_the_total(
    level: str, forker: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(cgroups.BOUND_ENV, "process")
    outcome = _run(forker)
    # The program is one of the FALLBACK_PROCESSES: the run holds at most that many times 256 MB.
    assert int(outcome.stdout) < cgroups.FALLBACK_PROCESSES, outcome
    assert outcome.limits.processes == cgroups.FALLBACK_PROCESSES
    assert outcome.limit == "processes"
    assert outcome.describe() == f"stopped: processes limit ({cgroups.FALLBACK_PROCESSES} without a memory cgroup)"


def test_a_run_without_a_memory_limit_keeps_its_process_cap(level: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """GPU runs have no memory limit (their runtimes reserve huge address ranges): nothing to bound."""
    monkeypatch.setenv(cgroups.BOUND_ENV, "process")
    with sandbox.fresh_workdir("cass-memory-") as work:
        shutil.copy2("/bin/true", work / "true")
        outcome = sandbox.run([work / "true"], workdir=work, limits=Limits(memory_mb=0, processes=64))
    assert outcome.exit_code == 0 and outcome.limits.processes == 64


def test_doctor_says_how_memory_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    line = next(t for t in doctor.verification_status() if t.name == "sandbox memory")
    assert line.version == cgroups.memory_bound().describe()
    monkeypatch.setenv(cgroups.BOUND_ENV, "process")
    line = next(t for t in doctor.verification_status() if t.name == "sandbox memory")
    assert line.version == (
        f"memory limit per process, at most {cgroups.FALLBACK_PROCESSES} processes"
        f" (forced by {cgroups.BOUND_ENV}=process)"
    )
