"""The LLVM installs on this machine that can compile HIP for AMD GPUs, in the order cass-lsp prefers them.

Looked for (:func:`found`): ``$CASS_LSP_LLVM_DIR`` alone when set; otherwise ``clang++-NN`` on PATH
(Debian, Ubuntu), ``/usr/lib/llvm-NN/bin`` (Debian, Ubuntu), ``/usr/lib64/llvmNN/bin`` (Fedora's
``llvmNN`` packages), the ``llvm/bin`` of each ROCm install (``$ROCM_PATH``, ``/opt/rocm``,
``/opt/rocm-X.Y.Z`` newest first) and an unversioned ``clang++`` on PATH. They are ordered by
:func:`rank`: LLVM 19 first (the version cass-lsp is tested with, and the one triton's ROCm 7.1
device bitcode needs), then newer ones (they read LLVM 19's bitcode), then older ones newest first
(they read fewer device libraries and know fewer targets); within one major in the order above.
LLVMs outside :data:`SUPPORTED` are listed too, so that ``doctor`` can say why they are not used.
"""

from __future__ import annotations

import dataclasses
import functools
import os
import re
import shutil
from pathlib import Path

from cass_lsp.core import proc
from cass_lsp.toolchains.versions import tool_version

PREFERRED = 19
SUPPORTED = range(15, 21)
"""LLVM 15 reads Debian 12's ROCm 5.2 device bitcode (LLVM 15's); 15–20 are the majors checked."""
LLVM_DIR_ENV = "CASS_LSP_LLVM_DIR"
"""A folder holding clang++, llvm-as, ... of one LLVM, for installs outside the usual layouts."""
ROCM_PATH_ENV = "ROCM_PATH"
ROCM_BASE = Path("/opt")
# (parent folder, glob of versioned install folders, the major in the folder name, who ships it)
DISTRO_LAYOUTS: tuple[tuple[Path, str, str, str], ...] = (
    (Path("/usr/lib"), "llvm-*", r"llvm-(\d+)$", "Debian/Ubuntu's LLVM {major}"),
    (Path("/usr/lib64"), "llvm*", r"llvm(\d+)$", "Fedora's llvm{major} packages"),
)
_CLANG_VERSION_RE = r"clang version (\S+)"
_SUFFIXED_CLANG_RE = re.compile(r"clang\+\+-(\d+)$")
_TARGET_LINE = re.compile(r"^\s*(gfx[0-9a-f]+)\s*$", re.MULTILINE)
_TIMEOUT_S = 20.0


@dataclasses.dataclass(frozen=True)
class Llvm:
    """One LLVM install: its clang and where its other tools are."""

    clang: Path
    version: str
    major: int
    where: str
    """Where it was found, as doctor prints it (``/usr/lib/llvm-16/bin``, ``clang++-16 on PATH``)."""
    why: str
    """Why that place is looked at (``Debian/Ubuntu's LLVM 16``, ``the ROCm install /opt/rocm``)."""
    rocm: Path | None = None
    """The ROCm install this LLVM belongs to (its HIP headers and device libraries go with it)."""
    suffix: str = ""
    """``-16`` when the tools are ``<tool>-16`` on PATH rather than in one folder."""

    def tool(self, name: str) -> Path | None:
        """``llvm-as``, ``ld.lld``, ... of this LLVM, or None when that part is not installed."""
        if self.suffix:
            found = shutil.which(f"{name}{self.suffix}")
            return Path(found) if found else None
        candidate = self.clang.parent / name
        return candidate if candidate.is_file() else None


def clang_version(path: Path) -> str | None:
    return tool_version(path, ("--version",), _CLANG_VERSION_RE)


def rocm_installs() -> list[Path]:
    """ROCm installs, in the order they are looked at: ``$ROCM_PATH``, ``/opt/rocm``, then the
    ``/opt/rocm-X.Y.Z`` folders newest first."""
    env = os.environ.get(ROCM_PATH_ENV)
    versioned = sorted(
        ROCM_BASE.glob("rocm-*"),
        key=lambda p: [-int(part) for part in re.findall(r"\d+", p.name)],
    )
    ordered = [Path(env)] if env else []
    ordered += [ROCM_BASE / "rocm", *versioned]
    return [p for p in dict.fromkeys(ordered) if p.is_dir()]


