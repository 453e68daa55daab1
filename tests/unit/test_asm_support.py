"""Listing cache, compile_commands.json lookup and local-include discovery."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import msgspec
import pytest

from cass_lsp.asm.listing import CompileFailure, Listing
from cass_lsp.compile import commands as compile_commands
from cass_lsp.compile import includes
from cass_lsp.compile.diagnostic import CompilerDiagnostic
from cass_lsp.core.cache import ResultCache
from tests.unit import asm_samples as samples

KEY_A = "a" * 64
KEY_B = "b" * 64


ASM = "asm"


def listing_cache(directory: Path, max_bytes: int = 256 * 1024 * 1024) -> ResultCache:
    cache = ResultCache(directory, max_bytes=max_bytes)
    cache.register(ASM, Listing | CompileFailure)
    return cache


def test_cache_round_trip_survives_a_new_instance(tmp_path: Path) -> None:
    listing = samples.rdna_listing()
    cache = listing_cache(tmp_path)
    assert cache.get(ASM, KEY_A) is None
    cache.put(ASM, KEY_A, listing)
    assert cache.get(ASM, KEY_A) is listing  # memory layer
    fresh = listing_cache(tmp_path)  # as after a restart
    again = fresh.get(ASM, KEY_A)
    assert isinstance(again, Listing) and again == listing
    failure = CompileFailure(
        target="sm_90", source="k.cu", output="boom", diagnostics=[CompilerDiagnostic("error", "bad", "k.cu", 3)]
    )
    fresh.put(ASM, KEY_B, failure)
    assert listing_cache(tmp_path).get(ASM, KEY_B) == failure


def test_cache_evicts_least_recently_used(tmp_path: Path) -> None:
    listing = samples.sass_listing()
    size = len(msgspec.msgpack.encode(listing))
    # room for 3 records: the 4th evicts exactly one to get back under 80%
    cache = listing_cache(tmp_path, max_bytes=int(size * 3.9))
    keys = [f"{i:064x}" for i in range(3)]
    for i, key in enumerate(keys):
        cache.put(ASM, key, listing)
        path = tmp_path / ASM / key[:2] / f"{key}.msgpack"
        os.utime(path, ns=(time.time_ns() - (10 - i) * 10**9,) * 2)  # distinct ages: keys[0] oldest
    listing_cache(tmp_path).get(ASM, keys[0])  # reading refreshes keys[0]: keys[1] is now the oldest
    cache.put(ASM, f"{9:064x}", listing)
    left = {p.stem for p in tmp_path.rglob("*.msgpack")}
    assert keys[1] not in left
    assert {keys[0], keys[2], f"{9:064x}"} <= left


def test_cache_resize_from_settings_evicts_at_once(tmp_path: Path) -> None:
    listing = samples.sass_listing()
    cache = listing_cache(tmp_path)
    for i in range(4):
        cache.put(ASM, f"{i:064x}", listing)
    cache.resize(len(msgspec.msgpack.encode(listing)) * 2)
    assert len(list(tmp_path.rglob("*.msgpack"))) == 1


def test_cache_drops_unreadable_records(tmp_path: Path) -> None:
    cache = listing_cache(tmp_path)
    path = tmp_path / ASM / KEY_A[:2] / f"{KEY_A}.msgpack"
    path.parent.mkdir(parents=True)
    path.write_bytes(b"\x93not a record")
    assert cache.get(ASM, KEY_A) is None
    assert not path.exists()


def test_an_unwritable_cache_folder_costs_only_the_disk_layer(tmp_path: Path) -> None:
    blocked = tmp_path / "cache"
    blocked.write_text("a file where the cache folder should be")  # permissions do not stop root
    cache = listing_cache(blocked)
    cache.put(ASM, KEY_A, samples.sass_listing())  # cannot write: kept in memory, no exception
    assert cache.get(ASM, KEY_A) == samples.sass_listing()
    assert blocked.read_text().startswith("a file")


def test_compile_commands_nearest_and_flags(tmp_path: Path) -> None:
    project = tmp_path / "proj"
    (project / "src" / "deep").mkdir(parents=True)
    (project / "build").mkdir()
    database = project / "build" / "compile_commands.json"
    database.write_text(
        json.dumps(
            [
                {
                    "directory": str(project / "build"),
                    "file": "../src/k.cu",
                    "arguments": [
                        "nvcc",
                        "-I../include",
                        "-isystem",
                        "/opt/x",
                        "-DSCALE=3",
                        "-D",
                        "MODE=2",
                        "-UOLD",
                        "--std",
                        "c++17",
                        "-O2",
                        "-Xcompiler",
                        "-Wall",
                        "-c",
                        "../src/k.cu",
                        "-o",
                        "k.o",
                    ],
                },
                {
                    "directory": str(project / "build"),
                    "file": "../src/deep/other.cu",
                    "command": "clang++ --include-path=../other -std=c++20 -c ../src/deep/other.cu",
                },
            ]
        )
    )
    assert compile_commands.find(project / "src" / "k.cu") == database
    assert compile_commands.find(project / "src" / "deep" / "other.cu") == database
    assert compile_commands.find(tmp_path / "elsewhere.cu") is None
    flags = compile_commands.flags_for(project / "src" / "k.cu", database)
    assert flags == [f"-I{project / 'include'}", "-isystem", "/opt/x", "-DSCALE=3", "-DMODE=2", "-UOLD", "-std=c++17"]
    other = compile_commands.flags_for(project / "src" / "deep" / "other.cu", database)
    assert other == [f"-I{project / 'other'}", "-std=c++20"]
    # a header has no entry: borrow the flags of a file in its folder
    assert compile_commands.flags_for(project / "src" / "k.cuh", database) == flags
    configured = compile_commands.find(project / "src" / "k.cu", configured=project / "build")
    assert configured == database


def test_local_headers_follow_quote_includes(tmp_path: Path) -> None:
    (tmp_path / "inc").mkdir()
    (tmp_path / "a.cuh").write_text('#include "b.cuh"\n#include <cstdio>\n')
    (tmp_path / "b.cuh").write_text('#include "a.cuh"\n')  # a cycle
    (tmp_path / "inc" / "c.cuh").write_text("// from -I\n")
    main = tmp_path / "k.cu"
    text = '#include "a.cuh"\n  #  include "c.cuh"\n#include "missing.cuh"\n'
    found = includes.local_headers(text, main, [tmp_path / "inc"])
    assert sorted(p.name for p in found) == ["a.cuh", "b.cuh", "c.cuh"]
    assert all(p.is_absolute() for p in found)


def test_writes_count_the_store_instead_of_scanning_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A write scans the cache folder only the first time (to learn what is there) and when its count
    says the bound is crossed: under load every listing and verification stage writes a record."""
    from cass_lsp.core import cache as cache_module

    scans = []
    scandir = cache_module._scandir

    def counting(path: Path) -> list[os.DirEntry[str]]:
        if path == tmp_path:
            scans.append(path)
        return scandir(path)

    monkeypatch.setattr(cache_module, "_scandir", counting)
    listing = samples.sass_listing()
    size = len(msgspec.msgpack.encode(listing))
    cache = listing_cache(tmp_path, max_bytes=int(size * 10.5))
    for i in range(10):
        cache.put(ASM, f"{i:064x}", listing)
    cache.put(ASM, f"{3:064x}", listing)  # a rewrite replaces a record: the count stays
    assert len(scans) == 1
    cache.put(ASM, f"{10:064x}", listing)  # the 11th crosses the bound: one scan, back under 80%
    assert len(scans) == 2
    assert len(list(tmp_path.rglob("*.msgpack"))) == 8


