"""AMD: one LLVM (clang++, llvm-as, llvm-objdump, ld.lld), the device libraries it can read, and HIP headers.

Which LLVM (:func:`choose`): the first of :func:`cass_lsp.toolchains.llvm.found` (LLVM 19 first, then
20, then 18 down to 15; see that module for where each is looked for) that knows AMDGPU targets and
can read some device libraries here. The rule for device libraries: a clang reads bitcode written by
its own or an older LLVM major only (the writer is read from each file, :mod:`.bitcode`). So each
clang is paired (:func:`readable_libs`) with the first readable set of: those that come with it
(:func:`own_libs`: inside its install, as Debian 13 and ROCm 6.2+ place them, or its ROCm install's),
the distribution's rocm-device-libs (Debian 12's are ROCm 5.2, LLVM 15 bitcode, ISA files up to
gfx1036), a ROCm install's. :mod:`.devlibs` adds the ISA files those lack (gfx11xx, gfx12xx, gfx942),
assembled by that LLVM's ``llvm-as``. A target is covered when the clang knows it and the paired
folder (with the generated files) has its ISA file; a job for another target is refused before any
compile, naming the LLVM that knows it. Triton's ROCm 7.1 bitcode (:mod:`.rocm71`) is LLVM 19's, so
that profile needs LLVM 19 or newer.
:func:`find_tool_source` says which LLVM was chosen, with which libraries, for which targets, and why.

HIP headers: the chosen ROCm install's own when the LLVM is a ROCm install's, else Debian's
(``/usr/include/hip``, ROCm 5.2), else the first ROCm install's.

Debian's ``hipcc`` is not used: it switches to the NVIDIA platform when nvcc is on PATH and is wired
to clang-15; clang is called directly.
"""

from __future__ import annotations

import dataclasses
import gzip
import os
import platform
import re
import time
from pathlib import Path

from cass_lsp.core import targets
from cass_lsp.toolchains import bitcode, llvm
from cass_lsp.toolchains.errors import ToolchainMissing

# Re-exported: callers name these through amd (the environment variables, a clang's version, ROCm installs).
from cass_lsp.toolchains.llvm import LLVM_DIR_ENV as LLVM_DIR_ENV
from cass_lsp.toolchains.llvm import ROCM_PATH_ENV as ROCM_PATH_ENV
from cass_lsp.toolchains.llvm import Llvm, rocm_installs
from cass_lsp.toolchains.llvm import clang_version as clang_version
from cass_lsp.toolchains.versions import tool_version

LLVM_MAJOR = llvm.PREFERRED
"""The LLVM cass-lsp is tested with and asks users to install."""
PACKAGES = f"clang-{LLVM_MAJOR} lld-{LLVM_MAJOR} llvm-{LLVM_MAJOR} libamdhip64-dev rocm-device-libs"
INSTALL_HINT = f"apt-get install --no-install-recommends {PACKAGES}"
CLANG_HINT = f"apt-get install --no-install-recommends clang-{LLVM_MAJOR} lld-{LLVM_MAJOR}"
LLVM_HINT = f"apt-get install --no-install-recommends llvm-{LLVM_MAJOR}"
HIP_HINT = "apt-get install --no-install-recommends libamdhip64-dev"
DEVICE_LIBS_HINT = "apt-get install --no-install-recommends rocm-device-libs"
HIP_INCLUDE = Path("/usr/include")
DEBIAN_LIB = Path("/usr/lib")
DEBIAN_DOC = Path("/usr/share/doc")
GENERATED_ARCHS = (
    "gfx1100",
    "gfx1101",
    "gfx1102",
    "gfx1103",
    "gfx1150",
    "gfx1151",
    "gfx1152",
    "gfx1200",
    "gfx1201",
    "gfx942",
)
"""Targets whose ISA file :mod:`.devlibs` generates where the device libraries lack it."""
_WANTED = tuple(dict.fromkeys((*targets.KNOWN_ARCHES, *GENERATED_ARCHS)))
"""The targets cass-lsp exercises, all known to LLVM 19: doctor names those the chosen LLVM lacks."""
_REUSE_S = 2.0
_last: dict[str, tuple[tuple[object, ...], float, Choice]] = {}
_LLVM_VERSION_RE = r"(?:LLVM version|LLD) (\d\S*)"
_ISA_FILE = re.compile(r"oclc_isa_version_([0-9a-f]+)\.bc$")


def llvm_version(path: Path) -> str | None:
    return tool_version(path, ("--version",), _LLVM_VERSION_RE)


