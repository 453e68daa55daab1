"""Regression tests for the watcher defects of issue 19: inotify watches on ignored folders (one
``src/`` and 600 ``node_modules`` folders cost 603 of the user's ``max_user_watches``) and the
folder walk on the caller's thread (the server's event loop); and for watchdog's observer in place
of the hand-written inotify module (issue 27): a tree with more kept folders than the default
``fs.inotify.max_user_instances`` (128) takes one instance, one watch per kept folder and no thread
per folder."""

from __future__ import annotations

import contextlib
import logging
import os
import resource
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from cass_lsp.verify import watcher
from cass_lsp.verify.watcher import Watcher

if not sys.platform.startswith("linux"):
    pytest.skip("inotify watches are a Linux resource", allow_module_level=True)

from cass_lsp.verify import kept_folders  # importing it needs a libc with inotify


def inotify_instances() -> list[str]:
    """The fdinfo of every inotify instance this process holds, as the kernel describes them."""
    infos = []
    for fd in os.listdir("/proc/self/fd"):
        try:
            if os.readlink(f"/proc/self/fd/{fd}") != "anon_inode:inotify":
                continue
            infos.append(Path(f"/proc/self/fdinfo/{fd}").read_text())
        except OSError:
            continue
    return infos


def inotify_watches() -> int:
    """Every inotify watch this process holds, as the kernel counts them."""
    return sum(line.startswith("inotify wd:") for info in inotify_instances() for line in info.splitlines())


def settled_watches(expected: int, timeout_s: float = 10.0) -> int:
    """The process's inotify watches once they number ``expected``, or after ``timeout_s`` what they are."""
    deadline = time.monotonic() + timeout_s
    while (count := inotify_watches()) != expected and time.monotonic() < deadline:
        time.sleep(0.02)
    return count


class Batches:
    """The watcher's consumer: deliveries run right away on a timer thread."""

    def __init__(self) -> None:
        self.paths: set[str] = set()
        self.changed = threading.Condition()

    def deliver(self, paths: set[str]) -> None:
        with self.changed:
            self.paths |= paths
            self.changed.notify_all()

    def schedule(self, delay: float, callback: Callable[[], None]) -> None:
        threading.Timer(delay, callback).start()

    def wait_for(self, path: Path) -> bool:
        with self.changed:
            return self.changed.wait_for(lambda: str(path) in self.paths, timeout=10)


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "k.cu").write_text("// k\n")
    for index in range(600):
        (tmp_path / "node_modules" / f"p{index}").mkdir(parents=True)
    return tmp_path


@pytest.fixture
def started(tree: Path) -> Iterator[tuple[Watcher, Batches, int]]:
    """A watcher over ``tree``, ready; and the watches the process held before it."""
    batches = Batches()
    before = inotify_watches()
    watching = Watcher([str(tree)], ["node_modules", ".git"], batches.deliver, batches.schedule, debounce_s=0.05)
    watching.start()
    assert watching.ready.wait(10)
    yield watching, batches, before
    watching.stop()
    assert inotify_watches() == before  # stopping gives every watch back


def test_ignored_folders_take_no_watch(started: tuple[Watcher, Batches, int]) -> None:
    _, _, before = started
    assert inotify_watches() - before == 2  # the root and src/, not the 601 node_modules folders


def test_a_folder_created_later_is_watched_and_its_files_reported(
    tree: Path, started: tuple[Watcher, Batches, int]
) -> None:
    _, batches, before = started
    fresh = tree / "src" / "fresh" / "deeper"
    fresh.mkdir(parents=True)
    early = fresh / "early.cu"
    early.write_text("// written as the folder appeared\n")
    assert batches.wait_for(early)
    later = fresh / "later.cuh"
    later.write_text("// written once the folder is watched\n")
    assert batches.wait_for(later)
    (tree / "node_modules" / "p0" / "new").mkdir()
    ignored = tree / "node_modules" / "p0" / "x.cu"
    ignored.write_text("// ignored\n")
    edited = tree / "src" / "k.cu"
    edited.write_text("// edited\n")
    assert batches.wait_for(edited)
    assert str(ignored) not in batches.paths
    assert inotify_watches() - before == 4  # root, src, src/fresh, src/fresh/deeper


