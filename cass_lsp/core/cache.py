"""The one result cache of the job layer: a memory LRU over an on-disk msgpack store, both bounded.

Records live in namespaces (``asm`` for listings, ``translate`` for rule translations, ...). A
namespace registered with a msgspec record type also persists to disk, under
``<cache dir>/<namespace>/<key[:2]>/<key>.msgpack``, and survives restarts; the others stay in
memory. Keys are content hashes of everything a result depends on, so a record never goes stale: it
is either found or not.

Bounds: memory holds at most ``memory_bytes`` (a record's size is its encoded msgpack size, or the
caller's estimate); the disk store at most ``max_bytes`` over all namespaces: past it, the least
recently used records go until it is back under 80%. Reading a disk record touches its mtime. The
store's size is counted as records are written, so a write scans the folder only when the count
says the bound is crossed (and the first time, to learn what earlier runs left); records another
process adds are found at that scan.
A record that cannot be decoded (an older schema, a torn write, garbage) is dropped, never raised;
a cache folder that cannot be written only costs the disk layer.
"""

from __future__ import annotations

import contextlib
import logging
import os
import tempfile
import threading
from collections import OrderedDict
from pathlib import Path
from typing import Any

import msgspec

log = logging.getLogger(__name__)

_SUFFIX = ".msgpack"
_ENCODER = msgspec.msgpack.Encoder()
DEFAULT_MAX_BYTES = 256 * 1024 * 1024
DEFAULT_MEMORY_BYTES = 32 * 1024 * 1024
"""Encoded bytes. As Python objects a record takes ~1.7x that (a 300-line file's translation: 17 kB
encoded, 29 kB in memory), so the memory layer holds ~55 MB: the current results of every open
document many times over."""


def default_dir() -> Path:
    from cass_lsp.core.dirs import cache_root  # the toolchains package is heavy to import

    return cache_root() / "results"


class ResultCache:
    def __init__(
        self,
        directory: Path | None = None,
        max_bytes: int = DEFAULT_MAX_BYTES,
        memory_bytes: int = DEFAULT_MEMORY_BYTES,
    ) -> None:
        self.directory = directory or default_dir()
        self.max_bytes = max_bytes
        self.memory_bytes = memory_bytes
        self._decoders: dict[str, msgspec.msgpack.Decoder[Any]] = {}
        self._memory: OrderedDict[tuple[str, str], tuple[Any, int]] = OrderedDict()
        self._memory_used = 0
        self._lock = threading.Lock()
        self._disk_warned = False
        self._disk_used: int | None = None  # bytes on disk as of the last scan plus writes since

    def register(self, namespace: str, record_type: Any) -> None:
        """Records of ``namespace`` are instances of ``record_type`` and persist on disk (idempotent)."""
        if namespace not in self._decoders:
            self._decoders[namespace] = msgspec.msgpack.Decoder(record_type)

    def resize(self, max_bytes: int) -> None:
        """A new disk bound (from settings); evicts at once when the store is over it."""
        self.max_bytes = max_bytes
        self.evict()

    def _path(self, namespace: str, key: str) -> Path:
        return self.directory / namespace / key[:2] / f"{key}{_SUFFIX}"

    # ------------------------------------------------------------------ reading
    def peek(self, namespace: str, key: str) -> Any | None:
        """The record if it is in memory; never touches the disk (safe on the event loop)."""
        with self._lock:
            hit = self._memory.get((namespace, key))
            if hit is None:
                return None
            self._memory.move_to_end((namespace, key))
            return hit[0]

    def get(self, namespace: str, key: str) -> Any | None:
        """The record from memory or disk, or None."""
        hit = self.peek(namespace, key)
        if hit is not None or namespace not in self._decoders:
            return hit
        path = self._path(namespace, key)
        try:
            data = path.read_bytes()
        except OSError:
            return None
        try:
            record = self._decoders[namespace].decode(data)
        except (msgspec.DecodeError, msgspec.ValidationError):
            log.info("dropping an unreadable cache record %s", path)
            with contextlib.suppress(OSError):
                path.unlink()
            return None
        with contextlib.suppress(OSError):
            os.utime(path)
        self._remember(namespace, key, record, len(data))
        return record

    # ------------------------------------------------------------------ writing
    def put(self, namespace: str, key: str, record: Any, size: int | None = None) -> None:
        """Keep ``record`` (a msgspec-encodable value); ``size`` overrides its encoded size as the
        estimate of its memory. Encoding a large record takes a while: call from a worker thread."""
        if namespace in self._decoders:
            data = _ENCODER.encode(record)
            self._write(self._path(namespace, key), data)
            size = len(data) if size is None else size
        elif size is None:
            size = len(_ENCODER.encode(record))
        self._remember(namespace, key, record, size)

    def _write(self, path: Path, data: bytes) -> None:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(prefix=".tmp-", dir=path.parent)
        except OSError as error:
            self._warn_disk(error)
            return
        try:
            with os.fdopen(fd, "wb") as out:
                out.write(data)
            try:
                replaced = path.stat().st_size
            except OSError:
                replaced = 0
            os.replace(tmp, path)
        except OSError as error:
            Path(tmp).unlink(missing_ok=True)
            self._warn_disk(error)
            return
        with self._lock:
            if self._disk_used is not None:
                self._disk_used += len(data) - replaced
            counted = self._disk_used
        if counted is None or counted > self.max_bytes:
            self.evict()

    def _warn_disk(self, error: OSError) -> None:
        # a full or read-only cache folder costs the disk layer only; say so once
        if not self._disk_warned:
            self._disk_warned = True
            log.warning("result cache %s is not writable (%s); keeping results in memory only", self.directory, error)

    def _remember(self, namespace: str, key: str, record: Any, size: int) -> None:
        with self._lock:
            old = self._memory.pop((namespace, key), None)
            if old is not None:
                self._memory_used -= old[1]
            self._memory[(namespace, key)] = (record, size)
            self._memory_used += size
            while self._memory_used > self.memory_bytes and len(self._memory) > 1:
                _, (_, dropped) = self._memory.popitem(last=False)
                self._memory_used -= dropped

    def evict(self) -> int:
        """Drop least recently used disk records while the store exceeds ``max_bytes``; returns how many."""
        records: list[tuple[int, int, Path]] = []
        total = 0
        for namespace in _scandir(self.directory):
            for shard in _scandir(Path(namespace.path)):
                for entry in _scandir(Path(shard.path)):
                    if not entry.name.endswith(_SUFFIX):
                        continue
                    try:
                        st = entry.stat()
                    except OSError:
                        continue
                    records.append((st.st_mtime_ns, st.st_size, Path(entry.path)))
                    total += st.st_size
        if total <= self.max_bytes:
            with self._lock:
                self._disk_used = total
            return 0
        removed = 0
        for _, size, path in sorted(records):
            if total <= self.max_bytes * 0.8:
                break
            with contextlib.suppress(OSError):
                path.unlink()
            total -= size
            removed += 1
            with self._lock:
                memory_key = (path.parent.parent.name, path.name.removesuffix(_SUFFIX))
                dropped = self._memory.pop(memory_key, None)
                if dropped is not None:
                    self._memory_used -= dropped[1]
        with self._lock:
            self._disk_used = total
        return removed

    def clear_memory(self) -> None:
        with self._lock:
            self._memory.clear()
            self._memory_used = 0


def _scandir(path: Path) -> list[os.DirEntry[str]]:
    try:
        with os.scandir(path) as it:
            return [e for e in it if not e.name.startswith(".")]
    except OSError:
        return []
