"""The ROCm device-library folder a clang needs for gfx11xx / gfx12xx / gfx942 on Debian 12.

Debian's rocm-device-libs 5.2.3 stop at gfx1036 (and gfx940). clang only needs one more file per
target: ``oclc_isa_version_<N>.bc``, a module that defines ``__oclc_ISA_version`` =
major*1000 + minor*100 + stepping. The folder links every ``.bc`` of the device libraries the clang
reads (:func:`cass_lsp.toolchains.amd.readable_libs`) and adds the missing ISA files, assembled by
the ``llvm-as`` of that clang's LLVM (an older LLVM cannot read a newer one's bitcode), in a folder
per LLVM major (``amdgcn-19``, ``amdgcn-16``). It is built once in the user cache dir (at setup or
first use), atomically, and rebuilt only when its inputs change.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
import uuid
from collections.abc import Callable, Iterable
from pathlib import Path

from cass_lsp.core import proc
from cass_lsp.core.dirs import cache_root
from cass_lsp.toolchains import amd
from cass_lsp.toolchains.errors import ToolchainMissing

# Targets whose ISA file Debian lacks (a file Debian has is never replaced).
GENERATED_ARCHS = amd.GENERATED_ARCHS
MARKER = ".cass-complete.json"
SETUP_HINT = "cass-lsp setup --only devlibs"
_TIMEOUT_S = 60.0

Log = Callable[[str], None]


def isa_suffix(arch: str) -> str:
    """``gfx1100`` → ``1100``, ``gfx90a`` → ``90a`` (the oclc_isa_version file name part)."""
    if not arch.startswith("gfx") or len(arch) < 6:
        raise ValueError(f"not an AMDGPU target name: {arch!r}")
    return arch[3:]


def isa_version(arch: str) -> int:
    """The ``__oclc_ISA_version`` value: gfx1100 → 11000, gfx942 → 9402, gfx90a → 9010."""
    suffix = isa_suffix(arch)
    return int(suffix[:-2]) * 1000 + int(suffix[-2], 16) * 100 + int(suffix[-1], 16)


def isa_file(folder: Path, arch: str) -> Path:
    return folder / f"oclc_isa_version_{isa_suffix(arch)}.bc"


def datalayout(clang: Path) -> str:
    """The ``target datalayout`` line of amdgcn-amd-amdhsa, asked from the clang in use."""
    result = proc.run(
        [
            clang,
            "-x",
            "hip",
            "--offload-arch=gfx1030",
            "--cuda-device-only",
            "-nogpulib",
            "-nogpuinc",
            "-S",
            "-emit-llvm",
            "-o",
            "-",
            "-",
        ],
        timeout=_TIMEOUT_S,
        input=b"",
    )
    for line in result.stdout.decode(errors="replace").splitlines():
        if line.startswith("target datalayout"):
            return line
    raise ToolchainMissing(f"a working {clang.name} (no datalayout: {result.text()[-300:]})", amd.CLANG_HINT)


def assemble(llvm_as: Path, layout: str, globals_ir: Iterable[str], out: Path) -> None:
    """Write a bitcode module holding only ``globals_ir`` (e.g. ``@x = ... i32 5, align 4``)."""
    ir = "\n".join([layout, 'target triple = "amdgcn-amd-amdhsa"', *globals_ir, ""])
    result = proc.run([llvm_as, "-", "-o", out], timeout=_TIMEOUT_S, input=ir.encode())
    if not result.ok:
        raise RuntimeError(f"{llvm_as.name} failed for {out.name}: {result.text()[-500:]}")


def constant_global(name: str, ir_type: str, value: int, align: int) -> str:
    """One constant of the form the ROCm device libraries use for their control variables."""
    return f"@{name} = linkonce_odr protected local_unnamed_addr addrspace(4) constant {ir_type} {value}, align {align}"


def isa_global(value: int) -> str:
    return constant_global("__oclc_ISA_version", "i32", value, 4)


def folder(major: int | None = None) -> Path:
    """The folder for LLVM ``major`` (default: the chosen LLVM's, else LLVM 19's)."""
    if major is None:
        chosen = amd.choose().llvm
        major = chosen.major if chosen else amd.LLVM_MAJOR
    return cache_root() / f"amdgcn-{major}" / "bitcode"


def is_ready(path: Path, expected: dict[str, object]) -> bool:
    try:
        return bool(json.loads((path / MARKER).read_text()) == expected)
    except (OSError, ValueError):
        return False


def publish(staging: Path, final: Path, expected: dict[str, object]) -> None:
    """Move a fully built ``staging`` folder to ``final`` in one rename.

    Readers only ever see a complete folder. If another process published a good one meanwhile,
    ours is dropped; a stale one is renamed aside first and removed.
    """
    (staging / MARKER).write_text(json.dumps(expected))
    if is_ready(final, expected):
        shutil.rmtree(staging, ignore_errors=True)
        return
    if final.exists():
        aside = final.with_name(f".{final.name}.old-{uuid.uuid4().hex}")
        try:
            os.rename(final, aside)
        except FileNotFoundError:
            pass
        else:
            shutil.rmtree(aside, ignore_errors=True)
    try:
        os.rename(staging, final)
    except OSError:
        # Lost a race with a concurrent publisher: theirs is complete too.
        shutil.rmtree(staging, ignore_errors=True)


def staging_dir(final: Path) -> Path:
    final.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{final.name}.staging-", dir=final.parent))
    staging.chmod(0o755)  # mkdtemp makes it private; the published folder is an ordinary cache dir
    return staging


def ensure(log: Log | None = None, toolchain: amd.AmdToolchain | None = None, final: Path | None = None) -> Path:
    """The device-library folder for the chosen LLVM and the device libraries it reads, built if
    missing or stale (another ``toolchain``'s, e.g. clang-15 for ported builds, pairs with the
    libraries its LLVM reads, in its own ``final`` folder)."""
    if toolchain is None:
        toolchain = amd.require()
        _, bitcode = amd.require_hip()
    else:
        libs = amd.readable_libs(toolchain.major)
        if libs is None:
            raise ToolchainMissing(f"ROCm device libraries LLVM {toolchain.major} reads", amd.DEVICE_LIBS_HINT)
        bitcode = libs.folder
    final = final or folder(toolchain.major)
    expected: dict[str, object] = {
        "clang": toolchain.clang_version,
        "bitcode": str(bitcode),
        "archs": list(GENERATED_ARCHS),
    }
    if is_ready(final, expected):
        if log:
            log(f"device libraries: already in {final}")
        return final
    staging = staging_dir(final)
    try:
        for source in sorted(bitcode.glob("*.bc")):
            (staging / source.name).symlink_to(source)
        layout = datalayout(toolchain.clang)
        made = []
        for arch in GENERATED_ARCHS:
            target = isa_file(staging, arch)
            if not target.exists():
                assemble(toolchain.llvm_as, layout, [isa_global(isa_version(arch))], target)
                made.append(arch)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    publish(staging, final, expected)
    if log:
        log(f"device libraries: {final} (linked {bitcode}, generated ISA bitcode for {', '.join(made)})")
    return final


def require_arch(path: Path, arch: str, hint: str = SETUP_HINT) -> None:
    """:class:`ToolchainMissing` unless ``path`` has the ISA bitcode of ``arch``."""
    if not isa_file(path, arch).exists():
        raise ToolchainMissing(f"device library {isa_file(path, arch).name} for {arch}", hint)