def test_a_folder_moved_out_and_back_is_watched_under_its_new_name(
    tree: Path, started: tuple[Watcher, Batches, int]
) -> None:
    _, batches, _ = started
    (tree / "src").rename(tree / "kernels")
    moved = tree / "kernels" / "k.cu"
    assert batches.wait_for(moved)  # the files of a folder moved in are reported
    moved.write_text("// edited after the move\n")
    (tree / "kernels" / "other.cu").write_text("// new\n")
    assert batches.wait_for(tree / "kernels" / "other.cu")
    assert str(tree / "src" / "other.cu") not in batches.paths


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A project of 300 source folders (``src/m<module>/p<part>``) with its build output and git
    objects, which are not watched."""
    for module in range(15):
        for part in range(20):
            (tmp_path / "src" / f"m{module}" / f"p{part}").mkdir(parents=True)
    (tmp_path / "src" / "m7" / "p3" / "scan.cu").write_text("__global__ void scan() {}\n")
    for index in range(40):
        (tmp_path / "build" / "CMakeFiles" / f"t{index}.dir").mkdir(parents=True)
        (tmp_path / ".git" / "objects" / f"{index:02x}").mkdir(parents=True)
    return tmp_path


PROJECT_KEPT_FOLDERS = 1 + 1 + 15 + 15 * 20  # the root, src/, the modules, their parts


def test_more_kept_folders_than_inotify_instances_take_one_instance_and_no_thread_each(project: Path) -> None:
    instances, watches, threads = len(inotify_instances()), inotify_watches(), threading.active_count()
    batches = Batches()
    watching = Watcher([str(project)], ["build", ".git"], batches.deliver, batches.schedule, debounce_s=0.05)
    watching.start()
    assert watching.ready.wait(10)
    try:
        assert len(inotify_instances()) - instances == 1  # not one per folder, out of the user's 128
        assert inotify_watches() - watches == PROJECT_KEPT_FOLDERS  # none in build/ or .git/
        # the observer, its root's emitter and the descriptor's reader: not a thread per folder
        assert threading.active_count() - threads <= 3
        output = project / "build" / "CMakeFiles" / "t0.dir" / "scan.cu"
        output.write_text("// generated\n")
        git_object = project / ".git" / "objects" / "00" / "scan.cu"
        git_object.write_text("// not a source\n")
        nested = project / "src" / "m7" / "p3" / "scan.cu"
        nested.write_text("__global__ void scan(int n) {}\n")
        assert batches.wait_for(nested)
        assert batches.paths == {str(nested)}
    finally:
        watching.stop()
    assert len(inotify_instances()) == instances


def test_a_folder_deleted_and_created_again_is_watched_again(tree: Path, started: tuple[Watcher, Batches, int]) -> None:
    _, batches, before = started
    (tree / "src" / "k.cu").unlink()
    (tree / "src").rmdir()
    (tree / "src").mkdir()
    fresh = tree / "src" / "k.cu"
    fresh.write_text("// again\n")
    assert batches.wait_for(fresh)
    # the new folder's files can be reported (walked) before its watch is added: wait for the count to settle
    assert settled_watches(before + 2) - before == 2  # the root and the new src/: the old watch is gone


def test_start_returns_while_the_folders_are_still_being_walked(tree: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    walking = threading.Event()
    release = threading.Event()
    real_folders = kept_folders.folders

    def slow_folders(root: str, ignore: frozenset[str]) -> Iterator[str]:
        walking.set()
        release.wait(10)
        yield from real_folders(root, ignore)

    monkeypatch.setattr(kept_folders, "folders", slow_folders)
    batches = Batches()
    watching = Watcher([str(tree)], ["node_modules"], batches.deliver, batches.schedule, debounce_s=0.05)
    returned = threading.Event()

    def start() -> None:
        watching.start()
        returned.set()

    caller = threading.Thread(target=start)
    caller.start()
    try:
        assert walking.wait(10)
        assert returned.wait(10), "start() waited for the walk: it runs on the server's event loop"
        assert not watching.ready.is_set()
    finally:
        release.set()
        caller.join(10)
    assert watching.ready.wait(10)
    watching.stop()


def test_a_workspace_inside_a_folder_named_like_an_ignored_one_is_watched(tmp_path: Path) -> None:
    root = tmp_path / "build" / "project"
    root.mkdir(parents=True)
    batches = Batches()
    watching = Watcher([str(root)], ["build"], batches.deliver, batches.schedule, debounce_s=0.05)
    watching.start()
    assert watching.ready.wait(10)
    try:
        (root / "k.cu").write_text("// k\n")
        assert batches.wait_for(root / "k.cu")
    finally:
        watching.stop()


def test_without_inotify_watchdog_watches_the_roots(tree: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(watcher, "_kept_folders_observer", lambda ignore, walked: None)
    batches = Batches()
    watching = Watcher([str(tree)], ["node_modules"], batches.deliver, batches.schedule, debounce_s=0.05)
    watching.start()
    assert watching.ready.is_set()
    try:
        edited = tree / "src" / "k.cu"
        edited.write_text("// edited\n")
        assert batches.wait_for(edited)
    finally:
        watching.stop()


@contextlib.contextmanager
def no_descriptor_left() -> Iterator[None]:
    """Every descriptor number below the process's limit in use, as when the user's programs hold
    every inotify instance: the kernel refuses a new one with EMFILE either way."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(int(fd) for fd in os.listdir("/proc/self/fd")) + 1, hard))
    held = []
    try:
        with contextlib.suppress(OSError):
            while True:
                held.append(os.dup(0))
        yield
    finally:
        for fd in held:
            os.close(fd)
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def test_without_an_inotify_instance_the_server_still_starts(tree: Path, caplog: pytest.LogCaptureFixture) -> None:
    batches = Batches()
    watching = Watcher([str(tree)], ["node_modules"], batches.deliver, batches.schedule, debounce_s=0.05)
    with caplog.at_level(logging.WARNING, logger="cass_lsp.verify.watcher"), no_descriptor_left():
        watching.start()
    assert watching.ready.is_set()
    assert "cannot watch for changes" in caplog.text and "only the editor's saves" in caplog.text
    watching.stop()
