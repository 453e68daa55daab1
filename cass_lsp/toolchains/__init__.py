"""The GPU toolchains cass-lsp calls, found, versioned and ready to run.

One module per outside tool family: :mod:`.nvidia` (nvcc, nvdisasm, cuobjdump from the PyPI wheels,
``$CUDA_HOME``, PATH or ``/usr/local/cuda*``), :mod:`.amd` (one LLVM of 15–20, 19 preferred, from
PATH, Debian, Fedora or a ROCm install (:mod:`.llvm`), paired with the device bitcode it can read
(:mod:`.bitcode`); HIP 5.2 headers from Debian, else a ROCm install), :mod:`.devlibs` (the generated
gfx11/gfx12/gfx942 device-library folder of that LLVM), :mod:`.rocm71` (HIP 7.1
headers from the triton wheels, fetched at setup; :mod:`.remote_wheel` reads them on PyPI where
there is no pip), :mod:`.hiplibs` (hipBLAS, hipFFT, hipSOLVER, hipCUB, rocThrust headers from
Debian 13, fetched at setup), :mod:`.cudalibs` (cuBLAS, cuSPARSE, cuFFT, cuRAND, cuSOLVER, NVRTC
headers from their PyPI wheels, fetched at setup; nvcc sees them through :func:`nvcc_invocation`), :mod:`.setup` (``cass-lsp setup``), :mod:`.distro` (install hints in
the distribution's words), :mod:`.cxxfilt` (demangling).

How to compile something (every call raises :class:`ToolchainMissing` with ``.hint`` when a piece is
not installed)::

    from cass_lsp import proc, toolchains

    nv = toolchains.nvcc_invocation("sm_90")                     # CUDA source
    proc.run([*nv.argv, "--ptx", "-o", "/dev/null", "k.cu"], env=nv.env, timeout=60)

    nv = toolchains.nvcc_invocation("sm_90", hip_source=True)    # a .hip file on NVIDIA (shim header)

    hip = toolchains.hip_invocation("gfx1100", rocm="7.1")       # the chosen clang++ + amd_hip_flags(...)
    proc.run([*hip.argv, "-fsyntax-only", "k.hip"], env=hip.env, timeout=60)

    toolchains.amd_hip_flags("gfx942", "5.2")    # only the flags (``-x hip ... --offload-arch=gfx942``)
    toolchains.report()                          # list[ToolStatus] for ``cass-lsp doctor``

An :class:`Invocation` also carries ``versions`` (tool → version) for cache keys. ``rocm`` is
``"5.2"`` (Debian's headers, or the chosen ROCm install's) or ``"7.1"`` (triton's headers and LLVM 19
bitcode, so LLVM 19 or newer; ``cass-lsp setup --only rocm71`` fetches them). A target the chosen
LLVM cannot compile for raises :class:`ToolchainMissing` saying which LLVM would, before any compile. Both profiles also see the HIP library headers of
:func:`hiplibs.include_dir` once ``cass-lsp setup --only hip-libs`` fetched them (without them, only Debian 12's
hipSPARSE/hipRAND/rocPRIM 5.3 are there). Neither call touches the network.
"""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path

import msgspec

from cass_lsp.core import targets
from cass_lsp.toolchains import amd, bitcode, cudalibs, devlibs, distro, hiplibs, nvidia, rocm71
from cass_lsp.toolchains.errors import ToolchainMissing

__all__ = [
    "ROCM_PROFILES",
    "Invocation",
    "ToolStatus",
    "ToolchainMissing",
    "amd_hip_flags",
    "hip_invocation",
    "nvcc_invocation",
    "report",
    "rocm_profile",
    "shim_dir",
]

ROCM_PROFILES = ("5.2", "7.1")


class ToolStatus(msgspec.Struct, rename="camel"):
    name: str
    found: bool
    version: str | None = None
    path: str | None = None
    hint: str | None = None
    source: str | None = None
    """Where a found tool was looked for and why (the CUDA wheel, ``$CUDA_HOME``, a ROCm install...)."""
    optional: bool = False
    """The rule engine, listings and compile checks work without it (set by ``cass-lsp doctor``)."""


@dataclasses.dataclass(frozen=True)
class Invocation:
    """A compiler argv prefix (append mode flags, sources, ``-o``) and the environment to run it in."""

    argv: tuple[str, ...]
    env: dict[str, str]
    versions: dict[str, str]


def shim_dir() -> Path:
    """The include dir whose ``hip/hip_runtime.h`` maps HIP names onto CUDA for nvcc."""
    return Path(__file__).parent / "hip_nv_shim"


