"""Headers of the CUDA math libraries (cuBLAS, cuSPARSE, cuFFT, cuRAND) from their PyPI wheels.

The nvcc wheels ship only the toolkit core (runtime, CCCL); the library headers sit inside the
library wheels next to hundreds of MB of shared objects. Each wheel is downloaded with pip, only
its ``nvidia/cu13/include/`` members are kept, and the wheel is deleted at once, so the cache holds
about 3 MB and the disk never holds more than one wheel (the largest, cuBLAS, is 444 MB).

Run ``python -m tests.corpus.cuda_lib_headers`` from the repository root to fill the cache in a
setup step (it prints one ``library<TAB>include dir`` line per library).
"""

from __future__ import annotations

import shutil
import sys
import tempfile
import zipfile
from pathlib import Path

from cass_lsp.core import proc
from cass_lsp.core.dirs import cache_root as cass_cache_root

# CUDA 13 builds of the libraries (their headers live under nvidia/cu13/, matching the nvcc wheel).
LIBRARY_WHEELS: dict[str, str] = {
    "cublas": "nvidia-cublas==13.10.0.20",
    "cusparse": "nvidia-cusparse==12.9.4.2",
    "cufft": "nvidia-cufft==12.5.0.14",
    "curand": "nvidia-curand==10.4.5.25",
}
# One header per library that proves its extraction finished.
_KEY_HEADER: dict[str, str] = {
    "cublas": "cublas_v2.h",
    "cusparse": "cusparse.h",
    "cufft": "cufft.h",
    "curand": "curand_kernel.h",
}
_INCLUDE_PREFIX = "nvidia/cu13/include/"
_DOWNLOAD_TIMEOUT_S = 900.0


class HeaderFetchError(RuntimeError):
    """A library's headers could not be fetched; the message says which wheel and why."""


def cache_root() -> Path:
    """Beside the toolchains' generated files (platformdirs' cache dir, or $CASS_LSP_CACHE_DIR)."""
    return cass_cache_root() / "cuda-lib-headers"


def include_dir(library: str, root: Path | None = None) -> Path:
    """Where ``library``'s headers live once fetched (whether or not they are there yet)."""
    requirement = LIBRARY_WHEELS[library]
    version = requirement.split("==", 1)[1]
    return (root or cache_root()) / f"{library}-{version}" / "include"


def is_present(library: str, root: Path | None = None) -> bool:
    return (include_dir(library, root) / _KEY_HEADER[library]).is_file()


def _pip_download(requirement: str, dest: Path) -> Path:
    argv = [
        sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--no-cache-dir",
        "--only-binary=:all:", "--dest", str(dest), requirement,
    ]
    result = proc.run(argv, timeout=_DOWNLOAD_TIMEOUT_S)
    wheels = sorted(dest.glob("*.whl"))
    if not result.ok or len(wheels) != 1:
        why = "timed out" if result.timed_out else f"exit {result.returncode}"
        raise HeaderFetchError(f"pip download {requirement} failed ({why}):\n{result.text()[-2000:]}")
    return wheels[0]


def _extract_headers(wheel: Path, target: Path) -> None:
    with zipfile.ZipFile(wheel) as archive:
        for member in archive.infolist():
            if member.is_dir() or not member.filename.startswith(_INCLUDE_PREFIX):
                continue
            relative = Path(member.filename[len(_INCLUDE_PREFIX):])
            if relative.is_absolute() or ".." in relative.parts:
                raise HeaderFetchError(f"{wheel.name}: unsafe member path {member.filename!r}")
            out = target / relative
            out.parent.mkdir(parents=True, exist_ok=True)
            with archive.open(member) as src, out.open("wb") as dst:
                shutil.copyfileobj(src, dst)


def ensure_library_headers(library: str, root: Path | None = None) -> Path:
    """The include dir of ``library``, fetching it first if needed. Idempotent and safe to race:
    the headers are assembled in a private folder and moved into place in one rename."""
    final = include_dir(library, root)
    if is_present(library, root):
        return final
    base = final.parent.parent
    base.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix=f".{library}-", dir=base) as work_name:
        work = Path(work_name)
        wheel = _pip_download(LIBRARY_WHEELS[library], work / "wheel")
        staged = work / "pkg" / "include"
        _extract_headers(wheel, staged)
        wheel.unlink()
        if not (staged / _KEY_HEADER[library]).is_file():
            raise HeaderFetchError(f"{wheel.name} has no {_INCLUDE_PREFIX}{_KEY_HEADER[library]}")
        try:
            (work / "pkg").rename(final.parent)
        except OSError:
            # Another process won the race; its copy is as good as ours.
            if not is_present(library, root):
                raise
    return final


def ensure_all(root: Path | None = None) -> dict[str, Path]:
    return {library: ensure_library_headers(library, root) for library in LIBRARY_WHEELS}


def main() -> int:
    try:
        dirs = ensure_all()
    except HeaderFetchError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    for library, path in dirs.items():
        print(f"{library}\t{path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
