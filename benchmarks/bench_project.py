#!/usr/bin/env python3
"""Porting whole projects (tests/corpus/projects), each figure a ratio against the original's nvcc
build measured in the same run.

Per project:

1. nvcc, the reference: the original through its own build where it can build here (make_rdc's
   Makefile pointed at the nvcc wheels' toolkit; its CMakeLists.txt with CMAKE_CUDA_COMPILER), else
   every CUDA unit compiled (``nvcc -c``, the project's flags, one target) one after another (the
   CUDA libraries' wheels here carry headers only, so cuBLAS and cuRAND programs cannot link);
2. translate: ``cass-lsp translate PROJECT --out-dir`` (sources and build files, a cold CLI);
3. HIP build: the translated tree through its own build system (make with hipcc; cmake configure
   + build with the HIP language and the Debian toolchain file). cmake_blas's translation needs
   hipBLAS, which Debian 12 does not package: on the host its units are compiled with hipcc as its
   CMake files say, as in tests/corpus/projects ("hipcc -c units"), and its whole CMake build is
   timed in the Debian 13 root of tests/corpus/projects/debian13.py, where Debian packages hipBLAS
   (configure + build + link, clang-17; the root is built before any timing).

Usage: .venv/bin/python benchmarks/bench_project.py [--runs 3]
"""

from __future__ import annotations

import argparse
import functools
import os
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from cass_lsp import toolchains
from cass_lsp.buildfiles import files
from cass_lsp.core import proc
from cass_lsp.toolchains import cudalibs, hiplibs
from tests.corpus.projects import debian13
from tests.corpus.projects.projects import ARCH, BY_NAME, Project, nvcc_make_variables, translate_tree

TIMEOUT_S = 900.0


class Row(NamedTuple):
    project: Project
    # make, cmake (both sides), cmake-hip and cmake-debian13 (the original only as nvcc -c units), units
    system: str


ROWS = (
    Row(BY_NAME["cmake_blas"], "units"),
    Row(BY_NAME["cmake_blas"], "cmake-debian13"),  # hipBLAS links only where Debian packages it
    Row(BY_NAME["findcuda_rand"], "cmake-hip"),  # the original needs cuRAND's library, absent here
    Row(BY_NAME["make_rdc"], "make"),
    Row(BY_NAME["make_rdc"], "cmake"),
)


def _timed(step: Callable[[], proc.ProcResult | list[proc.ProcResult]]) -> float:
    start = time.perf_counter()
    results = step()
    elapsed = time.perf_counter() - start
    for result in results if isinstance(results, list) else [results]:
        if not result.ok:
            raise SystemExit(f"a benchmark step failed:\n{result.text()[-3000:]}")
    return elapsed


def _nvcc_units(project: Project, nvcc: toolchains.Invocation) -> list[proc.ProcResult]:
    flags = list(project.nvcc)
    return [proc.run([*nvcc.argv, *flags, "-c", unit, "-o", os.devnull], env=nvcc.env, cwd=project.root,
                     timeout=TIMEOUT_S) for unit in project.units]


def _cmake(source: Path, build: Path, define: str, env: dict[str, str] | None = None) -> list[proc.ProcResult]:
    configure = proc.run(["cmake", "-S", str(source), "-B", str(build), define], env=env, timeout=TIMEOUT_S)
    if not configure.ok:
        return [configure]
    return [configure, proc.run(["cmake", "--build", str(build)], env=env, timeout=TIMEOUT_S)]


def _original_build(row: Row, nvcc: toolchains.Invocation) -> tuple[float, str]:
    """Seconds and what was timed."""
    project = row.project
    if row.system == "units":
        return _timed(functools.partial(_nvcc_units, project, nvcc)), "nvcc -c units"
    with tempfile.TemporaryDirectory(prefix="cass-bench-original-") as scratch:
        tree = Path(scratch) / project.name
        shutil.copytree(project.root, tree)
        if row.system == "make":
            argv = ["make", "-C", str(tree), *nvcc_make_variables(nvcc.argv[0])]
            return _timed(functools.partial(proc.run, argv, env=nvcc.env, timeout=TIMEOUT_S)), "make + nvcc"
        step = functools.partial(_cmake, tree, tree / "build", f"-DCMAKE_CUDA_COMPILER={nvcc.argv[0]}", nvcc.env)
        return _timed(step), "cmake + nvcc"


