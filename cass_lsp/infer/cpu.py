"""Whether llama.cpp's extra buffer types (weight repacking) are used on this CPU.

llama.cpp repacks a model's weights at load time into layouts for the CPU's own kernels: its
CPU_REPACK buffer type (AVX2/AVX-512 gemm layouts) and, on a CPU with AMX (a current Xeon), its
AMX buffer type. The AMX path has crashed llama.cpp (SIGSEGV in the first multi-token decode of a
Q4_1 model), which is why ``cass.model.extraBufferTypes`` exists: ``on`` and ``off`` say it;
``auto`` turns them on, except on a CPU that reports AMX: there the worker first loads the model
with them on and decodes a multi-token batch (a probe), and the answer, whether that worker
survived, is kept per CPU model, llama-cpp-python version and model quantization, so each
combination is probed once (the cache is a JSON file under the user cache folder).
"""

from __future__ import annotations

import contextlib
import functools
import json
import logging
import os
import tempfile
from importlib import metadata
from pathlib import Path
from typing import Literal

import msgspec

from cass_lsp.core.dirs import cache_root

log = logging.getLogger(__name__)

ExtraBufferTypes = Literal["auto", "on", "off"]


class CpuInfo(msgspec.Struct, frozen=True):
    model: str
    """The CPU's model name ("Intel(R) Xeon(R) Platinum 8480+")."""
    flags: frozenset[str]

    @property
    def has_amx(self) -> bool:
        return any(flag.startswith("amx") for flag in self.flags)


class Choice(msgspec.Struct, frozen=True):
    on: bool
    """Load the model with the extra buffer types."""
    probe: bool
    """First decode a multi-token batch in the new worker; its surviving decides for this CPU."""
    reason: str


@functools.cache
def this_cpu() -> CpuInfo:
    """The first processor of /proc/cpuinfo (its model name and flags); empty where there is none."""
    model, flags = "", frozenset[str]()
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text(errors="replace").splitlines():
            key, _, value = line.partition(":")
            key = key.strip()
            if key == "model name" and not model:
                model = value.strip()
            elif key == "flags" and not flags:
                flags = frozenset(value.split())
            if model and flags:
                break
    return CpuInfo(model or "unknown CPU", flags)


def probe_key(cpu: CpuInfo, quantization: str | None) -> str:
    """What a probe's answer holds for: repacking is chosen per tensor type, and a new llama.cpp may
    fix (or break) the AMX path."""
    try:
        version = metadata.version("llama-cpp-python")
    except metadata.PackageNotFoundError:
        version = "not installed"
    return f"{cpu.model} | llama-cpp-python {version} | {quantization or 'unknown quantization'}"


def choose(setting: ExtraBufferTypes, cpu: CpuInfo, probed: bool | None) -> Choice:
    """The decision for a new worker; ``probed``: a probe's answer kept for this CPU and model type."""
    if setting != "auto":
        return Choice(setting == "on", False, f"cass.model.extraBufferTypes is {setting!r}")
    if not cpu.has_amx:
        return Choice(True, False, "auto: no AMX on this CPU")
    if probed is None:
        return Choice(True, True, "auto: AMX on this CPU, probing whether llama.cpp's AMX path works")
    if probed:
        return Choice(True, False, "auto: AMX on this CPU, and the probe passed")
    return Choice(False, False, "auto: AMX on this CPU, and the probe crashed llama.cpp")


def _cache_file() -> Path:
    return cache_root() / "model" / "extra-buffer-types.json"


def probed(key: str) -> bool | None:
    """The kept answer for ``key``: True (the probe passed), False (it crashed), None (never probed)."""
    answers = _read()
    value = answers.get(key)
    return value if isinstance(value, bool) else None


def all_probed() -> dict[str, bool]:
    return {key: value for key, value in _read().items() if isinstance(value, bool)}


def record(key: str, passed: bool) -> None:
    """Keep a probe's answer; a cache that cannot be written only costs a probe next time."""
    answers = {**_read(), key: passed}
    path = _cache_file()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, scratch = tempfile.mkstemp(prefix=".extra-buffer-types-", dir=path.parent)
        with os.fdopen(fd, "w") as out:
            json.dump(answers, out, indent=1, sort_keys=True)
        os.replace(scratch, path)
    except OSError as error:
        log.warning("could not keep the extra buffer type probe's answer in %s: %s", path, error)


def _read() -> dict[str, object]:
    try:
        answers = json.loads(_cache_file().read_text())
    except (OSError, ValueError):
        return {}
    return answers if isinstance(answers, dict) else {}