@dataclasses.dataclass(frozen=True)
class DeviceLibs:
    """A folder of ROCm device bitcode (``ocml.bc``, ``oclc_*.bc``) and who made it."""

    folder: Path
    llvm_major: int | None
    """The newest LLVM major that wrote its files (None: no identification block could be read)."""
    origin: str

    def arches(self) -> frozenset[str]:
        return frozenset(f"gfx{m.group(1)}" for p in self.folder.glob("*.bc") if (m := _ISA_FILE.match(p.name)))

    def describe(self) -> str:
        written = f"LLVM {self.llvm_major} bitcode" if self.llvm_major else "bitcode of an unknown LLVM"
        return f"{self.origin}, {written} ({self.folder})"

    def readable_by(self, major: int) -> bool:
        return self.llvm_major is None or self.llvm_major <= major


def _debian_package_version(package: str) -> str | None:
    """``5.2.3`` from the first line of the package's Debian changelog, where it has one."""
    try:
        with gzip.open(DEBIAN_DOC / package / "changelog.Debian.gz", "rt", errors="replace") as changelog:
            first = changelog.readline()
    except OSError:
        return None
    match = re.match(rf"{re.escape(package)} \((?:\d+:)?([0-9.]+)", first)
    return match.group(1) if match else None


def device_libs() -> list[DeviceLibs]:
    """Every device-library folder here: the distribution's (multiarch path first), then each ROCm
    install's (``amdgcn/bitcode``, or under its LLVM's clang resource folder since ROCm 6.2)."""
    usual = DEBIAN_LIB / f"{platform.machine()}-linux-gnu" / "amdgcn" / "bitcode"
    version = _debian_package_version("rocm-device-libs")
    distro_origin = f"Debian's rocm-device-libs {version}" if version else "the distribution's rocm-device-libs"
    found = [(p, distro_origin) for p in (usual, *sorted(DEBIAN_LIB.glob("*/amdgcn/bitcode")))]
    for root in rocm_installs():
        found += [
            (p, f"the ROCm install {root}")
            for p in (root / "amdgcn" / "bitcode", *sorted(root.glob("llvm/lib/clang/*/lib/amdgcn/bitcode")))
        ]
    unique = dict.fromkeys(p for p, _ in found if (p / "ocml.bc").is_file())
    origins = dict(reversed(found))
    return [DeviceLibs(p, bitcode.folder_major(p), origins[p]) for p in unique]


def own_libs(candidate: Llvm, every: list[DeviceLibs]) -> list[DeviceLibs]:
    """The device libraries that come with an LLVM, which its clang finds by itself: inside its own
    install (Debian 13 and Ubuntu 24.04 put rocm-device-libs in ``lib/clang/NN/amdgcn/bitcode``, ROCm
    6.2+ in ``lib/clang/NN/lib/amdgcn/bitcode``), then its ROCm install's among ``every``."""
    rocm = candidate.rocm
    # clang++-17 on PATH stands for /usr/lib/llvm-17/bin/clang++; a folder found is taken as found
    found_in = Path(os.path.realpath(candidate.clang)) if candidate.suffix else candidate.clang
    root = rocm / "llvm" if rocm else found_in.parent.parent
    inside = [*sorted(root.glob("lib/clang/*/amdgcn/bitcode")), *sorted(root.glob("lib/clang/*/lib/amdgcn/bitcode"))]
    origin = f"the ROCm install {rocm}" if rocm else f"LLVM {candidate.major}'s own ({root})"
    own = [DeviceLibs(f, bitcode.folder_major(f), origin) for f in inside if (f / "ocml.bc").is_file()]
    known = {libs.folder for libs in own}
    return own + [libs for libs in every if rocm is not None and libs.folder.is_relative_to(rocm) and libs.folder not in known]


def readable_libs(major: int, own: list[DeviceLibs] | None = None, every: list[DeviceLibs] | None = None) -> DeviceLibs | None:
    """The device libraries a clang of LLVM ``major`` reads: the first readable of ``own``
    (:func:`own_libs`), else of ``every`` (default :func:`device_libs`)."""
    ordered = [*(own or ()), *(device_libs() if every is None else every)]
    return next((libs for libs in ordered if libs.readable_by(major)), None)


