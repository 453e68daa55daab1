"""Projects shaped like benchmark programs: ``.cu`` files included by other ``.cu`` files, a Makefile
that finds nvcc with ``$(shell which nvcc)``, pattern rules behind wrapper variables with
``-Xcompiler`` / ``-Xlinker`` / ``-Xptxas`` groups, a CMake unit that includes kernels from its
include path. Each is translated with ``--out-dir`` and with ``--in-place``, and the port is built
by its own build (make with hipcc or clang++-15, CMake with the HIP language) with no hand edit.
"""

from __future__ import annotations

import glob
import os
import shutil
import sys
from pathlib import Path

import pytest

from cass_lsp import toolchains
from cass_lsp.buildfiles import files, tools
from cass_lsp.core import proc
from tests.corpus.projects.projects import (
    ARCH,
    BUILD_TIMEOUT_S,
    Project,
    offload_bundle,
    tool,
    translate_tree,
)

LUD = Project("make_lud", ("main.cu",), ("-O3", "-std=c++17", "-Xcompiler", "-Wall"), ("Makefile",))
PATTERNS = Project("make_patterns", ("saxpy.cu", "reduce.cu", "histogram.cu", "bins.cu", "omp_stats.cu"),
                   ("-O2", "-Iinclude", "-Xcompiler", "-Wall,-Wextra,-fopenmp"), ("Makefile",))
INCLUDED = Project("cmake_included", ("src/main.cu",), ("-std=c++17", "-Iinclude", "-Ikernels"), ("CMakeLists.txt",))
MODES = ("out-dir", "in-place")


def _port(project: Project, mode: str, tmp_path: Path, *extra: str) -> tuple[Path, str]:
    """The project translated into a folder of its own (``in-place``: a copy translated in place):
    the port's root and the translation's standard error."""
    tree = tmp_path / project.name
    if mode == "out-dir":
        result = translate_tree(project, tree, *extra)
    else:
        shutil.copytree(project.root, tree)
        result = proc.run([sys.executable, "-m", "cass_lsp", "translate", str(tree), "--in-place", "--arch", ARCH,
                           *extra], timeout=300)
    assert result.ok, result.text()
    stderr = result.stderr.decode()
    assert "Traceback" not in stderr
    return tree, stderr


def _hipcc_env(nvcc: toolchains.Invocation) -> dict[str, str]:
    """nvcc on PATH, as on a CUDA machine: the port's Makefile itself must make hipcc choose AMD."""
    env = {**os.environ, "PATH": f"{Path(nvcc.argv[0]).parent}:{os.environ['PATH']}"}
    env.pop("HIP_PLATFORM", None)
    return env


@pytest.mark.parametrize(("project", "unit"), [(p, u) for p in (LUD, PATTERNS, INCLUDED) for u in p.units],
                         ids=lambda v: v.name if isinstance(v, Project) else v)
def test_original_unit_compiles_with_nvcc(project: Project, unit: str, nvcc: toolchains.Invocation) -> None:
    argv = [*nvcc.argv, *project.nvcc, "-arch=sm_80", "-c", unit, "-o", os.devnull]
    result = proc.run(argv, env=nvcc.env, cwd=project.root, timeout=BUILD_TIMEOUT_S)
    assert result.ok, f"nvcc rejected {project.name}/{unit}:\n{result.text()}"


@pytest.mark.parametrize("mode", MODES)
def test_included_kernels_and_a_compiler_found_on_path_build_with_hipcc(
    mode: str, tmp_path: Path, nvcc: toolchains.Invocation
) -> None:
    """main.cu includes "src/lud_kernels.cu", which includes "lud_device.cu" beside it; the Makefile
    finds nvcc with $(shell which nvcc) and derives the toolkit's root from it."""
    tool("hipcc")
    tree, _ = _port(LUD, mode, tmp_path)
    suffix = ".hip" if mode == "out-dir" else ".cu"
    main = (tree / f"main{suffix}").read_text()
    assert f'#include "src/lud_kernels{suffix}"' in main
    assert f'#include "lud_device{suffix}"' in (tree / "src" / f"lud_kernels{suffix}").read_text()
    makefile = (tree / "Makefile").read_text()
    assert "NVCC := $(shell which hipcc 2>/dev/null)" in makefile
    assert "ROCM_PATH ?= $(patsubst %/bin/hipcc,%,$(NVCC))" in makefile
    # the script that names the sources names the port's
    assert f"for source in main{suffix} src/lud_kernels{suffix} src/lud_device{suffix}; do" in (
        tree / "run.sh").read_text()
    assert os.access(tree / "run.sh", os.X_OK)
    result = proc.run([tool("make"), "-C", str(tree), "lud"], env=_hipcc_env(nvcc), timeout=BUILD_TIMEOUT_S)
    assert result.ok, result.text()
    assert f"--offload-arch={ARCH}" in result.text() and "-Wl,-rpath," in result.text()
    offload_bundle(tree / "lud")


