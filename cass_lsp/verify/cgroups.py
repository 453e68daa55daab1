"""The memory limit of a whole run: a cgroup holding the launcher and everything the program starts.

RLIMIT_AS bounds one process: a program that forks N children may use N times the limit. A cgroup's
memory limit counts every process of the run together, the tmpfs pages it writes (the full level's
work dir and hidden folders) included. Where one can be had:

* ``cgroup v2``: a child of the server's parent cgroup, when that parent has the memory controller
  on for its children and this user may create cgroups in it: a systemd user manager delegates its
  tree to the user (a server started from the desktop or an editor's app scope), root may do so in
  any writable cgroup2 hierarchy. ``memory.max`` holds the limit, ``memory.swap.max`` 0 keeps swap
  from stretching it, ``memory.events`` counts what the OOM killer ended.
* ``cgroup v1``, as root only, where the memory controller is still on a v1 hierarchy (hybrid
  hosts): a child of the server's own memory cgroup, ``memory.limit_in_bytes`` (and
  ``memory.memsw.limit_in_bytes`` with swap accounting), ``memory.oom_control``'s ``oom_kill``.
* otherwise ``per process``: RLIMIT_AS only, with the process cap lowered to
  :data:`FALLBACK_PROCESSES`, so a run takes at most that many times the limit. ``cass-lsp doctor``
  says which, and why.

``CASS_LSP_MEMORY_BOUND=process`` forces the fallback (tests use it on machines that have a cgroup).
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import itertools
import os
import signal
import time
from pathlib import Path
from typing import Literal

Mode = Literal["cgroup v2", "cgroup v1", "per process"]
BOUND_ENV = "CASS_LSP_MEMORY_BOUND"
FALLBACK_PROCESSES = 8
"""The process cap (threads included, as RLIMIT_NPROC counts them) of a run without a cgroup."""
# How long removing a run's cgroup waits for its last processes to go.
_REMOVE_WAIT_S = 2.0
_counter = itertools.count()


@dataclasses.dataclass(frozen=True)
class MemoryBound:
    mode: Mode
    parent: str | None  # the cgroup folder runs get their own child of
    note: str

    def describe(self) -> str:
        if self.parent is None:
            return f"memory limit per process, at most {FALLBACK_PROCESSES} processes ({self.note})"
        return f"memory limit for the whole run ({self.mode}: {self.note})"


def memory_bound() -> MemoryBound:
    """How this machine bounds a run's memory, probed once (``CASS_LSP_MEMORY_BOUND`` can force
    ``process``)."""
    forced = os.environ.get(BOUND_ENV, "")
    if forced not in ("", "cgroup", "process"):
        return MemoryBound("per process", None, f"{BOUND_ENV}={forced!r} is neither cgroup nor process")
    if forced == "process":
        return MemoryBound("per process", None, f"forced by {BOUND_ENV}=process")
    return _probe()


@functools.cache
def _probe() -> MemoryBound:
    mounts = _mounts()
    own = _own_cgroups()
    reasons = []
    v2 = _v2_parent(mounts, own)
    if isinstance(v2, str):
        reasons.append(v2)
    else:
        return MemoryBound("cgroup v2", str(v2), f"runs below {v2}")
    v1 = _v1_parent(mounts, own)
    if isinstance(v1, str):
        reasons.append(v1)
    else:
        return MemoryBound("cgroup v1", str(v1), f"runs below {v1}")
    return MemoryBound("per process", None, "; ".join(reasons))


def _mounts() -> list[tuple[str, str, set[str]]]:
    """(mount point, file system type, super options) of every cgroup file system."""
    found = []
    with contextlib.suppress(OSError), open("/proc/self/mountinfo") as f:
        for line in f:
            fields = line.split()
            dash = fields.index("-")
            fstype, options = fields[dash + 1], set(fields[dash + 3].split(","))
            if fstype in ("cgroup", "cgroup2"):
                found.append((fields[4], fstype, options))
    return found


def _own_cgroups() -> dict[str, str]:
    """The server's cgroup per hierarchy: "" for v2, else the v1 controllers ("memory", "cpu,cpuacct")."""
    own = {}
    with contextlib.suppress(OSError), open("/proc/self/cgroup") as f:
        for line in f:
            _, controllers, path = line.rstrip("\n").split(":", 2)
            own[controllers] = path
    return own