def rocm_profile(rocm: str) -> str:
    """The header set to compile against for ROCm ``rocm`` (``"7.1.0"``, ``"7.1"``, or ``"auto"``,
    resolved by :func:`cass_lsp.core.targets.resolve_rocm` exactly as translation resolves it),
    or ValueError when this machine has no headers for that version."""
    try:
        short = targets.resolve_rocm(rocm.strip())
    except ValueError:
        short = rocm
    if short not in ROCM_PROFILES:
        detected = " (auto-detected)" if rocm == "auto" else ""
        raise ValueError(
            f"no HIP headers for ROCm {short}{detected} here: listings compile against ROCm "
            f"{' or '.join(ROCM_PROFILES)}; set cass.target.rocm to one of them"
        )
    return short


def nvcc_invocation(arch: str = "sm_90", *, hip_source: bool = False) -> Invocation:
    """``nvcc -arch=<arch>`` (plus ``-x cu -I<shim>`` for HIP sources, and ``-isystem`` the CUDA
    library headers once ``cass-lsp setup --only cuda-libs`` fetched them) and its environment."""
    toolchain = nvidia.require()
    argv = [str(toolchain.nvcc), f"-arch={arch}"]
    if hip_source:
        argv += ["-x", "cu", f"-I{shim_dir()}"]
    versions = {"nvcc": f"{toolchain.version} {toolchain.nvcc}"}
    libraries = cudalibs.include_dir()
    if libraries is not None:
        # After the user's -I and nvcc's own include folder (-isystem is searched after both), so a
        # project's bundled copy of a header, or a full CUDA toolkit's, wins over the fetched one.
        argv += ["-isystem", str(libraries)]
        versions["cuda-libs"] = cudalibs.version() or ""
    return Invocation(tuple(argv), toolchain.env(), versions)


def amd_hip_flags(arch: str, rocm: str) -> list[str]:
    """Flags of the chosen clang++ that compile HIP for ``arch`` against the headers of ROCm ``rocm``."""
    return _amd(amd.require(), arch, rocm)[0]


def hip_invocation(arch: str = "gfx1100", rocm: str = "5.2") -> Invocation:
    toolchain = amd.require()
    flags, versions = _amd(toolchain, arch, rocm)
    return Invocation((str(toolchain.clang), *flags), dict(os.environ), versions)


def _amd(toolchain: amd.AmdToolchain, arch: str, rocm: str) -> tuple[list[str], dict[str, str]]:
    profile = rocm_profile(rocm)
    flags, versions = _amd_runtime(toolchain, arch, profile)
    libraries = hiplibs.include_dir(profile)
    if libraries is not None:
        # After the profile's HIP runtime headers (the folder has no hip/), before /usr/include:
        # Debian 12's rocPRIM 5.3 there must not shadow the newer one rocThrust and hipCUB need.
        flags += ["-isystem", str(libraries)]
        versions["hip-libs"] = f"{hiplibs.version()} ({', '.join(hiplibs.libraries(profile))})"
    system = hiplibs.system_version()
    if system is not None:
        versions["system-hip-libs"] = system
    return flags, versions


def _amd_runtime(toolchain: amd.AmdToolchain, arch: str, profile: str) -> tuple[list[str], dict[str, str]]:
    versions = {"clang": f"{toolchain.clang_version} {toolchain.clang}"}
    amd.require_target(arch)
    if profile == "7.1":
        flags = rocm71.hip71_flags(arch)
        if flags is None:
            raise ToolchainMissing("HIP 7.1 headers (from the triton wheels)", rocm71.SETUP_HINT)
        unreadable = _rocm71_unreadable(toolchain.major)
        if unreadable:
            raise ToolchainMissing(unreadable, amd.CLANG_HINT)
        versions["hip"] = f"{rocm71.hip_version()} triton {rocm71.TRITON_HIP71}+{rocm71.TRITON_HIP62}"
        return flags, versions
    headers, _ = amd.require_hip()
    folder = devlibs.ensure()
    devlibs.require_arch(folder, arch)
    versions["hip"] = f"{headers.version} {headers.include_dir}"
    flags = [
        "-x",
        "hip",
        f"--rocm-path={headers.include_dir.parent}",
        f"--rocm-device-lib-path={folder}",
        f"--offload-arch={arch}",
    ]
    return flags, versions


def _rocm71_unreadable(major: int) -> str | None:
    """Why an LLVM of ``major`` cannot use triton's ROCm 7.1 device libraries, or None when it can."""
    written = bitcode.llvm_major(rocm71.root() / "devlibs" / "ocml.bc")
    if written is None or major >= written:
        return None
    return (f"LLVM {written} or newer for ROCm 7.1 (triton's device libraries are LLVM {written} bitcode, "
            f"which LLVM {major} cannot read)")


def _status(name: str, path: Path | None, version: str | None, hint: str, source: str | None = None) -> ToolStatus:
    found = path is not None and version is not None
    return ToolStatus(
        name=name,
        found=found,
        version=version,
        path=str(path) if path else None,
        hint=None if found else distro.hint(hint),
        source=source if found else None,
    )