@pytest.mark.parametrize("mode", MODES)
def test_pattern_rules_and_wrapper_variables_build_with_hipcc(
    mode: str, tmp_path: Path, nvcc: toolchains.Invocation
) -> None:
    """%: %.cu and %.o: %.cu behind CUCC = $(NVCC) -ccbin $(CXX), NVCC = $(CUDA_BIN)/nvcc; in place
    the rules keep their .cu names, which hipcc compiles as HIP: both ports build alike."""
    tool("hipcc")
    tree, _ = _port(PATTERNS, mode, tmp_path)
    suffix = ".hip" if mode == "out-dir" else ".cu"
    assert f"%: %{suffix}" in (tree / "Makefile").read_text()
    result = proc.run([tool("make"), "-C", str(tree)], env=_hipcc_env(nvcc), timeout=BUILD_TIMEOUT_S)
    assert result.ok, result.text()
    assert "-ccbin" not in result.text() and "-Wl,--as-needed" in result.text()
    for program in ("saxpy", "reduce", "histogram"):
        offload_bundle(tree / program)


def test_pattern_rules_in_place_build_with_clang_in_hip_mode(tmp_path: Path) -> None:
    """Sources keep their .cu names in place: clang++ needs -x hip on %: %.cu's compile-and-link
    line as on the %.o: %.cu compile line."""
    clang = tool("clang++-15")
    tree, _ = _port(PATTERNS, "in-place", tmp_path, "--make-compiler", "clang")
    bitcode = glob.glob("/usr/lib/*/amdgcn/bitcode")
    compiler = f"NVCC={clang} --rocm-path=/usr --hip-device-lib-path={bitcode[0] if bitcode else ''}"
    result = proc.run([tool("make"), "-C", str(tree), compiler], timeout=BUILD_TIMEOUT_S)
    assert result.ok, result.text()
    assert "-x hip --hip-link" in result.text()
    for program in ("saxpy", "reduce", "histogram"):
        offload_bundle(tree / program)


def test_openmp_under_hipcc_names_llvm_openmp_when_it_is_missing(tmp_path: Path, nvcc: toolchains.Invocation) -> None:
    """-Xcompiler -fopenmp (gcc's libgomp under nvcc) is LLVM's OpenMP under hipcc: the report names
    the package where it is missing, and the build then fails for that reason alone."""
    tool("hipcc")
    tree, stderr = _port(PATTERNS, "out-dir", tmp_path)
    assert "omp_stats: CUFLAGS += -fopenmp\n" in (tree / "Makefile").read_text()
    runtime = tools.openmp()
    result = proc.run([tool("make"), "-C", str(tree), "omp_stats"], env=_hipcc_env(nvcc), timeout=BUILD_TIMEOUT_S)
    if runtime.found:
        assert result.ok, result.text()
        offload_bundle(tree / "omp_stats")
    else:
        assert runtime.hint is not None and runtime.hint.startswith("apt-get install libomp-")
        assert runtime.hint in stderr
        assert not result.ok and ("'omp.h' file not found" in result.text() or "-lomp" in result.text())


def _cmake_build(tree: Path, build: Path) -> Path:
    """Configure ``tree`` with the HIP toolchain file and build it in ``build``; the build folder."""
    configure = proc.run([tool("cmake"), "-S", str(tree), "-B", str(build),
                          f"-DCMAKE_TOOLCHAIN_FILE={files.TOOLCHAIN_FILE}"], timeout=BUILD_TIMEOUT_S)
    assert configure.ok, configure.text()
    result = proc.run([tool("cmake"), "--build", str(build)], timeout=BUILD_TIMEOUT_S)
    assert result.ok, result.text()
    return build


@pytest.mark.parametrize("mode", MODES)
def test_a_cmake_unit_including_kernels_from_its_include_path_builds(mode: str, tmp_path: Path) -> None:
    tool("clang++-15")
    tree, _ = _port(INCLUDED, mode, tmp_path)
    suffix = ".hip" if mode == "out-dir" else ".cu"
    main = (tree / "src" / f"main{suffix}").read_text()
    assert f'#include "stencil{suffix}"' in main and f'#include "../kernels/boundary{suffix}"' in main
    offload_bundle(_cmake_build(tree, tmp_path / "build") / "heat2d")