@dataclasses.dataclass(frozen=True)
class Choice:
    """The LLVM the AMD jobs use, its device libraries, and the LLVMs found but not used (with why)."""

    llvm: Llvm | None
    libs: DeviceLibs | None
    passed: tuple[tuple[Llvm, str], ...] = ()

    def covered(self) -> frozenset[str]:
        """Targets this LLVM knows whose ISA file the paired libraries have or :mod:`.devlibs` generates."""
        if self.llvm is None or self.libs is None:
            return frozenset()
        generated = GENERATED_ARCHS if self.llvm.tool("llvm-as") else ()
        return llvm.known_targets(self.llvm.clang) & (self.libs.arches() | set(generated))

    def lacking(self, arch: str) -> tuple[str, str] | None:
        """Why ``arch`` cannot be compiled with this choice and the command that fixes it, or None."""
        if self.llvm is None:
            return None  # require() says what to install
        chosen = self.llvm
        if arch not in llvm.known_targets(chosen.clang):
            unknown = f"an LLVM that knows {arch} ({chosen.clang.name} {chosen.version} from {chosen.where} does not"
            if chosen.major < LLVM_MAJOR and arch in _WANTED:
                return f"{unknown}; LLVM {LLVM_MAJOR} does)", CLANG_HINT
            return f"{unknown})", f"an LLVM newer than {chosen.major} (clang++ --target=amdgcn-amd-amdhsa --print-supported-cpus lists what one knows)"
        if arch not in self.covered() and self.libs is not None:
            if arch in GENERATED_ARCHS:  # llvm-as is missing, so its ISA file cannot be generated
                return f"llvm-as-{chosen.major} (it makes the ISA file of {arch})", llvm_hint(chosen.major)
            return f"device library oclc_isa_version_{arch[3:]}.bc for {arch} ({self.libs.describe()} has none)", DEVICE_LIBS_HINT
        return None

    def explain(self) -> str:
        """Which LLVM, from where and why; its device libraries and targets; what the others lack."""
        if self.llvm is None:
            return "no usable LLVM: " + _others(self.passed) if self.passed else "no LLVM found"
        chosen = self.llvm
        parts = [f"{chosen.clang.name} {chosen.version} from {chosen.where} ({chosen.why})"]
        if self.libs is None:
            parts.append("device libraries: none here")
        else:
            covered = sorted(self.covered(), key=_isa_order)
            span = f"{covered[0]}…{covered[-1]}" if covered else "none"
            parts.append(f"device libraries: {self.libs.describe()}, targets {span} ({len(covered)})")
        unknown = sorted((a for a in _WANTED if a not in llvm.known_targets(chosen.clang)), key=_isa_order)
        if unknown and chosen.major < LLVM_MAJOR:
            parts.append(f"{', '.join(unknown)} need LLVM {LLVM_MAJOR} ({CLANG_HINT})")
        elif unknown:
            parts.append(f"{', '.join(unknown)} unknown to it")
        if self.passed:
            parts.append("not used: " + _others(self.passed))
        return "; ".join(parts)


def _isa_order(arch: str) -> tuple[int, str]:
    suffix = arch[3:]
    return len(suffix), suffix


def _others(passed: tuple[tuple[Llvm, str], ...]) -> str:
    return ", ".join(f"{other.clang.name} {other.version} from {other.where} ({why})" for other, why in passed)


def _unusable(candidate: Llvm, every: list[DeviceLibs]) -> str | None:
    if candidate.major not in llvm.SUPPORTED:
        return f"LLVM {candidate.major} is outside the versions cass-lsp supports, {llvm.SUPPORTED[0]}–{llvm.SUPPORTED[-1]}"
    if not llvm.known_targets(candidate.clang):
        return "built without the AMDGPU target"
    own = own_libs(candidate, every)
    if (every or own) and readable_libs(candidate.major, own, every) is None:
        oldest = min([*own, *every], key=lambda libs: libs.llvm_major or 0)
        return f"LLVM {candidate.major} cannot read the device libraries here ({oldest.describe()})"
    return None


def _settings() -> tuple[object, ...]:
    """What the choice depends on that is cheap to read: the settings, the places searched, and
    when each PATH folder last changed (a tool linked or installed there)."""
    path = tuple(dict.fromkeys(os.environ.get("PATH", "").split(os.pathsep)))
    return (
        os.environ.get(LLVM_DIR_ENV),
        os.environ.get(ROCM_PATH_ENV),
        llvm.DISTRO_LAYOUTS,
        llvm.ROCM_BASE,
        DEBIAN_LIB,
        tuple((folder, _mtime(folder)) for folder in path),
    )


def _mtime(folder: str) -> int | None:
    try:
        return os.stat(folder).st_mtime_ns
    except OSError:
        return None


def choose() -> Choice:
    """The first usable LLVM of :func:`llvm.found` (preferred first) and its device libraries.

    Where device libraries exist that no LLVM here reads, no LLVM is chosen: compiling would fail on
    the bitcode. Where none exist at all, the first LLVM is chosen and the libraries are reported missing.
    One compile asks several times; the answer is reused for :data:`_REUSE_S` while the settings and
    PATH stay the same, so an LLVM installed while the server runs is used within that time.
    """
    settings = _settings()
    now = time.monotonic()
    last = _last.get("choice")
    if last is not None and last[0] == settings and now - last[1] < _REUSE_S:
        return last[2]
    choice = _choose()
    _last["choice"] = (settings, now, choice)
    return choice


