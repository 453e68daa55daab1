"""Compiling translations with clang-19 for a target, and telling which HIP libraries it can use.

A target is a ROCm header set (5.2: Debian's; 7.1: the triton wheels') and a GPU (gfx1100 wave32,
gfx942 wave64). HIP *library* headers come from two places: Debian 12's ROCm 5.3 packages
(hipSPARSE, hipRAND, rocRAND, rocPRIM in /usr/include) and the Debian 13 packages setup fetches
(hipBLAS, hipFFT, hipSOLVER, hipCUB, rocThrust, rocPRIM 5.7: :mod:`cass_lsp.toolchains.hiplibs`),
which a profile may leave out (``hiplibs.NOT_IN_PROFILE``). :func:`probe` asks clang itself whether
a library header is there and usable for a target, and :func:`library_rocm` which ROCm it is from.
"""

from __future__ import annotations

import dataclasses
import functools
import re
import tempfile
from pathlib import Path
from typing import Literal

import pytest

from cass_lsp import toolchains
from cass_lsp.core import proc
from cass_lsp.toolchains import hiplibs
from tests.corpus.manifest import WAVE64_ARCH

CLANG_TIMEOUT_S = 300.0
# Where Debian 12 installs its ROCm 5.3 library headers; the fetched ones live in the user cache.
DEBIAN_INCLUDE = "/usr/include/"
DEBIAN_LIBRARY_ROCM = "5.3"

_ERROR = re.compile(r"\berror: ")
_DRIVER_SUMMARY = re.compile(r"^clang\S*: error: (amdgcn-link|linker) command failed")
_FATAL_MISSING = re.compile(r"fatal error: '([^']+)' file not found")
_LOCATION = re.compile(r"^(/[^:]+):\d+:\d+: ")


@dataclasses.dataclass(frozen=True)
class Target:
    rocm: str
    arch: str

    @property
    def id(self) -> str:
        return f"rocm{self.rocm}-{self.arch}"

    @property
    def wave64(self) -> bool:
        return self.arch == WAVE64_ARCH


@functools.cache
def _invocation(arch: str, rocm: str) -> toolchains.Invocation:
    try:
        return toolchains.hip_invocation(arch, rocm)
    except toolchains.ToolchainMissing as exc:
        pytest.fail(str(exc))


def clang(target: Target, *args: str | Path, cwd: Path) -> proc.ProcResult:
    hip = _invocation(target.arch, target.rocm)
    # Unchecked hipError_t results are the originals' style, not translation defects; typo
    # correction would add follow-on errors that hide which name was really missing.
    argv = [*hip.argv, "-Wno-unused-result", "-fno-spell-checking", *args]
    return proc.run(argv, env=hip.env, cwd=cwd, timeout=CLANG_TIMEOUT_S)


def full_compile(target: Target, source: Path, into: Path) -> list[str]:
    """Error lines of a full compile of ``source`` (empty when it compiled).

    Host and device objects are compiled separately: bundling them into one fat object needs
    clang-offload-bundler, which Debian packages apart from clang (clang-tools-19, 44 MB) and which
    checks nothing; a fat ``-c`` measured as long as the two halves (2.8-3.1 s against 3.0-3.2 s). The host side is compiled on the wave32 target only: a wave64 translation differs from
    it in device code alone.
    """
    results = []
    if not target.wave64:
        results.append(clang(target, "--cuda-host-only", "-c", "-o", into / "host.o", source, cwd=into))
    results.append(clang(target, "--cuda-device-only", "--no-gpu-bundle-output", "-O3", "-c",
                         "-o", into / f"device-{target.arch}.o", source, cwd=into))
    return [line for r in results if not r.ok for line in error_lines(r)]


def syntax_check(target: Target, source: Path, into: Path) -> list[str]:
    result = clang(target, "--cuda-host-only", "-fsyntax-only", source, cwd=into)
    return [] if result.ok else error_lines(result)


def error_lines(result: proc.ProcResult) -> list[str]:
    """clang's error lines, without the driver's closing summary; never empty for a failed run."""
    lines = [ln for ln in result.text().splitlines() if _ERROR.search(ln) and not _DRIVER_SUMMARY.match(ln)]
    return lines or [f"(no error line; exit {result.returncode}) {result.text()[-500:]}"]


def missing_header(line: str) -> str | None:
    match = _FATAL_MISSING.search(line)
    return match.group(1) if match else None


def error_file(line: str) -> str | None:
    match = _LOCATION.match(line)
    return match.group(1) if match else None


@dataclasses.dataclass(frozen=True)
class Library:
    header: str
    state: Literal["usable", "missing", "broken"]
    path: str = ""  # where clang found it
    errors: tuple[str, ...] = ()

    @property
    def rocm(self) -> str | None:
        return library_rocm(self.path) if self.path else None

    def older_than(self, target: Target) -> bool:
        """An older ROCm's library headers stand in for the target's (Debian's 5.3 for 7.1, ...)."""
        return self.rocm is not None and _version(self.rocm) < _version(target.rocm)


def library_rocm(path: str) -> str | None:
    """``MAJOR.MINOR`` of the ROCm release a library header at ``path`` (as clang found it) is from."""
    fetched = hiplibs.record()
    base = f"{hiplibs.root()}/"
    if fetched is not None and path.startswith(base):
        # <root>/rocm<profile>/include/<lib>/...: the package installing <lib> gives the version.
        lib = Path(path[len(base):]).parts[2]
        package = next(p for p, libs in hiplibs.PACKAGES.items() if lib in libs)
        return ".".join(fetched.packages[package].split(".")[:2])
    return DEBIAN_LIBRARY_ROCM if path.startswith(DEBIAN_INCLUDE) else None


def _version(text: str) -> tuple[int, ...]:
    return tuple(int(part) for part in text.split("."))


# (rocm, top-level include dir) of libraries found missing: a package installs all its headers or
# none, so their siblings need no probe of their own.
_missing_packages: set[tuple[str, str]] = set()


@functools.cache
def probe(rocm: str, header: str) -> Library:
    """Whether ``#include <header>`` after hip_runtime.h compiles for ROCm ``rocm`` (asked of clang)."""
    package = (rocm, header.split("/", 1)[0])
    if package in _missing_packages:
        return Library(header, "missing")
    target = Target(rocm, "gfx1100")
    with tempfile.TemporaryDirectory(prefix="hip-probe-") as tmp:
        folder = Path(tmp)
        source = folder / "probe.hip"
        source.write_text(f"#include <hip/hip_runtime.h>\n#include <{header}>\n", encoding="utf-8")
        result = clang(target, "--cuda-host-only", "-fsyntax-only", "-MD", "-MF", folder / "probe.d", source,
                       cwd=folder)
        deps = (folder / "probe.d").read_text(encoding="utf-8") if (folder / "probe.d").is_file() else ""
    path = next((p for p in deps.replace("\\\n", " ").split() if p.endswith("/" + header)), "")
    if result.ok:
        return Library(header, "usable", path)
    errors = tuple(error_lines(result))
    if any(missing_header(line) == header for line in errors):
        _missing_packages.add(package)
        return Library(header, "missing")
    return Library(header, "broken", path, errors)


def left_out(rocm: str, header: str) -> str | None:
    """Why the ROCm ``rocm`` profile leaves out the library ``header`` belongs to (None: it does not)."""
    return hiplibs.NOT_IN_PROFILE.get(rocm, {}).get(header.split("/", 1)[0])
