"""What a run leaves on disk: removed whatever its shape, and bounded in size while it runs.

Real programs at every level: one leaves 2,100 nested folders (deeper than Python's recursion limit
and than PATH_MAX), some read-only or unreadable; one fills the disk with files each below the file
size limit. The work folder's removal is also tried on trees made here, a mount point included.
"""

from __future__ import annotations

import ctypes
import os
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from cass_lsp.verify import cgroups, diskquota, sandbox
from cass_lsp.verify.confine import NOBODY, PR_SET_DUMPABLE
from cass_lsp.verify.sandbox import Limits
from tests.toolchain.sandbox_attacks import GCC

# Past Python's recursion limit (1,000) and PATH_MAX (4,096 bytes of "d/d/...").
DEPTH = 2100
PROGRAMS = {
    # DEPTH nested folders, a file at the bottom; every tenth folder read-only, the top one unreadable.
    "deep": r"""
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>
int main(void) {
    for (int i = 0; i < DEPTH; i++) {
        if (mkdir("d", 0755) || chdir("d")) { perror("mkdir"); return 1; }
    }
    int fd = open("bottom", O_CREAT | O_WRONLY, 0600);
    if (fd < 0 || write(fd, "x", 1) != 1) { perror("bottom"); return 1; }
    for (int i = 0; i < DEPTH; i++) {
        if (chdir("..")) { perror("chdir"); return 1; }
        if (i % 10 == 0) chmod("d", 0555);
    }
    chmod("d", 0);
    puts("made");
    return 0;
}""".replace("DEPTH", str(DEPTH)),
    # Files of 16 MB (below the file size limit) until a write fails; prints the MB written.
    "fill": r"""
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
int main(void) {
    static char block[1 << 20];
    memset(block, 7, sizeof block);
    long mb = 0;
    for (int n = 0;; n++) {
        char name[32];
        snprintf(name, sizeof name, "fill%d", n);
        int fd = open(name, O_CREAT | O_WRONLY, 0600);
        if (fd < 0) { printf("%ld\n", mb); perror("open"); return 1; }
        for (int i = 0; i < 16; i++, mb++) {
            if (write(fd, block, sizeof block) != sizeof block) { printf("%ld\n", mb); fflush(stdout); perror("write"); return 1; }
        }
        close(fd);
    }
}""",
    # 20 files of 32 MB as fast as the kernel takes them: fallocate, or 1 MB writes where it is refused
    # (what posix_fallocate falls back to). Prints a line per file done.
    "flood": r"""
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
int main(void) {
    static char block[1 << 20];
    memset(block, 7, sizeof block);
    for (int n = 0; n < 20; n++) {
        char name[32];
        snprintf(name, sizeof name, "flood%d", n);
        int fd = open(name, O_CREAT | O_WRONLY, 0600);
        if (fd < 0) { perror("open"); return 1; }
        if (fallocate(fd, 0, 0, (off_t)32 << 20) != 0) {
            if (errno != EOPNOTSUPP && errno != ENOSYS) { perror("fallocate"); return 1; }
            for (int i = 0; i < 32; i++) {
                if (write(fd, block, sizeof block) != sizeof block) { perror("write"); return 1; }
            }
        }
        close(fd);
        printf("%d MB\n", (n + 1) * 32);
        fflush(stdout);
    }
    return 0;
}""",
}


