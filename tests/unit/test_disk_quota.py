"""The disk count of a run on the host's file system (landlock and none levels), by its events alone.

The whole-tree walk that backs the events is replaced here by one that sees nothing, so what stops
the run can only be the per-file count: a file written below folders nested past PATH_MAX, and a
file written after thousands of new folders, each pass the limit and are seen.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

from cass_lsp.verify import diskquota, inotify, sandbox

pytestmark = pytest.mark.skipif(not inotify.available(), reason="inotify watches are a Linux resource")

# Past PATH_MAX (4,096 bytes of "d/d/...").
DEEP = 2100


def _quota(top: Path, killed: threading.Event) -> diskquota.DiskQuota:
    return diskquota.DiskQuota(top, 1, None, killed.set, lambda _: 0)


def _nest(top: Path, depth: int) -> int:
    """``depth`` folders below ``top``, made through descriptors; the bottom one's, open."""
    fd = os.open(top, os.O_RDONLY | os.O_DIRECTORY)
    for _ in range(depth):
        os.mkdir("d", dir_fd=fd)
        below = os.open("d", os.O_RDONLY | os.O_DIRECTORY, dir_fd=fd)
        os.close(fd)
        fd = below
    return fd


def _write(fd: int, name: str, mb: int) -> None:
    out = os.open(name, os.O_CREAT | os.O_WRONLY, 0o600, dir_fd=fd)
    try:
        for _ in range(mb):
            os.write(out, b"x" * (1 << 20))
    finally:
        os.close(out)


def test_a_file_below_folders_past_path_max_is_counted(tmp_path: Path) -> None:
    killed = threading.Event()
    work = tmp_path / "work"
    work.mkdir()
    try:
        with _quota(work, killed) as quota:
            bottom = _nest(work, DEEP)
            try:
                _write(bottom, "fill", 3)
            finally:
                os.close(bottom)
            assert killed.wait(60), "3 MB at the bottom of the tree went uncounted"
    finally:
        assert sandbox.remove_tree(work) == []  # pytest's own cleanup recurses, and would give up
    assert quota.exceeded and quota.stop.is_set()
    assert quota.peak > 1 << 20  # the count stops at the first look past the limit


def test_thousands_of_new_folders_do_not_delay_the_count_of_a_file(tmp_path: Path) -> None:
    killed = threading.Event()
    with _quota(tmp_path, killed) as quota:
        for n in range(3000):
            os.mkdir(tmp_path / f"f{n}")
        top = os.open(tmp_path, os.O_RDONLY | os.O_DIRECTORY)
        try:
            _write(top, "fill", 3)
        finally:
            os.close(top)
        assert killed.wait(60), "3 MB in the work dir went uncounted"
    assert quota.exceeded and quota.peak > 1 << 20


def test_within_the_limit_nothing_is_stopped(tmp_path: Path) -> None:
    killed = threading.Event()
    with diskquota.DiskQuota(tmp_path, 8, None, killed.set, lambda _: 0) as quota:
        top = os.open(tmp_path, os.O_RDONLY | os.O_DIRECTORY)
        try:
            _write(top, "small", 2)
        finally:
            os.close(top)
    assert not killed.is_set() and not quota.exceeded and not quota.stop.is_set()
    assert quota.peak <= 8 << 20
