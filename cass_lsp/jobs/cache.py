"""Content-addressed listing cache: msgpack records in the user cache dir, bounded in size.

Keys are hashes of everything a listing depends on (source and local headers, flags, target,
toolchain versions), so a record never goes stale: it is either found or not. Reading a record
touches its mtime; when the folder grows past ``max_bytes`` the least recently used records go
until it is back under 80% of it. A small in-memory layer serves repeated hovers without I/O.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
import threading
from collections import OrderedDict
from pathlib import Path

import msgspec

from cass_lsp.asm.listing import CompileFailure, Listing
from cass_lsp.toolchains.dirs import cache_root

Record = Listing | CompileFailure
_SUFFIX = ".msgpack"
_MEMORY_ENTRIES = 64
_ENCODER = msgspec.msgpack.Encoder()
_DECODER = msgspec.msgpack.Decoder(Record)


def default_dir() -> Path:
    return cache_root() / "asm"


class ListingCache:
    def __init__(self, directory: Path | None = None, max_bytes: int = 256 * 1024 * 1024) -> None:
        self.directory = directory or default_dir()
        self.max_bytes = max_bytes
        self._memory: OrderedDict[str, Record] = OrderedDict()
        self._lock = threading.Lock()

    def _path(self, key: str) -> Path:
        return self.directory / key[:2] / f"{key}{_SUFFIX}"

    def get(self, key: str) -> Record | None:
        with self._lock:
            hit = self._memory.get(key)
            if hit is not None:
                self._memory.move_to_end(key)
                return hit
        path = self._path(key)
        try:
            data = path.read_bytes()
        except OSError:
            return None
        try:
            record = _DECODER.decode(data)
        except (msgspec.DecodeError, msgspec.ValidationError):
            # a record from an older schema or a torn disk: treat as absent
            path.unlink(missing_ok=True)
            return None
        with contextlib.suppress(OSError):
            os.utime(path)
        self._remember(key, record)
        return record

    def put(self, key: str, record: Record) -> None:
        path = self._path(key)
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".tmp-", dir=path.parent)
        try:
            with os.fdopen(fd, "wb") as out:
                out.write(_ENCODER.encode(record))
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
        self._remember(key, record)
        self.evict()

    def _remember(self, key: str, record: Record) -> None:
        with self._lock:
            self._memory[key] = record
            self._memory.move_to_end(key)
            while len(self._memory) > _MEMORY_ENTRIES:
                self._memory.popitem(last=False)

    def evict(self) -> int:
        """Drop least recently used records while the folder exceeds ``max_bytes``; returns how many."""
        records = []
        total = 0
        for sub in _scandir(self.directory):
            for entry in _scandir(Path(sub.path)):
                if entry.name.endswith(_SUFFIX):
                    try:
                        st = entry.stat()
                    except OSError:
                        continue
                    records.append((st.st_mtime_ns, st.st_size, Path(entry.path)))
                    total += st.st_size
        if total <= self.max_bytes:
            return 0
        removed = 0
        for _, size, path in sorted(records):
            if total <= self.max_bytes * 0.8:
                break
            path.unlink(missing_ok=True)
            total -= size
            removed += 1
            with self._lock:
                self._memory.pop(path.name.removesuffix(_SUFFIX), None)
        return removed

    def clear_memory(self) -> None:
        with self._lock:
            self._memory.clear()


def _scandir(path: Path) -> list[os.DirEntry[str]]:
    try:
        with os.scandir(path) as it:
            return [e for e in it if not e.name.startswith(".")]
    except OSError:
        return []
