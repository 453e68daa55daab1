"""The job layer on its own: keys, shared runs, supersede/cancel, bounded concurrency, resolved settings."""

from __future__ import annotations

import asyncio
import threading
import time
from pathlib import Path

import pytest

from cass_lsp.asm import jobs as asm_jobs
from cass_lsp.asm.jobs import LISTING_FIELDS
from cass_lsp.core import targets
from cass_lsp.core.cache import ResultCache
from cass_lsp.core.cancel import Cancelled, CancelToken, Superseded
from cass_lsp.core.jobs import JobKind
from cass_lsp.core.progress import Progress
from cass_lsp.core.scheduler import Scheduler
from cass_lsp.core.settings import Settings, load_settings
from cass_lsp.services.settings import resolve, resolve_cli
from cass_lsp.translate import jobs as translate_jobs
from cass_lsp.translate.jobs import TRANSLATION_FIELDS

KIND = JobKind("test", concurrency=2, reads=())
MEMO = JobKind("memo", concurrency=1, reads=(), memoize=True)


def scheduler(tmp_path: Path) -> Scheduler:
    return Scheduler(ResultCache(tmp_path / "cache"))


# ---------------------------------------------------------------------- keys and resolved settings


def test_translation_key_reads_only_the_fields_it_depends_on() -> None:
    base = resolve_cli(target={"arch": "gfx1100", "rocm": "5.2"})
    key = translate_jobs.translation_key(base, "int x;", reverse=False, byte_range=None)
    assert translate_jobs.translation_key(base, "int x;", reverse=False, byte_range=None) == key
    assert translate_jobs.translation_key(base, "int y;", reverse=False, byte_range=None) != key
    assert translate_jobs.translation_key(base, "int x;", reverse=True, byte_range=None) != key
    assert translate_jobs.translation_key(base, "int x;", reverse=False, byte_range=(0, 3)) != key
    for other in (
        resolve_cli(target={"arch": "gfx942", "rocm": "5.2"}),
        resolve_cli(target={"arch": "gfx1100", "rocm": "7.1"}),
        resolve_cli(target={"arch": "gfx1100", "rocm": "5.2"}, translate={"launchStyle": "hipLaunchKernelGGL"}),
    ):
        assert translate_jobs.translation_key(other, "int x;", reverse=False, byte_range=None) != key
    # a listing-only setting does not change a translation
    listing_only = resolve_cli(target={"arch": "gfx1100", "rocm": "5.2"}, asm={"extraArgs": {"clang": ["-O1"]}})
    assert translate_jobs.translation_key(listing_only, "int x;", reverse=False, byte_range=None) == key
    assert asm_jobs.listing_key(listing_only, "int x;", "/k.cu", "gfx1100") != asm_jobs.listing_key(
        base, "int x;", "/k.cu", "gfx1100"
    )
    assert set(TRANSLATION_FIELDS) <= set(LISTING_FIELDS)


