"""The ported projects: where they are, how each unit of the original compiles with nvcc, and
how their translations are translated (``cass-lsp translate DIR --out-dir``)."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path
from typing import NamedTuple

import pytest

from cass_lsp.core import proc
from cass_lsp.toolchains import nvidia

HERE = Path(__file__).parent
ARCH = "gfx1030"
"""Debian 12's clang-15 device libraries build gfx1030 out of the box (gfx1100 needs regenerated ones)."""
BUILD_TIMEOUT_S = 600.0
SETUP_HINT = "run scripts/setup.sh (apt: hipcc, which brings clang-15)"
# An AMD code object for the target inside the program's offload bundle.
CODE_OBJECT = f"amdgcn-amd-amdhsa--{ARCH}".encode()


class Project(NamedTuple):
    name: str
    units: tuple[str, ...]  # CUDA units of the original, relative to the project
    nvcc: tuple[str, ...]  # the flags its build gives every unit (targets aside)
    build_files: tuple[str, ...]

    @property
    def root(self) -> Path:
        return HERE / self.name


PROJECTS = (
    Project("cmake_blas", ("src/scale.cu", "src/gemm.cu", "tests/test_vecops.cu"),
            ("-Iinclude", "-std=c++17", "--expt-relaxed-constexpr", "-lineinfo", "--use_fast_math"),
            ("CMakeLists.txt", "src/CMakeLists.txt", "app/CMakeLists.txt", "tests/CMakeLists.txt")),
    Project("findcuda_rand", ("src/sampler.cu", "src/estimate.cu", "src/main.cu"),
            ("-Iinclude", "-O3", "-std=c++14", "--expt-relaxed-constexpr", "-Xcompiler", "-Wall"),
            ("CMakeLists.txt",)),
    Project("make_rdc", ("src/forces.cu", "src/integrate.cu", "src/main.cu"),
            ("-Isrc", "-O2", "-std=c++17", "-rdc=true", "--expt-relaxed-constexpr", "-Xcompiler", "-Wall,-Wextra"),
            ("Makefile", "CMakeLists.txt")),
    # a benchmark choosing one of several programming models (-DMODEL=CUDA|OMP), whose CUDA model
    # sets nvcc flags before enable_language, has a clang-as-CUDA branch, rewrites
    # CMAKE_CUDA_FLAGS_${BUILD_TYPE} in a macro and names its compiler and NVIDIA target as options
    Project("cmake_models", ("src/cuda/CUDATriad.cu",),
            ("-Isrc", "-O3", "-std=c++17", "-forward-unknown-to-host-compiler", "-restrict", "--expt-relaxed-constexpr",
             "-Xcompiler", "-Wall"),
            ("CMakeLists.txt", "cmake/CUDA.cmake", "cmake/OMP.cmake", "cmake/register.cmake")),
    # Thrust and cuRAND through CUDA:: targets, its sources handed to a function of the project's
    Project("cmake_thrust", ("src/stats.cu",), ("-Iinclude", "-Icommon", "-std=c++17", "--expt-extended-lambda", "-lineinfo"),
            ("CMakeLists.txt", "cmake/bench.cmake", "Makefile")),
)
BY_NAME = {p.name: p for p in PROJECTS}
EXPECTED = HERE / "expected"
"""Each project's build files as ``translate --out-dir --arch gfx1030`` writes them, reviewed by hand."""


def nvcc_make_variables(nvcc: str) -> list[str]:
    """make variables that point a Makefile's ``$(CUDA_HOME)`` at the nvcc wheels' toolkit, whose
    layout differs from an installed one (``lib``, not ``lib64``; only ``libcudart.so.<major>``)."""
    root = Path(nvcc).resolve().parent.parent
    cudart = nvidia.versioned_cudart(Path(nvcc))
    return [f"CUDA_HOME={root}", f"LDFLAGS=-L{root / 'lib'}",
            f"LDLIBS=-l:{cudart.name if cudart else 'libcudart.so'} -lcudadevrt"]


def translate_tree(project: Project, out: Path, *extra: str) -> proc.ProcResult:
    """``cass-lsp translate`` over the whole project (sources and build files) into ``out``."""
    argv = [sys.executable, "-m", "cass_lsp", "translate", str(project.root), "--out-dir", str(out),
            "--arch", ARCH, *extra]
    return proc.run(argv, timeout=300)


def tool(name: str) -> str:
    """The program ``name`` on PATH; the test fails (never skips) where setup did not install it."""
    path = shutil.which(name)
    if path is None:
        pytest.fail(f"{name} not found: {SETUP_HINT}")
    return path


def offload_bundle(program: Path) -> None:
    """``program`` was built and holds an AMD code object for :data:`ARCH`."""
    assert program.is_file(), f"{program} was not built"
    assert CODE_OBJECT in program.read_bytes(), f"{program} holds no {ARCH} code object"