def _choose() -> Choice:
    every = device_libs()
    chosen: Llvm | None = None
    passed: list[tuple[Llvm, str]] = []
    for candidate in llvm.found():
        why_not = _unusable(candidate, every)
        if why_not is not None:
            passed.append((candidate, why_not))
        elif chosen is None:
            chosen = candidate
        elif chosen.major == candidate.major:
            passed.append((candidate, f"the LLVM {chosen.major} from {chosen.where} comes first"))
        else:
            passed.append((candidate, f"LLVM {chosen.major} is preferred"))
    libs = readable_libs(chosen.major, own_libs(chosen, every), every) if chosen else None
    return Choice(chosen, libs, tuple(passed))


def find_tool(name: str) -> Path | None:
    """``<name>`` (``clang++``, ``llvm-as``, ``llvm-objdump``, ...) of the chosen LLVM."""
    chosen = choose().llvm
    if chosen is None:
        return None
    return chosen.clang if name == "clang++" else chosen.tool(name)


def find_tool_source(path: Path) -> str | None:
    """Why the tool :func:`find_tool` returned as ``path`` is used: for clang++ the whole choice
    (:meth:`Choice.explain`), for the other tools where their LLVM was found."""
    choice = choose()
    if choice.llvm is None:
        return None
    if path == choice.llvm.clang:
        return choice.explain()
    return f"{choice.llvm.where} ({choice.llvm.why})"


def clang() -> Path | None:
    return find_tool("clang++")


def lld() -> Path | None:
    return find_tool("ld.lld")


@dataclasses.dataclass(frozen=True)
class HipHeaders:
    include_dir: Path  # the directory holding ``hip/``
    version: str


def hip_version_of(include_dir: Path) -> str | None:
    """``MAJOR.MINOR[.PATCH]`` from ``<include_dir>/hip/hip_version.h``."""
    return targets.read_hip_version(str(include_dir))


def hip_headers() -> HipHeaders | None:
    """The chosen ROCm install's HIP headers when its LLVM is used, else Debian's (``/usr/include/hip``),
    else those of the first ROCm install that has them."""
    chosen = choose().llvm
    own = [chosen.rocm / "include"] if chosen is not None and chosen.rocm is not None else []
    for include_dir in (*own, HIP_INCLUDE, *(root / "include" for root in rocm_installs())):
        version = hip_version_of(include_dir)
        if version:
            return HipHeaders(include_dir, version)
    return None


def bitcode_dir() -> Path | None:
    """The folder of ``ocml.bc``, ``oclc_*.bc`` the chosen LLVM reads (without one: the first found)."""
    choice = choose()
    if choice.libs is not None:
        return choice.libs.folder
    every = device_libs() if choice.llvm is None else []
    return every[0].folder if every else None


@dataclasses.dataclass(frozen=True)
class AmdToolchain:
    clang: Path
    clang_version: str
    llvm_as: Path

    @property
    def major(self) -> int:
        return int(self.clang_version.split(".")[0])


def llvm_hint(major: int) -> str:
    return LLVM_HINT if major == LLVM_MAJOR else f"apt-get install --no-install-recommends llvm-{major}"


def require() -> AmdToolchain:
    """The chosen LLVM's clang++ and llvm-as, or :class:`ToolchainMissing` with the install hint."""
    chosen = choose().llvm
    clang_path = clang()
    if chosen is None or clang_path is None:
        raise ToolchainMissing(f"clang++-{LLVM_MAJOR}", CLANG_HINT)
    llvm_as = chosen.tool("llvm-as")
    if llvm_as is None:
        raise ToolchainMissing(f"llvm-as-{chosen.major} (beside {clang_path})", llvm_hint(chosen.major))
    return AmdToolchain(clang=clang_path, clang_version=chosen.version, llvm_as=llvm_as)


def require_target(arch: str) -> None:
    """:class:`ToolchainMissing` when the chosen LLVM cannot compile for ``arch``, saying what would."""
    lacking = choose().lacking(arch)
    if lacking is not None:
        raise ToolchainMissing(*lacking)


def require_hip() -> tuple[HipHeaders, Path]:
    """The HIP headers and the device bitcode the chosen LLVM reads, or :class:`ToolchainMissing`."""
    headers = hip_headers()
    if headers is None:
        raise ToolchainMissing("HIP headers (/usr/include/hip or a ROCm install's)", HIP_HINT)
    bitcode_folder = bitcode_dir()
    if bitcode_folder is None:
        raise ToolchainMissing("ROCm device libraries (amdgcn/bitcode)", DEVICE_LIBS_HINT)
    return headers, bitcode_folder