_QUERIED_ARCH = """\
NVCC := $(shell which nvcc 2>/dev/null)
# dev/cuda's shape: the GPU asked for its compute capability
ifndef GPU_COMPUTE_CAPABILITY
  GPU_COMPUTE_CAPABILITY = $(shell __nvcc_device_query)
  GPU_COMPUTE_CAPABILITY := $(strip $(GPU_COMPUTE_CAPABILITY))
endif
ifeq ($(GPU_COMPUTE_CAPABILITY),)
  CFLAGS = -O3
else
  CFLAGS = -O3 --generate-code arch=compute_$(GPU_COMPUTE_CAPABILITY),code=[compute_$(GPU_COMPUTE_CAPABILITY),sm_$(GPU_COMPUTE_CAPABILITY)]
endif
# the top-level Makefile's shape: a target flag only where nvidia-smi answers
ifneq ($(shell which nvidia-smi 2>/dev/null),)
  GUARDED_FLAGS = -arch=sm_$(shell nvidia-smi --query-gpu=compute_cap --format=csv,noheader | sed 's/\\.//g')
endif
%: %.cu
\t$(NVCC) $(CFLAGS) $< -o $@
guarded: queried.cu
\t$(NVCC) -O3 $(GUARDED_FLAGS) $< -o $@
"""


def test_a_makefile_that_asks_the_gpu_for_its_target_builds_for_the_configured_one(
    tmp_path: Path, nvcc: toolchains.Invocation
) -> None:
    """llm.c's Makefiles take the target from the NVIDIA GPU (``__nvcc_device_query``, ``nvidia-smi``),
    and without one add no target flag: the port built for clang's default target (hipcc asks
    rocm_agent_enumerator, which finds no GPU here), not the configured one."""
    tool("hipcc")
    source = tmp_path / "src"
    source.mkdir()
    (source / "Makefile").write_text(_QUERIED_ARCH)
    (source / "queried.cu").write_text("#include <cstdio>\n__global__ void k(int* p) { p[threadIdx.x] = 1; }\n"
                                       "int main() { std::printf(\"%p\\n\", (void*)k); return 0; }\n")
    tree = tmp_path / "port"
    result = proc.run([sys.executable, "-m", "cass_lsp", "translate", str(source), "--out-dir", str(tree),
                       "--arch", ARCH], timeout=300)
    assert result.ok and "Traceback" not in result.text(), result.text()
    built = proc.run([tool("make"), "-C", str(tree), "queried", "guarded"], env=_hipcc_env(nvcc),
                     timeout=BUILD_TIMEOUT_S)
    assert built.ok, built.text()
    offload_bundle(tree / "queried")
    offload_bundle(tree / "guarded")


@pytest.mark.parametrize("mode", MODES)
def test_sources_listed_in_a_variable_build_in_place_as_from_out_dir(mode: str, tmp_path: Path) -> None:
    """``set(SOURCES main.cu)`` / ``list(APPEND SOURCES kern.cu)`` then ``add_executable(app
    ${SOURCES})``: in place the files keep their .cu names, and CMake left them out of the build (no
    CUDA language), so make found no rule for the target; from --out-dir they are .hip files."""
    tool("clang++-15")
    source = tmp_path / "cmake_listed"
    source.mkdir()
    (source / "CMakeLists.txt").write_text("cmake_minimum_required(VERSION 3.18)\nproject(listed LANGUAGES CXX CUDA)\n"
                                           "set(SOURCES main.cu)\nlist(APPEND SOURCES kern.cu)\n"
                                           "add_executable(app ${SOURCES})\n")
    (source / "main.cu").write_text("void launch(int* p);\nint main() { launch(nullptr); return 0; }\n")
    (source / "kern.cu").write_text("__global__ void k(int* p) { if (p) p[0] = 1; }\n"
                                    "void launch(int* p) { k<<<1, 1>>>(p); }\n")
    tree = source
    if mode == "out-dir":
        tree = tmp_path / "port"
        where = ["--out-dir", str(tree)]
    else:
        where = ["--in-place"]
    result = proc.run([sys.executable, "-m", "cass_lsp", "translate", str(source), *where, "--arch", ARCH],
                      timeout=300)
    assert result.ok and "Traceback" not in result.text(), result.text()
    offload_bundle(_cmake_build(tree, tmp_path / "build") / "app")
