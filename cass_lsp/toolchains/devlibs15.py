"""Device libraries for clang-15 (hipcc's, which builds ported projects on Debian 12) for the
targets Debian's ROCm 5.2 bitcode lacks (gfx11xx, gfx12xx, gfx942): the folder
:mod:`cass_lsp.toolchains.devlibs` builds for clang-19, assembled with LLVM 15's ``llvm-as`` (LLVM
15 cannot read LLVM 19's bitcode), in a folder of its own.

``python -m cass_lsp.toolchains.devlibs15`` (scripts/setup.sh) builds it and prints the folder; ported
builds use it through hipcc's ``DEVICE_LIB_PATH`` and the toolchain file's
``CASS_HIP_DEVICE_LIB_PATH`` (:func:`hint`).
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

from cass_lsp.core.dirs import cache_root
from cass_lsp.toolchains import amd, devlibs
from cass_lsp.toolchains.errors import ToolchainMissing

LLVM_MAJOR = 15
HINT = "apt-get install hipcc (brings clang-15 and llvm-15), then python -m cass_lsp.toolchains.devlibs15"


def folder() -> Path:
    return cache_root() / f"amdgcn-{LLVM_MAJOR}" / "bitcode"


def ensure() -> Path:
    """The folder, built if missing or stale; :class:`ToolchainMissing` without clang-15."""
    clang = shutil.which(f"clang++-{LLVM_MAJOR}")
    llvm_as = shutil.which(f"llvm-as-{LLVM_MAJOR}")
    version = amd.clang_version(Path(clang)) if clang else None
    if clang is None or llvm_as is None or version is None:
        raise ToolchainMissing(f"clang++-{LLVM_MAJOR} and llvm-as-{LLVM_MAJOR}", HINT)
    toolchain = amd.AmdToolchain(clang=Path(clang), clang_version=version, llvm_as=Path(llvm_as))
    return devlibs.ensure(toolchain=toolchain, final=folder())


def hint(arches: tuple[str, ...]) -> str | None:
    """How a ported build reaches the generated libraries, when a target needs them."""
    needed = [a for a in arches if a in devlibs.GENERATED_ARCHS]
    if not needed:
        return None
    where = folder()
    ready = devlibs.isa_file(where, needed[0]).exists()
    how = f"DEVICE_LIB_PATH={where} for hipcc, -DCASS_HIP_DEVICE_LIB_PATH={where} for CMake"
    return (f"{', '.join(needed)}: Debian 12's device libraries stop at gfx1036; on Debian's packages use "
            + how + ("" if ready else f" (build them first: python -m {__name__})"))


if __name__ == "__main__":
    try:
        print(ensure())
    except ToolchainMissing as missing:
        print(f"{__name__}: {missing}", file=sys.stderr)
        raise SystemExit(1) from missing
