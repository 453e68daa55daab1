"""What a CPU-runtime program's exit tells: passed, failed, deadlocked, refused or timed out.

The runtime ends a program with a distinctive exit code when it detects something a GPU run would
not survive (a barrier that can never complete) or cannot emulate (a construct only found at run
time); these must never be read as a pass or as an ordinary failure of the program.
"""

from __future__ import annotations

import signal
from typing import Literal

import msgspec

from cass_lsp.core.proc import ProcResult

# Kept in sync with include/cass_cpu/config.hpp.
EXIT_DEADLOCK = 86
EXIT_UNSUPPORTED = 87
EXIT_TIMEOUT = 88
UNSUPPORTED_PREFIX = "cannot run on CPU: "

Kind = Literal["ok", "failed", "deadlock", "unsupported", "timeout", "crashed"]


class RunOutcome(msgspec.Struct, frozen=True):
    kind: Kind
    detail: str  # the runtime's own message, or a description of the exit


def classify(result: ProcResult) -> RunOutcome:
    err = result.stderr.decode("utf-8", "replace")
    if result.timed_out or result.returncode == EXIT_TIMEOUT:
        return RunOutcome("timeout", _line(err, "cass-cpu: timed out") or "the program did not finish in time")
    if result.cancelled:
        return RunOutcome("failed", "cancelled")
    stopped = runtime_stop(result.returncode, result.stderr)
    if stopped is not None:
        return stopped
    if result.returncode < 0:
        try:
            name = signal.Signals(-result.returncode).name
        except ValueError:
            name = f"signal {-result.returncode}"
        where = _line(err, "cass-cpu: invalid memory access")  # the runtime's note of the faulting GPU thread
        return RunOutcome("crashed", f"killed by {name}" + (f" ({where.removeprefix('cass-cpu: ')})" if where else ""))
    if result.returncode != 0:
        return RunOutcome("failed", f"exit status {result.returncode}")
    return RunOutcome("ok", "")


def runtime_stop(returncode: int | None, stderr: bytes) -> RunOutcome | None:
    """A deadlock or a construct the runtime refused at run time, told by its exit code; None for
    an ordinary exit of the program."""
    if returncode not in (EXIT_DEADLOCK, EXIT_UNSUPPORTED):
        return None
    err = stderr.decode("utf-8", "replace")
    if returncode == EXIT_DEADLOCK:
        return RunOutcome("deadlock", _line(err, "cass-cpu: deadlock") or "deadlock detected")
    return RunOutcome("unsupported", _line(err, UNSUPPORTED_PREFIX) or UNSUPPORTED_PREFIX + "unknown construct")


def _line(text: str, prefix: str) -> str:
    return next((line for line in text.splitlines() if line.startswith(prefix)), "")