def test_memory_records_are_weighed_by_their_encoded_size(tmp_path: Path) -> None:
    """A record kept in memory only (a translation) counts what it holds, not a fixed guess: 50
    documents edited for minutes make tens of thousands of them."""
    cache = ResultCache(tmp_path, memory_bytes=100_000)
    record = {"text": "x" * 30_000, "findings": []}
    for i in range(10):
        cache.put("translate", f"{i:064x}", record)
    assert cache._memory_used <= 100_000
    assert cache.peek("translate", f"{9:064x}") is record and cache.peek("translate", f"{0:064x}") is None


def test_a_full_disk_keeps_records_in_memory_and_leaves_no_partial_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """ENOSPC in the middle of a record: the half-written temp file goes, the record stays in memory,
    and the warning comes once however many writes fail."""
    import errno
    import io

    from cass_lsp.core import cache as cache_module

    class FullDisk(io.RawIOBase):
        def __init__(self, fd: int) -> None:
            self.fd = fd

        def writable(self) -> bool:
            return True

        def write(self, data: bytes) -> int:  # type: ignore[override]
            os.write(self.fd, data[:100])  # some bytes land, then the disk is full
            raise OSError(errno.ENOSPC, "No space left on device")

        def close(self) -> None:
            os.close(self.fd)
            super().close()

    monkeypatch.setattr(cache_module.os, "fdopen", lambda fd, mode: FullDisk(fd))
    cache = listing_cache(tmp_path)
    listing = samples.sass_listing()
    with caplog.at_level("WARNING", logger="cass_lsp.core.cache"):
        for i in range(5):
            cache.put(ASM, f"{i:064x}", listing)
    assert [f for f in tmp_path.rglob("*") if f.is_file()] == []
    assert cache.get(ASM, f"{4:064x}") is listing
    assert len([r for r in caplog.records if "not writable" in r.getMessage()]) == 1