def _debian_or_rocm(path: Path | None, package: str, chosen: amd.Choice) -> str | None:
    if path is None:
        return None
    if path.is_relative_to("/usr"):
        return f"Debian's {package}"
    root = next((r for r in amd.rocm_installs() if path.is_relative_to(r)), path)
    if chosen.llvm is not None and chosen.llvm.rocm == root:
        return f"the ROCm install {root}, whose LLVM is used"
    return f"the ROCm install {root} (Debian's {package} is not installed)"


def _llvm_status(name: str, path: Path | None, version: str | None, hint: str) -> ToolStatus:
    return _status(name, path, version, hint, amd.find_tool_source(path) if path else None)


def _amd_report(choice: amd.Choice) -> list[ToolStatus]:
    """The chosen LLVM's tools (clang++'s source explains the choice), HIP headers and device libraries."""
    major = choice.llvm.major if choice.llvm else amd.LLVM_MAJOR
    llvm_hint = amd.llvm_hint(major)
    clang = amd.clang()
    statuses = [_llvm_status(f"clang++-{major}", clang, amd.clang_version(clang) if clang else None, amd.CLANG_HINT)]
    if choice.llvm is None and choice.passed:  # an LLVM is here but cannot be used: say why beside the fix
        statuses[0].hint = f"{statuses[0].hint}; {choice.explain()}"
    lld = amd.lld()
    statuses.append(_llvm_status(f"ld.lld-{major}", lld, amd.llvm_version(lld) if lld else None, amd.CLANG_HINT))
    for tool in ("llvm-as", "llvm-objdump", "llvm-cxxfilt"):
        path = amd.find_tool(tool)
        statuses.append(_llvm_status(f"{tool}-{major}", path, amd.llvm_version(path) if path else None, llvm_hint))
    headers = amd.hip_headers()
    statuses.append(
        _status(
            "HIP headers (ROCm 5.2)",
            headers.include_dir / "hip" if headers else None,
            headers.version if headers else None,
            amd.HIP_HINT,
            _debian_or_rocm(headers.include_dir if headers else None, "libamdhip64-dev", choice),
        )
    )
    bitcode_folder = amd.bitcode_dir()
    libs = choice.libs
    statuses.append(
        _status(
            "ROCm device libraries",
            bitcode_folder,
            (f"LLVM {libs.llvm_major} bitcode" if libs and libs.llvm_major else "found") if bitcode_folder else None,
            amd.DEVICE_LIBS_HINT,
            libs.origin if libs else _debian_or_rocm(bitcode_folder, "rocm-device-libs", choice),
        )
    )
    folder = devlibs.folder()
    ready = (folder / devlibs.MARKER).is_file()
    statuses.append(
        _status(
            "gfx11/gfx12 device-lib folder",
            folder if ready else None,
            "generated" if ready else None,
            devlibs.SETUP_HINT,
            f"ISA files assembled by LLVM {major}'s llvm-as" if choice.llvm else None,
        )
    )
    return statuses


def _rocm71_status(choice: amd.Choice) -> ToolStatus:
    hip71 = rocm71.hip_version()
    status = _status("HIP headers (ROCm 7.1, triton)", rocm71.root() if hip71 else None, hip71, rocm71.SETUP_HINT)
    unreadable = _rocm71_unreadable(choice.llvm.major) if hip71 and choice.llvm else None
    if unreadable is None:
        return status
    return ToolStatus(name=status.name, found=False, hint=f"{unreadable}: {distro.hint(amd.CLANG_HINT)}")


def report() -> list[ToolStatus]:
    """Every outside tool the listings and translation checks use, found or not, with install hints."""
    statuses: list[ToolStatus] = []
    nv = nvidia.find()
    origin = nv.origin if nv else None
    statuses.append(_status("nvcc", nv.nvcc if nv else None, nv.version if nv else None, nvidia.INSTALL_HINT, origin))
    for name in ("nvdisasm", "cuobjdump"):
        path = getattr(nv, name) if nv else None
        version = nvidia.disassembler_version(nv, name) if nv and path else None
        statuses.append(_status(name, path, version, nvidia.INSTALL_HINT, origin))
    host = nvidia.host_compiler()
    statuses.append(_status("g++ (nvcc host compiler)", host, "found" if host else None, nvidia.HOST_CXX_HINT))
    choice = amd.choose()
    statuses += _amd_report(choice)
    statuses.append(_rocm71_status(choice))
    cuda_libraries = cudalibs.version()
    statuses.append(
        _status(
            "CUDA library headers (cuBLAS, cuSPARSE, cuFFT, cuRAND, cuSOLVER, NVRTC)",
            cudalibs.root() if cuda_libraries else None,
            cuda_libraries,
            cudalibs.SETUP_HINT,
        )
    )
    libraries = hiplibs.version()
    statuses.append(
        _status(
            "HIP library headers (hipBLAS, hipFFT, hipCUB, rocThrust)",
            hiplibs.root() if libraries else None,
            libraries,
            hiplibs.SETUP_HINT,
        )
    )
    return statuses