@pytest.fixture(scope="module")
def binaries(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("disk-programs")
    for name, source in PROGRAMS.items():
        (out / f"{name}.c").write_text(source)
        subprocess.run([GCC, "-O1", "-o", str(out / name), str(out / f"{name}.c")], check=True, timeout=120)
    return out


def test_a_deep_read_only_tree_left_by_the_program_is_removed(level: str, binaries: Path) -> None:
    with sandbox.fresh_workdir("cass-deep-") as work:
        program = shutil.copy2(binaries / "deep", work / "deep")
        outcome = sandbox.run([program], workdir=work, limits=Limits(timeout_seconds=60))
        assert (outcome.exit_code, outcome.stdout) == (0, b"made\n"), outcome.stderr
        # At full the tree is in the run's own tmpfs and gone with it; elsewhere it is on the host.
        assert (work / "d").exists() == (level != "full")
    assert not work.exists()


def _nest(top: Path, depth: int) -> None:
    """``depth`` folders below ``top``, made through descriptors (the path is past PATH_MAX)."""
    fd = os.open(top, os.O_RDONLY | os.O_DIRECTORY)
    for _ in range(depth):
        os.mkdir("d", dir_fd=fd)
        sub = os.open("d", os.O_RDONLY | os.O_DIRECTORY, dir_fd=fd)
        os.close(fd)
        fd = sub
    os.close(os.open("f", os.O_CREAT | os.O_WRONLY, 0o600, dir_fd=fd))
    os.chmod(f"/proc/self/fd/{fd}", 0)
    os.close(fd)


def test_remove_tree_handles_any_depth_links_and_permissions(tmp_path: Path) -> None:
    top = tmp_path / "work"
    top.mkdir()
    _nest(top, DEPTH)
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "keep").write_text("kept")
    (top / "link").symlink_to(outside)  # removed as a link: what it points to stays
    (top / "ro").mkdir()
    (top / "ro" / "f").write_text("x")
    (top / "ro").chmod(0o500)
    top.chmod(0o500)
    # The disk quota's measure goes as deep: a deep tree cannot hide what it holds.
    assert sandbox.disk_usage(top) >= DEPTH * os.stat(top / "ro").st_blocks * 512
    assert sandbox.remove_tree(top) == []
    assert not top.exists()
    assert (outside / "keep").read_text() == "kept"


@pytest.mark.skipif(os.geteuid() != 0, reason="mounting a file system in the tree needs root")
def test_remove_tree_never_empties_a_file_system_mounted_below(tmp_path: Path) -> None:
    top = tmp_path / "work"
    (top / "mnt").mkdir(parents=True)
    (top / "other").write_text("x")
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(top / "mnt")], check=True, timeout=30)
    try:
        (top / "mnt" / "held").write_text("not the run's")
        problems = sandbox.remove_tree(top)
        assert any("mnt: a mount point, left alone" in p for p in problems), problems
        assert (top / "mnt" / "held").read_text() == "not the run's"
        assert not (top / "other").exists()
    finally:
        subprocess.run(["umount", str(top / "mnt")], check=True, timeout=30)
    assert sandbox.remove_tree(top) == [] and not top.exists()


def test_remove_tree_of_nothing_says_nothing(tmp_path: Path) -> None:
    assert sandbox.remove_tree(tmp_path / "never made") == []


def test_disk_use_is_bounded_and_named(level: str, binaries: Path) -> None:
    with sandbox.fresh_workdir("cass-fill-") as work:
        program = shutil.copy2(binaries / "fill", work / "fill")
        outcome = sandbox.run([program], workdir=work, limits=Limits(disk_mb=64, timeout_seconds=60))
        on_host = sandbox.disk_usage(work)
        program_size = os.stat(program).st_blocks * 512
    assert outcome.limit == "disk", (outcome.describe(), outcome.stdout, outcome.stderr)
    assert outcome.describe() == "stopped: disk limit (64 MB)"
    assert not outcome.timed_out and outcome.duration < 30
    if level == "full":
        # The kernel refused the write past the run's tmpfs; nothing reached the host's disk.
        assert int(outcome.stdout) <= 64 and b"No space left on device" in outcome.stderr
        assert on_host <= program_size + (1 << 20)
    else:
        # Measured and stopped: past the bound by at most what it wrote between two measurements.
        assert 64 << 20 < on_host < 1 << 30


