"""What building a ported project needs here, for ``cass-lsp doctor`` (optional entries: the
language server works without them)."""

from __future__ import annotations

import glob
import os
import shutil

from cass_lsp.buildfiles.files import TOOLCHAIN_FILE
from cass_lsp.toolchains import ToolStatus

ROCM_HIP_LANG = "/opt/rocm/lib/cmake/hip-lang"
DEBIAN_HINT = "apt-get install hipcc (Debian 12: brings clang-15, whose offload bundler LLVM 19 lacks)"


def status() -> list[ToolStatus]:
    hipcc = shutil.which("hipcc")
    statuses = [ToolStatus(name="build: hipcc (ported Makefiles)", found=hipcc is not None, path=hipcc,
                           hint=None if hipcc else DEBIAN_HINT)]
    if os.path.isdir(ROCM_HIP_LANG):
        statuses.append(ToolStatus(name="build: CMake HIP language", found=True, path=ROCM_HIP_LANG,
                                   version="ROCm install: ported CMake projects configure as they are"))
        return statuses
    clang = shutil.which("clang++-15")
    debian = glob.glob("/usr/lib/*/cmake/hip-lang")
    found = clang is not None and bool(debian)
    statuses.append(ToolStatus(
        name="build: CMake HIP language", found=found, path=clang,
        version=f"Debian packages: configure ported CMake projects with -DCMAKE_TOOLCHAIN_FILE={TOOLCHAIN_FILE}"
        if found else None,
        hint=None if found else f"{DEBIAN_HINT}; libamdhip64-dev for the hip-lang package"))
    return statuses