def test_auto_rocm_is_resolved_once_for_everything(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    include = tmp_path / "rocm6" / "include" / "hip"
    include.mkdir(parents=True)
    (include / "hip_version.h").write_text(
        "#define HIP_VERSION_MAJOR 6\n#define HIP_VERSION_MINOR 2\n#define HIP_VERSION_PATCH 41133\n"
    )
    monkeypatch.setenv("HIP_PATH", str(tmp_path / "rocm6"))
    targets.detect_rocm.cache_clear()
    try:
        resolved = resolve(load_settings({"target": {"rocm": "auto"}})[0])
        assert resolved.rocm == "6.2" and resolved.profile.rocm == "6.2"
        assert resolved.profile.rocm_version() == (6, 2)
        # listings judge against the same version: no headers for it here, so they say so
        from cass_lsp import toolchains

        with pytest.raises(ValueError, match=r"ROCm 6\.2"):
            toolchains.rocm_profile("auto")
        result = asm_jobs.build_listing(resolved, "__global__ void k() {}\n", str(tmp_path / "k.cu"), "gfx1100")
        assert "ROCm 6.2" in getattr(result, "message", "")
    finally:
        targets.detect_rocm.cache_clear()


def test_resolved_settings_are_immutable_and_complete() -> None:
    resolved = resolve(Settings())
    assert resolved.rocm != "auto" and resolved.wave_size == 32
    with pytest.raises(AttributeError):
        resolved.arch = "gfx942"  # type: ignore[misc]
    assert resolved.digest(["arch"]) != resolve_cli(target={"arch": "gfx942"}).digest(["arch"])


# ---------------------------------------------------------------------- the scheduler


async def test_same_key_shares_one_run(tmp_path: Path) -> None:
    jobs = scheduler(tmp_path)
    runs = []
    release = threading.Event()

    def work(token: CancelToken, progress: Progress) -> str:
        runs.append(1)
        release.wait(5)
        return "done"

    first = jobs.submit(KIND, "doc", "k1", work)
    second = jobs.submit(KIND, "doc", "k1", work)
    assert second is first
    release.set()
    assert await asyncio.gather(first, second) == ["done", "done"]
    assert len(runs) == 1


async def test_memoized_results_are_served_by_key_and_only_by_key(tmp_path: Path) -> None:
    jobs = scheduler(tmp_path)
    calls: list[str] = []

    def work_for(value: str):  # type: ignore[no-untyped-def]
        def work(token: CancelToken, progress: Progress) -> str:
            calls.append(value)
            return value

        return work

    assert await jobs.run(MEMO, "doc", "a", work_for("A")) == "A"
    assert jobs.ready(MEMO, "a") == "A"
    assert await jobs.run(MEMO, "doc", "a", work_for("other")) == "A"  # same key: not run again
    assert await jobs.run(MEMO, "doc", "b", work_for("B")) == "B"
    assert calls == ["A", "B"]
    assert jobs.ready(KIND, "a") is None  # a kind that does not memoize never answers from memory


async def test_a_newer_key_in_the_slot_supersedes_the_running_job(tmp_path: Path) -> None:
    jobs = scheduler(tmp_path)
    saw_cancel = threading.Event()

    def slow(token: CancelToken, progress: Progress) -> str:
        while not token.cancelled:
            time.sleep(0.01)
        saw_cancel.set()
        token.check()
        return "never"

    def quick(token: CancelToken, progress: Progress) -> str:
        return "v2"

    old = jobs.submit(KIND, "doc", "v1", slow)
    await asyncio.sleep(0.05)
    new = jobs.submit(KIND, "doc", "v2", quick)
    assert await new == "v2"
    with pytest.raises(Superseded):
        await old
    assert saw_cancel.wait(2)


async def test_concurrency_is_bounded_per_kind(tmp_path: Path) -> None:
    jobs = scheduler(tmp_path)
    busy = 0
    most = 0
    lock = threading.Lock()

    def work(token: CancelToken, progress: Progress) -> None:
        nonlocal busy, most
        with lock:
            busy += 1
            most = max(most, busy)
        time.sleep(0.05)
        with lock:
            busy -= 1

    await asyncio.gather(*(jobs.run(KIND, f"doc{i}", f"k{i}", work) for i in range(8)))
    assert most == KIND.concurrency
    # another kind's pool is separate: a busy kind cannot starve it
    blocker = threading.Event()
    held = [jobs.submit(KIND, f"slow{i}", f"s{i}", lambda t, p: blocker.wait(5)) for i in range(2)]
    assert await asyncio.wait_for(jobs.run(MEMO, "doc", "free", lambda t, p: "ran"), 2) == "ran"
    blocker.set()
    await asyncio.gather(*held)


async def test_cancelling_one_waiter_does_not_cancel_the_shared_run(tmp_path: Path) -> None:
    jobs = scheduler(tmp_path)
    release = threading.Event()
    waiter = asyncio.ensure_future(jobs.run(KIND, "doc", "k", lambda t, p: release.wait(5) and "ok"))
    await asyncio.sleep(0)  # the waiter starts the run
    other = jobs.submit(KIND, "doc", "k", lambda t, p: "not run")
    await asyncio.sleep(0.02)
    waiter.cancel()
    release.set()
    assert await other == "ok"


async def test_errors_reach_every_waiter_and_are_not_kept(tmp_path: Path) -> None:
    jobs = scheduler(tmp_path)

    def broken(token: CancelToken, progress: Progress) -> str:
        raise RuntimeError("engine bug")

    with pytest.raises(RuntimeError, match="engine bug"):
        await jobs.run(MEMO, "doc", "k", broken)
    assert jobs.ready(MEMO, "k") is None
    assert await jobs.run(MEMO, "doc", "k", lambda t, p: "fixed") == "fixed"


async def test_shutdown_cancels_running_jobs(tmp_path: Path) -> None:
    jobs = scheduler(tmp_path)

    def wait(token: CancelToken, progress: Progress) -> None:
        token.event.wait(5)
        token.check()

    running = jobs.submit(KIND, "doc", "k", wait)
    await asyncio.sleep(0.02)
    jobs.shutdown()
    with pytest.raises(Cancelled):
        await running
    with pytest.raises(Cancelled):
        jobs.submit(KIND, "doc", "k2", wait)


async def test_progress_reports_reach_the_sink(tmp_path: Path) -> None:
    seen: list[tuple[str, object]] = []

    class Recorder:
        def report(self, message: str | None = None, percentage: int | None = None) -> None:
            seen.append(("report", message))

        def end(self, message: str | None = None) -> None:
            seen.append(("end", message))

    class Sink:
        def begin(self, title: str, cancel: CancelToken | None) -> Progress:
            seen.append(("begin", title))
            assert cancel is not None
            return Recorder()

    jobs = Scheduler(ResultCache(tmp_path / "cache"), progress=Sink())

    def work(token: CancelToken, progress: Progress) -> int:
        progress.report("half", 50)
        return 1

    assert await jobs.run(KIND, "doc", "k", work, title="Compiling k.cu") == 1
    assert seen == [("begin", "Compiling k.cu"), ("report", "half"), ("end", None)]


def test_translate_work_checks_its_token() -> None:
    token = CancelToken()
    token.cancel(Superseded)
    resolved = resolve_cli(target={"rocm": "5.2"})
    with pytest.raises(Superseded):
        translate_jobs.translate_text(resolved, "void f() { cudaDeviceSynchronize(); }\n", token=token)
