"""ROCm 7.1 HIP headers (and LLVM-19 device bitcode) taken from PyPI's ``triton`` wheels.

Debian 12 ships ROCm 5.2 only. triton 3.6.0 carries HIP 7.1 headers (a subset) and ocml/ockl built
with LLVM 19 (clang-19 reads them; triton >= 3.7 is LLVM 20); triton 3.5.1 carries the full HIP 6.2
header set, used second on the include path. :func:`fetch` downloads both wheels with ``pip download
--no-deps`` (where cass-lsp's environment has no pip, :mod:`.remote_wheel` reads them on PyPI in
place) and keeps only those files (~6 MB). It runs from setup (``cass-lsp setup --only rocm71``),
never from the language server, which stays offline.
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
from cass_lsp.toolchains import amd, devlibs, remote_wheel
from cass_lsp.toolchains.errors import ToolchainMissing

TRITON_HIP71 = "3.6.0"
TRITON_HIP62 = "3.5.1"
SETUP_HINT = "cass-lsp setup --only rocm71"
_AMD_DIR = "triton/backends/amd/"
_TRITON_BITCODE = ("ocml.bc", "ockl.bc", "asanrtl.bc")
# Debian's small control libraries; clang-19 also insists on opencl.bc and hip.bc being present.
_DEBIAN_BITCODE = ("oclc_*.bc", "opencl.bc", "hip.bc")
_DOWNLOAD_TIMEOUT_S = 1800.0
_REMOTE_BUFFER = 1 << 16


def root() -> Path:
    return cache_root() / "rocm71"


def _expected() -> dict[str, object]:
    return {"triton": [TRITON_HIP71, TRITON_HIP62], "archs": list(devlibs.GENERATED_ARCHS)}


def installed() -> bool:
    return devlibs.is_ready(root(), _expected())


def hip_version() -> str | None:
    return amd.hip_version_of(root() / "hip71" / "include") if installed() else None


def hip71_flags(arch: str) -> list[str] | None:
    """clang++-19 flags for HIP 7.1 on ``arch``, or None when the headers were not fetched."""
    if not installed():
        return None
    base = root()
    devlibs.require_arch(base / "devlibs", arch, SETUP_HINT)
    return [
        "-x",
        "hip",
        # -nogpuinc keeps Debian's 5.2 headers out, so the wrapper is included by hand.
        "-nogpuinc",
        "-isystem",
        str(base / "hip71" / "include"),
        "-isystem",
        str(base / "hip62" / "include"),
        "-include",
        "__clang_hip_runtime_wrapper.h",
        f"--rocm-device-lib-path={base / 'devlibs'}",
        # clang picks oclc_abi_version_400 otherwise; the 7.1 ockl needs 500.
        "-mcode-object-version=5",
        f"--offload-arch={arch}",
    ]


def _download(version: str, into: Path, pip: Sequence[str]) -> Path:
    result = proc.run(
        [*pip, "download", "--no-deps", "--quiet", "--dest", str(into), f"triton=={version}"],
        timeout=_DOWNLOAD_TIMEOUT_S,
    )
    wheels = sorted(into.glob(f"triton-{version}-*.whl"))
    if not result.ok or not wheels:
        raise ToolchainMissing(f"triton=={version} wheel (pip download failed: {result.text()[-800:]})", SETUP_HINT)
    return wheels[0]


def _remote(version: str) -> IO[bytes]:
    try:
        return io.BufferedReader(remote_wheel.open_wheel("triton", version, _DOWNLOAD_TIMEOUT_S), _REMOTE_BUFFER)
    except remote_wheel.RemoteWheelError as error:
        raise ToolchainMissing(f"triton=={version} wheel ({error})", SETUP_HINT) from error


def _extract(wheel: Path | IO[bytes], prefix: str, names: Sequence[str] | None, into: Path) -> int:
    """Copy members under ``triton/backends/amd/<prefix>`` (only ``names`` if given) into ``into``."""
    count = 0
    try:
        with zipfile.ZipFile(wheel) as archive:
            for member in archive.infolist():
                if member.is_dir() or not member.filename.startswith(_AMD_DIR + prefix):
                    continue
                relative = member.filename[len(_AMD_DIR + prefix) :]
                if names is not None and relative not in names:
                    continue
                target = into / relative
                if ".." in Path(relative).parts:
                    continue
                target.parent.mkdir(parents=True, exist_ok=True)
                with archive.open(member) as src, target.open("wb") as dst:
                    shutil.copyfileobj(src, dst)
                count += 1
    except remote_wheel.RemoteWheelError as error:
        raise ToolchainMissing(f"the triton wheel's files ({error})", SETUP_HINT) from error
    return count


def fetch(*, pip: Sequence[str] | None = None, log: devlibs.Log | None = None) -> Path:
    """Download, extract and assemble everything :func:`hip71_flags` needs; a no-op when present."""
    final = root()
    expected = _expected()
    if devlibs.is_ready(final, expected):
        if log:
            log(f"ROCm 7.1 headers: already in {final}")
        return final
    toolchain = amd.require()
    _, debian_bitcode = amd.require_hip()
    # uv's tool environments (and pipx's, when pipx uses uv) have no pip: read the wheels on PyPI in place
    pip_argv = list(pip) if pip else ([sys.executable, "-m", "pip"] if importlib.util.find_spec("pip") else None)
    staging = devlibs.staging_dir(final)
    try:
        with tempfile.TemporaryDirectory(prefix="triton-", dir=final.parent) as tmp:
            if pip_argv is not None:
                wheel71: Path | IO[bytes] = _download(TRITON_HIP71, Path(tmp), pip_argv)
                wheel62: Path | IO[bytes] = _download(TRITON_HIP62, Path(tmp), pip_argv)
            else:
                if log:
                    log("no pip in this environment: reading the triton wheels on PyPI in place (HTTPS Range requests)")
                wheel71, wheel62 = _remote(TRITON_HIP71), _remote(TRITON_HIP62)
            _extract(wheel71, "include/", None, staging / "hip71" / "include")
            _extract(wheel62, "include/", None, staging / "hip62" / "include")
            out = staging / "devlibs"
            if _extract(wheel71, "lib/", _TRITON_BITCODE, out) != len(_TRITON_BITCODE):
                raise ToolchainMissing(f"ocml/ockl bitcode in triton {TRITON_HIP71}", SETUP_HINT)
        for pattern in _DEBIAN_BITCODE:
            for source in sorted(debian_bitcode.glob(pattern)):
                (out / source.name).symlink_to(source)
        layout = devlibs.datalayout(toolchain.clang)
        for arch in devlibs.GENERATED_ARCHS:
            target = devlibs.isa_file(out, arch)
            if not target.exists():
                devlibs.assemble(toolchain.llvm_as, layout, [devlibs.isa_global(devlibs.isa_version(arch))], target)
        # The newer ockl reads __oclc_wavefrontsize_log2, which Debian's 5.2 files lack.
        for state, wave64, log2 in (("on", 1, 6), ("off", 0, 5)):
            target = out / f"oclc_wavefrontsize64_{state}.bc"
            target.unlink(missing_ok=True)
            devlibs.assemble(
                toolchain.llvm_as,
                layout,
                [
                    devlibs.constant_global("__oclc_wavefrontsize64", "i8", wave64, 1),
                    devlibs.constant_global("__oclc_wavefrontsize_log2", "i32", log2, 4),
                ],
                target,
            )
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    devlibs.publish(staging, final, expected)
    if log:
        version = amd.hip_version_of(final / "hip71" / "include")
        log(f"ROCm 7.1 headers: HIP {version} from triton {TRITON_HIP71} (+ HIP 6.2 from {TRITON_HIP62}) in {final}")
    return final