def _debian13_cmake(where: Path, tree: Path) -> list[proc.ProcResult]:
    """The translated tree copied into the Debian 13 root, configured with the toolchain file the
    translation report names and built there."""
    with debian13.workdir(where) as (host, inside):
        shutil.copytree(tree, host / tree.name)
        shutil.copyfile(files.TOOLCHAIN_FILE, host / "hip-debian.cmake")
        source = f"{inside}/{tree.name}"
        configure = debian13.run(where, ["cmake", "-S", source, "-B", f"{source}/build",
                                         f"-DCMAKE_TOOLCHAIN_FILE={inside}/hip-debian.cmake"], timeout=TIMEOUT_S)
        if not configure.ok:
            return [configure]
        return [configure, debian13.run(where, ["cmake", "--build", f"{source}/build"], timeout=TIMEOUT_S)]


def _hip_build(row: Row, tree: Path, trixie: Path | None) -> tuple[list[proc.ProcResult], str]:
    env = {**os.environ, "HIP_PLATFORM": "amd"}
    if row.system == "cmake-debian13":
        assert trixie is not None
        return _debian13_cmake(trixie, tree), "cmake + clang-17 in a Debian 13 root (links hipBLAS)"
    if row.system == "make":
        return [proc.run(["make", "-C", str(tree)], env=env, timeout=TIMEOUT_S)], "make + hipcc"
    if row.system in ("cmake", "cmake-hip"):
        return _cmake(tree, tree / "build", f"-DCMAKE_TOOLCHAIN_FILE={files.TOOLCHAIN_FILE}"), "cmake + clang-15"
    headers = hiplibs.include_dir("5.2")
    if headers is None:
        raise SystemExit(f"hipBLAS headers missing: {hiplibs.SETUP_HINT}")
    argv = ["hipcc", f"--offload-arch={ARCH}", "-std=c++17", "-gline-tables-only", "-ffast-math", "-Iinclude",
            f"-I{headers}", "-c"]
    return [proc.run([*argv, u.replace(".cu", ".hip"), "-o", os.devnull], env=env, cwd=tree, timeout=TIMEOUT_S)
            for u in row.project.units], "hipcc -c units (no hipBLAS library on Debian 12)"


def _original_system(row: Row) -> Row:
    return row._replace(system="units") if row.system in ("cmake-hip", "cmake-debian13") else row


def _debian13_root() -> Path | None:
    """The Debian 13 root when a row builds in it, built now so that no timing includes it."""
    if not any(row.system == "cmake-debian13" for row in ROWS):
        return None
    try:
        return debian13.ensure()
    except debian13.RootUnavailable as exc:
        raise SystemExit(f"no Debian 13 root for cmake_blas's build: {exc}") from exc


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--runs", type=int, default=3, help="runs per step (the median is reported)")
    args = parser.parse_args()
    cudalibs.fetch()  # the cuBLAS and cuRAND headers the projects include (nvcc_invocation adds them)
    nvcc = toolchains.nvcc_invocation("sm_80")
    trixie = _debian13_root()
    print(f"{'project':<28} {'nvcc s':>8} {'translate s':>12} {'ratio':>6} {'HIP build s':>12} {'ratio':>6}  "
          "reference / HIP build")
    for row in ROWS:
        originals = [_original_build(_original_system(row), nvcc) for _ in range(args.runs)]
        reference, what = statistics.median(o[0] for o in originals), originals[0][1]
        translate: list[float] = []
        build: list[float] = []
        how = ""
        for _ in range(args.runs):
            with tempfile.TemporaryDirectory(prefix="cass-bench-project-") as scratch:
                tree = Path(scratch) / row.project.name
                translate.append(_timed(functools.partial(translate_tree, row.project, tree)))
                start = time.perf_counter()
                results, how = _hip_build(row, tree, trixie)
                build.append(time.perf_counter() - start)
                for result in results:
                    if not result.ok:
                        raise SystemExit(f"{row.project.name}: the HIP build failed:\n{result.text()[-3000:]}")
        t, b = statistics.median(translate), statistics.median(build)
        label = f"{row.project.name} ({row.system})"
        print(f"{label:<28} {reference:>8.2f} {t:>12.2f} {t / reference:>6.2f} {b:>12.2f} "
              f"{b / reference:>6.2f}  {what} / {how}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
