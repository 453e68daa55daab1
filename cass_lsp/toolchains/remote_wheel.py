"""A wheel on PyPI read in place over HTTPS Range requests, for environments without pip.

uv's tool environments (``uv tool install``, and pipx when it uses uv) have no pip, which
:mod:`.rocm71` downloads the triton wheels with. Those wheels are ~190 MB each and setup keeps ~6 MB
of them, so instead of downloading them whole, :func:`open_wheel` finds the wheel in PyPI's simple
index (its JSON form, PEP 691, the API pip uses) and returns a seekable file whose reads are Range requests: :class:`zipfile.ZipFile` reads the
central directory and the chosen members only (each member's CRC-32 is checked as it is read). Used
by setup only, never by the language server.
"""

from __future__ import annotations

import io
import json
import platform
import sys
import time
import urllib.error
import urllib.request
from collections import OrderedDict

PYPI_SIMPLE = "https://pypi.org/simple/{name}/"
_SIMPLE_JSON = "application/vnd.pypi.simple.v1+json"
_BLOCK = 1 << 20  # bytes per Range request: a member's reads come in few requests
_KEPT_BLOCKS = 16  # blocks kept in memory (the central directory and the member being read)
_REQUEST_TIMEOUT_S = 60.0


class RemoteWheelError(RuntimeError):
    """PyPI could not be asked, has no matching wheel, or its file server ignored a Range request."""


class RemoteFile(io.RawIOBase):
    """A read-only, seekable view of ``url`` (``size`` bytes), fetched in blocks by Range requests."""

    def __init__(self, url: str, size: int, deadline: float) -> None:
        super().__init__()
        self.url = url
        self.size = size
        self.deadline = deadline
        self.fetched = 0  # bytes downloaded, for the log
        self._pos = 0
        self._blocks: OrderedDict[int, bytes] = OrderedDict()

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return True

    def tell(self) -> int:
        return self._pos

    def seek(self, offset: int, whence: int = io.SEEK_SET) -> int:
        base = {io.SEEK_SET: 0, io.SEEK_CUR: self._pos, io.SEEK_END: self.size}[whence]
        self._pos = max(0, base + offset)
        return self._pos

    def readinto(self, buffer: bytearray | memoryview) -> int:  # type: ignore[override]
        view = memoryview(buffer).cast("B")
        count = 0
        while count < len(view) and self._pos < self.size:
            block = self._block(self._pos // _BLOCK)
            start = self._pos % _BLOCK
            piece = block[start : start + len(view) - count]
            view[count : count + len(piece)] = piece
            count += len(piece)
            self._pos += len(piece)
        return count

    def _block(self, index: int) -> bytes:
        if index in self._blocks:
            self._blocks.move_to_end(index)
            return self._blocks[index]
        if time.monotonic() > self.deadline:
            raise RemoteWheelError(f"reading {self.url} took too long")
        start = index * _BLOCK
        end = min(start + _BLOCK, self.size) - 1
        request = urllib.request.Request(self.url, headers={"Range": f"bytes={start}-{end}"})
        try:
            with urllib.request.urlopen(request, timeout=_REQUEST_TIMEOUT_S) as response:
                if response.status != 206:
                    raise RemoteWheelError(f"{self.url} answered a Range request with HTTP {response.status}")
                data = response.read()
        except (urllib.error.URLError, OSError) as error:
            raise RemoteWheelError(f"reading {self.url}: {error}") from error
        if len(data) != end - start + 1:
            raise RemoteWheelError(f"{self.url}: {len(data)} bytes for a {end - start + 1}-byte range")
        self.fetched += len(data)
        self._blocks[index] = data
        if len(self._blocks) > _KEPT_BLOCKS:
            self._blocks.popitem(last=False)
        return data


def _score(filename: str) -> int | None:
    """How well a wheel file fits this machine: None if not at all, higher is better."""
    if not filename.endswith(".whl") or "manylinux" not in filename or platform.machine() not in filename:
        return None
    ours = f"-cp{sys.version_info.major}{sys.version_info.minor}-"
    return 1 if ours in filename else 0  # the headers are the same in every Python's wheel


def open_wheel(name: str, version: str, timeout: float) -> RemoteFile:
    """``name==version``'s Linux wheel for this machine on PyPI, to read with :class:`zipfile.ZipFile`."""
    deadline = time.monotonic() + timeout
    url = PYPI_SIMPLE.format(name=name)
    request = urllib.request.Request(url, headers={"Accept": _SIMPLE_JSON})
    try:
        with urllib.request.urlopen(request, timeout=_REQUEST_TIMEOUT_S) as response:
            files = json.load(response)["files"]
    except (urllib.error.URLError, OSError, ValueError, KeyError) as error:
        raise RemoteWheelError(f"asking PyPI for {name}=={version} ({url}): {error}") from error
    # A wheel's file name spells the project's dashes as underscores (nvidia_cublas-13.10.0.20-...).
    prefixes = (f"{name}-{version}-", f"{name.replace('-', '_')}-{version}-")
    releases = [f for f in files if f.get("filename", "").startswith(prefixes) and not f.get("yanked") and f.get("size")]
    scored = [(score, entry) for entry in releases if (score := _score(entry["filename"])) is not None]
    if not scored:
        raise RemoteWheelError(f"PyPI has no manylinux {platform.machine()} wheel of {name}=={version}")
    _, best = max(scored, key=lambda pair: pair[0])
    return RemoteFile(best["url"], int(best["size"]), deadline)
