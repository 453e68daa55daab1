"""Headers of the CUDA libraries (cuBLAS, cuSPARSE, cuFFT, cuRAND, cuSOLVER, NVRTC) from their PyPI
wheels, for nvcc's compiles of listings and verification.

The nvcc wheels of ``cass-lsp[nvidia]`` carry only the toolkit core (runtime, CRT, CCCL): a program
that includes ``cublas_v2.h`` or ``curand_kernel.h`` does not compile with them. The library wheels
carry those headers next to ~1.2 GB of shared objects that no compile reads (cass-lsp's nvcc compiles
stop at PTX or objects; only the ``nvidia`` runner links). :func:`fetch` keeps only each wheel's
``nvidia/cu13/include/`` members (~3.5 MB): it reads them in place on PyPI with HTTPS Range requests
(:mod:`.remote_wheel`: about 10 MB downloaded of 1.2 GB of wheels), and where PyPI cannot be read directly (a mirror or an
index that only pip is configured for) it downloads each wheel with ``pip download`` and deletes it
at once, so the disk never holds more than one. The headers of all libraries land in one folder,
published atomically. It runs from setup (``cass-lsp setup --only cuda-libs``), never from the
language server, which stays offline. The whole wheels, for linking, are the optional extra
``cass-lsp[nvidia-libraries]``.
"""

from __future__ import annotations

import importlib.util
import io
import shutil
import sys
import tempfile
import zipfile
from collections.abc import Sequence
from pathlib import Path
from typing import IO

from cass_lsp.core import proc
from cass_lsp.core.dirs import cache_root
from cass_lsp.toolchains import devlibs, remote_wheel
from cass_lsp.toolchains.errors import ToolchainMissing

SETUP_HINT = "cass-lsp setup --only cuda-libs"
WHEELS: dict[str, tuple[str, str, str]] = {
    "cublas": ("nvidia-cublas", "13.10.0.20", "cublas_v2.h"),
    "cusparse": ("nvidia-cusparse", "12.9.4.2", "cusparse.h"),
    "cufft": ("nvidia-cufft", "12.5.0.14", "cufft.h"),
    "curand": ("nvidia-curand", "10.4.5.25", "curand_kernel.h"),
    "cusolver": ("nvidia-cusolver", "12.4.1.2", "cusolverDn.h"),
    "nvrtc": ("nvidia-cuda-nvrtc", "13.5.37", "nvrtc.h"),
}
"""Each library: its CUDA 13 wheel (headers under ``nvidia/cu13/``, the nvcc wheels' major), its
version, and one header that proves it is there."""

_INCLUDE_PREFIX = "nvidia/cu13/include/"
_DOWNLOAD_TIMEOUT_S = 900.0
_REMOTE_BUFFER = 1 << 16


def root() -> Path:
    return cache_root() / "cuda-libs"


def _expected() -> dict[str, object]:
    return {"wheels": {library: f"{name}=={version}" for library, (name, version, _) in WHEELS.items()}}


def installed() -> bool:
    return devlibs.is_ready(root(), _expected())


def include_dir() -> Path | None:
    """The ``-isystem`` folder of every library's headers, or None before :func:`fetch`. It holds
    only library headers, never the toolkit's own (``cuda_runtime.h`` stays nvcc's)."""
    return root() / "include" if installed() else None


def version() -> str | None:
    """``cublas 13.10.0.20, cufft 12.5.0.14, ...`` (for doctor and compile cache keys)."""
    if not installed():
        return None
    return ", ".join(f"{library} {wheel_version}" for library, (_, wheel_version, _) in sorted(WHEELS.items()))


def _download(name: str, wheel_version: str, into: Path, pip: Sequence[str]) -> Path:
    argv = [*pip, "download", "--quiet", "--no-deps", "--no-cache-dir", "--only-binary=:all:",
            "--dest", str(into), f"{name}=={wheel_version}"]
    result = proc.run(argv, timeout=_DOWNLOAD_TIMEOUT_S)
    wheels = sorted(into.glob("*.whl"))
    if not result.ok or len(wheels) != 1:
        why = "timed out" if result.timed_out else f"exit {result.returncode}"
        raise ToolchainMissing(f"{name}=={wheel_version} wheel (pip download {why}: {result.text()[-800:]})", SETUP_HINT)
    return wheels[0]


def _extract(wheel: Path | IO[bytes], label: str, into: Path) -> None:
    """Copy the wheel's ``nvidia/cu13/include/`` members into ``into``; a file another library's
    wheel already put there must be the same bytes (one folder serves every library). Raises
    zipfile.BadZipFile, or RemoteWheelError while reading a wheel on PyPI."""
    with zipfile.ZipFile(wheel) as archive:
        for member in archive.infolist():
            if member.is_dir() or not member.filename.startswith(_INCLUDE_PREFIX):
                continue
            relative = Path(member.filename[len(_INCLUDE_PREFIX):])
            if relative.is_absolute() or ".." in relative.parts:
                raise ToolchainMissing(f"a safe {label} wheel (member {member.filename!r})", SETUP_HINT)
            target = into / relative
            data = archive.read(member)
            if target.exists() and target.read_bytes() != data:
                raise ToolchainMissing(f"one {relative} for every CUDA library ({label} ships another)", SETUP_HINT)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)


def _remote(name: str, wheel_version: str) -> IO[bytes]:
    return io.BufferedReader(remote_wheel.open_wheel(name, wheel_version, _DOWNLOAD_TIMEOUT_S), _REMOTE_BUFFER)


def _fetch_one(name: str, wheel_version: str, work: Path, include: Path, pip: Sequence[str] | None,
               log: devlibs.Log | None) -> None:
    label = f"{name}=={wheel_version}"
    try:
        _extract(_remote(name, wheel_version), label, include)
        return
    except (remote_wheel.RemoteWheelError, zipfile.BadZipFile) as error:
        if pip is None:
            raise ToolchainMissing(f"the {label} wheel ({error})", SETUP_HINT) from error
        if log:
            log(f"{label}: PyPI not readable in place ({error}); downloading the wheel with pip")
    folder = work / name
    folder.mkdir()
    wheel = _download(name, wheel_version, folder, pip)
    try:
        _extract(wheel, label, include)
    except zipfile.BadZipFile as error:
        raise ToolchainMissing(f"a readable {wheel.name} ({error})", SETUP_HINT) from error
    wheel.unlink()


def fetch(*, pip: Sequence[str] | None = None, log: devlibs.Log | None = None) -> Path:
    """Fetch every library's headers into :func:`root`; a no-op when they are already there."""
    final = root()
    expected = _expected()
    if devlibs.is_ready(final, expected):
        if log:
            log(f"CUDA library headers: already in {final}")
        return final
    pip_argv = list(pip) if pip else ([sys.executable, "-m", "pip"] if importlib.util.find_spec("pip") else None)
    staging = devlibs.staging_dir(final)
    try:
        include = staging / "include"
        include.mkdir()
        with tempfile.TemporaryDirectory(prefix="cuda-libs-", dir=final.parent) as tmp:
            for library, (name, wheel_version, key_header) in WHEELS.items():
                _fetch_one(name, wheel_version, Path(tmp), include, pip_argv, log)
                if not (include / key_header).is_file():
                    raise ToolchainMissing(f"{_INCLUDE_PREFIX}{key_header} in {name}=={wheel_version}", SETUP_HINT)
                if log:
                    log(f"{library}: headers of {name} {wheel_version}")
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    devlibs.publish(staging, final, expected)
    if log:
        log(f"CUDA library headers: {version()} in {final}")
    return final