def _v2_parent(mounts: list[tuple[str, str, set[str]]], own: dict[str, str]) -> Path | str:
    """Where a run's v2 cgroup can be made, or why not."""
    mount = next((point for point, fstype, _ in mounts if fstype == "cgroup2"), None)
    if mount is None or "" not in own:
        return "no cgroup2 hierarchy"
    here = Path(mount, own[""].lstrip("/"))
    # A cgroup with processes cannot pass controllers to children (v2's no-internal-process rule):
    # the run's cgroup is a sibling of the server's, unless the server sits at the root.
    parent = here if here == Path(mount) else here.parent
    try:
        controllers = (parent / "cgroup.subtree_control").read_text().split()
    except OSError as e:
        return f"cgroup v2: {parent}: {e.strerror}"
    if "memory" not in controllers:
        try:
            hierarchy = (Path(mount) / "cgroup.controllers").read_text().split()
        except OSError:
            hierarchy = []
        if "memory" not in hierarchy:
            return "cgroup v2: the memory controller is not in the cgroup2 hierarchy (a v1 one holds it)"
        return f"cgroup v2: {parent} does not pass the memory controller to its children"
    if not (os.access(parent, os.W_OK | os.X_OK) and os.access(parent / "cgroup.procs", os.W_OK)):
        return f"cgroup v2: {parent} is not delegated to this user"
    return parent


def _v1_parent(mounts: list[tuple[str, str, set[str]]], own: dict[str, str]) -> Path | str:
    mount = next((point for point, fstype, options in mounts if fstype == "cgroup" and "memory" in options), None)
    path = next((p for controllers, p in own.items() if "memory" in controllers.split(",")), None)
    if mount is None or path is None:
        return "no cgroup v1 memory hierarchy"
    if os.geteuid() != 0:
        return "cgroup v1 memory hierarchy: used as root only"
    here = Path(mount, path.lstrip("/"))
    if not (here / "memory.limit_in_bytes").exists() or not os.access(here, os.W_OK):
        return f"cgroup v1: {here} is not writable"
    return here


class RunCgroup:
    """One run's cgroup: made before the launcher starts (which moves itself in through
    :attr:`procs`), read and removed after it ends."""

    def __init__(self, bound: MemoryBound, memory_mb: int) -> None:
        """Raises OSError when the cgroup cannot be made or limited."""
        assert bound.parent is not None
        self.mode = bound.mode
        self.path = Path(bound.parent, f"cass-run-{os.getpid()}-{next(_counter)}")
        self.path.mkdir()
        try:
            limit = str(memory_mb << 20)
            if self.mode == "cgroup v2":
                self._write("memory.max", limit)
                self._write("memory.swap.max", "0", optional=True)
            else:
                self._write("memory.limit_in_bytes", limit)
                # memsw counts memory and swap together: equal to the limit, no swap at all.
                self._write("memory.memsw.limit_in_bytes", limit, optional=True)
        except OSError:
            self.remove()
            raise

    @property
    def procs(self) -> str:
        return str(self.path / "cgroup.procs")

    def _write(self, name: str, value: str, *, optional: bool = False) -> None:
        if optional and not (self.path / name).exists():
            return
        (self.path / name).write_text(value)

    def oom_kills(self) -> int:
        """Processes of the run the OOM killer ended because the run reached its limit."""
        name = "memory.events" if self.mode == "cgroup v2" else "memory.oom_control"
        try:
            fields = dict(line.split() for line in (self.path / name).read_text().splitlines() if line.strip())
        except OSError:
            return 0
        return int(fields.get("oom_kill", 0))

    def remove(self) -> str | None:
        """Kill what is left in the cgroup and remove it; never raises: says why it stayed."""
        deadline = time.monotonic() + _REMOVE_WAIT_S
        while True:
            try:
                self.path.rmdir()
                return None
            except FileNotFoundError:
                return None
            except OSError as e:
                if time.monotonic() > deadline:
                    return f"{self.path}: {e.strerror}"
            self.kill()
            time.sleep(0.02)

    def kill(self) -> None:
        """SIGKILL every process of the run (cgroup.kill where the kernel has it, else each pid)."""
        if (self.path / "cgroup.kill").exists():
            with contextlib.suppress(OSError):
                (self.path / "cgroup.kill").write_text("1")
            return
        with contextlib.suppress(OSError):
            for pid in (self.path / "cgroup.procs").read_text().split():
                with contextlib.suppress(OSError):
                    os.kill(int(pid), signal.SIGKILL)