def _make(clang: Path, where: str, why: str, rocm: Path | None = None, suffix: str = "") -> Llvm | None:
    version = clang_version(clang) if clang.is_file() else None
    if version is None:
        return None
    return Llvm(clang, version, int(version.split(".")[0]), where, why, rocm, suffix)


def _suffixed_on_path() -> list[Llvm]:
    found = []
    for folder in dict.fromkeys(os.environ.get("PATH", "").split(os.pathsep)):
        for clang in sorted(Path(folder).glob("clang++-*")) if folder else ():
            match = _SUFFIXED_CLANG_RE.match(clang.name)
            if match:
                major = match.group(1)
                llvm = _make(clang, f"{clang.name} on PATH", f"Debian/Ubuntu's clang-{major}, llvm-{major}: <tool>-{major}",
                             suffix=f"-{major}")
                found.append(llvm)
    return [llvm for llvm in found if llvm is not None]


def _distro() -> list[Llvm]:
    found = []
    for parent, pattern, name_re, who in DISTRO_LAYOUTS:
        for install in sorted(parent.glob(pattern)):
            match = re.match(name_re, install.name)
            if match:
                bin_dir = install / "bin"
                found.append(_make(bin_dir / "clang++", str(bin_dir), who.format(major=match.group(1))))
    return [llvm for llvm in found if llvm is not None]


def _rocm() -> list[Llvm]:
    found = []
    for root in rocm_installs():
        bin_dir = root / "llvm" / "bin"
        clang = next((bin_dir / n for n in ("clang++", "amdclang++") if (bin_dir / n).is_file()), bin_dir / "clang++")
        found.append(_make(clang, str(bin_dir), f"the ROCm install {root}", rocm=root))
    return [llvm for llvm in found if llvm is not None]


def _unversioned() -> list[Llvm]:
    on_path = shutil.which("clang++")
    if on_path is None:
        return []
    clang = Path(os.path.realpath(on_path))
    llvm = _make(clang, str(clang.parent), f"the clang++ on PATH ({on_path})")
    return [llvm] if llvm else []


def rank(llvm: Llvm) -> tuple[bool, int]:
    """19 first, then 20, 21, ... (they read 19's bitcode), then 18, 17, ... (newest first)."""
    return llvm.major < PREFERRED, abs(llvm.major - PREFERRED)


def found() -> list[Llvm]:
    """Every LLVM install found, preferred first (:func:`rank`; ties keep the order they are looked for)."""
    llvm_dir = os.environ.get(LLVM_DIR_ENV)
    if llvm_dir:
        bin_dir = Path(llvm_dir)
        clang = next((bin_dir / n for n in ("clang++", "amdclang++") if (bin_dir / n).is_file()), bin_dir / "clang++")
        chosen = _make(clang, llvm_dir, f"${LLVM_DIR_ENV}")
        return [chosen] if chosen else []
    every = [*_suffixed_on_path(), *_distro(), *_rocm(), *_unversioned()]
    # One install reached twice (clang++-19 on PATH is /usr/lib/llvm-19/bin/clang++) is listed once,
    # under the first name; a ROCm install's clang stays separate (it brings its own libraries).
    unique: dict[tuple[str, Path | None], Llvm] = {}
    for llvm in every:
        unique.setdefault((os.path.realpath(llvm.clang), llvm.rocm), llvm)
    return sorted(unique.values(), key=rank)


def known_targets(clang: Path) -> frozenset[str]:
    """The AMDGPU processors ``clang`` can compile for (``gfx1100``, ...); empty without the AMDGPU backend."""
    try:
        st = clang.stat()
    except OSError:
        return frozenset()
    return _targets(str(clang), st.st_mtime_ns, st.st_size)


@functools.cache
def _targets(clang: str, _mtime: int, _size: int) -> frozenset[str]:
    result = proc.run(
        [clang, "--target=amdgcn-amd-amdhsa", "-nogpulib", "--print-supported-cpus"], timeout=_TIMEOUT_S
    )
    return frozenset(_TARGET_LINE.findall(result.text()))
