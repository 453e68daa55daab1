"""cass_lsp.proc: timeouts and cancellation end the whole process group, grandchildren included."""

from __future__ import annotations

import sys
import threading
import time
from pathlib import Path

import pytest

from cass_lsp import proc

# A "compiler" that forks a helper (like nvcc → cicc) and then hangs. The helper writes its pid
# and sleeps far longer than any timeout used here.
SPAWNER = """
import subprocess, sys, time
helper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(300)"])
open(sys.argv[1], "w").write(str(helper.pid))
print("started", flush=True)
time.sleep(float(sys.argv[2]))
"""

# Same helper, but the parent exits at once and leaves the helper running in its group.
LEAVER = """
import subprocess, sys
helper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(300)"],
                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
open(sys.argv[1], "w").write(str(helper.pid))
"""


def _alive(pid: int) -> bool:
    """True while the process exists and is not a zombie awaiting its reaper."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return False
    state = stat.rsplit(")", 1)[1].split()[0]
    return state not in ("Z", "X")


def _wait_dead(pid: int, within: float = 3.0) -> bool:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        if not _alive(pid):
            return True
        time.sleep(0.02)
    return not _alive(pid)


def _pid_from(path: Path, within: float = 10.0) -> int:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        if path.exists() and path.read_text():
            return int(path.read_text())
        time.sleep(0.02)
    raise AssertionError(f"{path} never written")


def test_captures_output_and_status() -> None:
    r = proc.run(
        [sys.executable, "-c", "import sys; sys.stdout.write('out'); sys.stderr.write('err'); sys.exit(3)"],
        timeout=30,
    )
    assert (r.returncode, r.stdout, r.stderr) == (3, b"out", b"err")
    assert not r.timed_out and not r.ok
    assert r.duration > 0


def test_passes_input_cwd_and_env(tmp_path: Path) -> None:
    code = "import os, sys; print(sys.stdin.read().upper(), os.getcwd(), os.environ['CASS_X'])"
    r = proc.run([sys.executable, "-c", code], timeout=30, input=b"abc", cwd=tmp_path, env={"CASS_X": "1"})
    assert r.ok
    assert r.stdout.decode().split() == ["ABC", str(tmp_path), "1"]


def test_rejects_a_shell_string() -> None:
    # a str is a Sequence[str] to a type checker, so the check happens at run time
    with pytest.raises(TypeError):
        proc.run("echo hi", timeout=5)


def test_timeout_kills_child_and_grandchild(tmp_path: Path) -> None:
    pidfile = tmp_path / "helper.pid"
    t0 = time.monotonic()
    r = proc.run([sys.executable, "-c", SPAWNER, str(pidfile), "300"], timeout=1.5)
    assert r.timed_out
    assert time.monotonic() - t0 < 10
    assert r.stdout == b"started\n"  # what it printed before the kill is kept
    assert _wait_dead(_pid_from(pidfile))


def test_normal_exit_ends_helpers_left_in_the_group(tmp_path: Path) -> None:
    pidfile = tmp_path / "helper.pid"
    r = proc.run([sys.executable, "-c", LEAVER, str(pidfile)], timeout=30)
    assert r.ok
    assert _wait_dead(_pid_from(pidfile))


def test_cancel_event_kills_the_group(tmp_path: Path) -> None:
    pidfile = tmp_path / "helper.pid"
    cancel = threading.Event()
    threading.Timer(1.0, cancel.set).start()
    r = proc.run([sys.executable, "-c", SPAWNER, str(pidfile), "300"], timeout=60, cancel=cancel)
    assert r.cancelled and not r.timed_out
    assert _wait_dead(_pid_from(pidfile))


def test_cancel_event_unset_lets_the_program_finish() -> None:
    r = proc.run([sys.executable, "-c", "print(42)"], timeout=30, cancel=threading.Event())
    assert r.ok and r.stdout == b"42\n"