@pytest.mark.parametrize("bound", ["cgroup", "process"])
def test_a_fast_writer_is_stopped_within_the_margin_at_the_landlock_level(
    bound: str, binaries: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """640 MB as fast as the disk takes it under a 64 MB limit, on the host's file system: stopped
    with the disk-limit verdict before it passes the stated margin, whether the run has a cgroup
    (killed whole) or not (stopped through its process group), and its work dir removed."""
    monkeypatch.setenv(sandbox.LEVEL_ENV, "landlock")
    monkeypatch.setenv(cgroups.BOUND_ENV, bound)
    if sandbox.isolation().level != "landlock":
        pytest.skip(f"this kernel has no landlock level: {sandbox.isolation().note}")
    if bound == "cgroup" and cgroups.memory_bound().parent is None:
        pytest.skip(f"no memory cgroup for a run here: {cgroups.memory_bound().note}")
    limits = Limits(disk_mb=64, timeout_seconds=60)
    with sandbox.fresh_workdir("cass-flood-") as work:
        program = shutil.copy2(binaries / "flood", work / "flood")
        outcome = sandbox.run([program], workdir=work, limits=limits)
        on_host = sandbox.disk_usage(work)
    margin = diskquota.margin_mb(limits.disk_mb, limits.file_size_mb) << 20
    assert outcome.limit == "disk", (outcome.describe(), outcome.stdout, outcome.stderr)
    assert outcome.describe() == "stopped: disk limit (64 MB)"
    assert outcome.disk_peak_bytes is not None and on_host <= outcome.disk_peak_bytes
    assert outcome.disk_peak_bytes <= (limits.disk_mb << 20) + margin, (outcome.disk_peak_bytes >> 20, outcome.stdout)
    assert not work.exists()


def test_measuring_a_running_programs_folders_leaves_their_modes(tmp_path: Path) -> None:
    """The quota measures while the program runs: a folder it made read-only or unreadable must
    stay so (a test of read-only behaviour would flip), and still be counted."""
    (tmp_path / "locked").mkdir()
    (tmp_path / "locked" / "data").write_bytes(b"x" * (1 << 20))
    (tmp_path / "ro").mkdir()
    (tmp_path / "locked").chmod(0)
    (tmp_path / "ro").chmod(0o555)
    try:
        assert sandbox.disk_usage(tmp_path) >= 1 << 20
        assert (tmp_path / "locked").stat().st_mode & 0o777 == 0
        assert (tmp_path / "ro").stat().st_mode & 0o777 == 0o555
    finally:
        (tmp_path / "locked").chmod(0o700)


@pytest.mark.skipif(os.geteuid() != 0, reason="measuring as another user needs root to become one")
def test_an_unreadable_folder_is_measured_by_its_owner_and_locked_again() -> None:
    """A server that is not root cannot read a folder the program (its own uid) locked: the measure
    lends itself r-x for the moment. Measured here as uid 65534 over that uid's tree."""
    with sandbox.fresh_workdir("cass-measure-") as work:
        (work / "locked").mkdir()
        (work / "locked" / "data").write_bytes(b"x" * (1 << 20))
        for path in (work, work / "locked", work / "locked" / "data"):
            os.chown(path, NOBODY, NOBODY)
        (work / "locked").chmod(0)
        assert _as_nobody(lambda: sandbox.disk_usage(work)) >= 1 << 20
        assert (work / "locked").stat().st_mode & 0o777 == 0


def _as_nobody(measure: Callable[[], int]) -> int:
    """``measure()`` in a forked child that became uid 65534 (this process stays root)."""
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:
        try:
            os.setgroups([])
            os.setgid(NOBODY)
            os.setuid(NOBODY)
            # The uid change made this process non-dumpable, which hands /proc/self to root; a
            # server started as an ordinary user is dumpable.
            ctypes.CDLL(None).prctl(PR_SET_DUMPABLE, 1, 0, 0, 0)
            os.write(write_end, str(measure()).encode())
        finally:
            os._exit(0)
    os.close(write_end)
    with os.fdopen(read_end, "rb") as reader:
        answer = reader.read()
    assert os.waitpid(pid, 0)[1] == 0
    return int(answer)
