"""``cass-lsp verify --project``: a project's programs as its own build defines them, with the real
cmake, make, nvcc, clang-19 and the CPU runtime.

cmake_heat (tests/corpus/projects/cmake_heat) is a CMake library of two kernel units shared by an
app, which reads a plate from the project's data folder and prints a timing line, and a test program
ctest runs once per kernel; its flags (a compile definition the header requires) come only from the
build. make_rdc is a Makefile of separately compiled units; make_xcu compiles its .cpp units as CUDA
(`nvcc -x cu -dc`).
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest

from cass_lsp.core import proc
from cass_lsp.verify import discovery as introspect
from cass_lsp.verify import project
from tests.corpus.projects.projects import HERE

HEAT = HERE / "cmake_heat"
_TIMEOUT_S = 900.0


def _verify(*args: str | Path) -> tuple[int, list[dict[str, Any]], str]:
    argv = [sys.executable, "-m", "cass_lsp", "verify", "--project", *map(str, args), "--json", "--no-cache"]
    result = proc.run(argv, timeout=_TIMEOUT_S)
    reports = json.loads(result.stdout) if result.stdout.strip() else []
    return result.returncode, reports, result.stderr.decode()


def _by_name(reports: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {r["summary"].split(":")[0]: r for r in reports}


@pytest.fixture(scope="module")
def heat_hip(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """cmake_heat translated as a user would: ``cass-lsp translate DIR --out-dir OUT``."""
    out = tmp_path_factory.mktemp("heat") / "cmake_heat-hip"
    result = proc.run([sys.executable, "-m", "cass_lsp", "translate", str(HEAT), "--out-dir", str(out), "--arch", "gfx1030"],
                      timeout=300)
    assert result.ok, result.text()
    return out


def test_each_ctest_test_of_the_translated_tree_runs_the_same(heat_hip: Path) -> None:
    code, reports, stderr = _verify(HEAT, "--translation", heat_hip, "--runner", "cpu", "--arch", "gfx1030")
    assert code == 0, stderr + json.dumps(reports, indent=1)
    found = _by_name(reports)
    assert set(found) == {f"build files of {heat_hip}", "test plate_steps", "test stencil", "test reduce"}
    assert all(r["verdict"] == "passed" for r in reports)
    plate = found["test plate_steps"]
    # the app and the two library units it links, each with its translation from the tree
    units = plate["program"]["units"]
    assert {Path(u["original"]).name for u in units} == {"main.cu", "stencil.cu", "reduce.cu"}
    assert {Path(u["translation"]).name for u in units} == {"main.hip", "stencil.hip", "reduce.hip"}
    assert all(u["translation"].startswith(str(heat_hip)) for u in units)
    run = next(s for s in plate["stages"] if s["name"] == "run")
    assert run["outcome"] == "passed" and "5 line(s) of output" in run["message"]


def test_a_wrong_kernel_fails_the_tests_that_link_it_and_only_those(heat_hip: Path, tmp_path: Path) -> None:
    wrong = tmp_path / "wrong"
    shutil.copytree(heat_hip, wrong)
    stencil = wrong / "src" / "stencil.hip"
    text = stencil.read_text()
    assert "- 4.0f * tile" in text
    stencil.write_text(text.replace("- 4.0f * tile", "- 3.0f * tile"))
    code, reports, stderr = _verify(HEAT, "--translation", wrong, "--runner", "cpu", "--arch", "gfx1030")
    assert code == 1, stderr
    verdicts = {name: r["verdict"] for name, r in _by_name(reports).items()}
    assert verdicts == {f"build files of {wrong}": "passed", "test plate_steps": "failed", "test stencil": "failed",
                        "test reduce": "passed"}


def test_a_translated_build_that_drops_a_unit_fails(heat_hip: Path, tmp_path: Path) -> None:
    tree = tmp_path / "dropped"
    shutil.copytree(heat_hip, tree)
    build_file = tree / "src" / "CMakeLists.txt"
    build_file.write_text(build_file.read_text().replace(" reduce.hip", ""))
    code, reports, _ = _verify(HEAT, "--translation", tree, "--arch", "gfx1030")
    assert code == 1
    build = _by_name(reports)[f"build files of {tree}"]
    assert build["verdict"] == "failed"
    assert "heat_app no longer builds src/reduce.hip" in build["summary"]


def test_a_package_this_machine_lacks_is_could_not_verify_not_failed(heat_hip: Path, tmp_path: Path) -> None:
    tree = tmp_path / "needs_a_package"
    shutil.copytree(heat_hip, tree)
    top = tree / "CMakeLists.txt"
    top.write_text(top.read_text() + "find_package(cass_no_such_package REQUIRED)\n")
    code, reports, _ = _verify(HEAT, "--translation", tree, "--arch", "gfx1030")
    assert code == 2
    build = _by_name(reports)[f"build files of {tree}"]
    assert build["verdict"] == "unverified"
    assert "needs the package cass_no_such_package" in build["summary"]


def test_a_makefile_project_runs_the_named_command() -> None:
    code, reports, stderr = _verify(HERE / "make_rdc", "--build-system", "make", "--run", "./nbody", "--runner", "cpu")
    assert code == 0, stderr + json.dumps(reports, indent=1)
    (report,) = reports
    assert report["summary"].startswith("./nbody: ") and report["verdict"] == "passed"
    units = report["program"]["units"]
    assert {Path(u["original"]).name for u in units} == {"main.cu", "forces.cu", "integrate.cu"}
    assert all("-rdc=true" in u["arguments"] for u in units)  # the Makefile's flags, separate compilation


def test_cpp_units_a_makefile_compiles_as_cuda_are_compiled_as_cuda() -> None:
    """make_xcu: `%.o: %.cpp` with `nvcc -x cu -dc` (NVIDIA's separate-compilation sample has this
    shape); verify once handed those units to the host compiler: "could not verify: the original
    does not compile" at `__host__ __device__`."""
    run = "./particles 2000 10"
    code, reports, stderr = _verify(HERE / "make_xcu", "--build-system", "make", "--run", run, "--runner", "cpu")
    assert code == 0, stderr + json.dumps(reports, indent=1)
    (report,) = reports
    assert report["verdict"] == "passed", report["summary"]
    units = report["program"]["units"]
    assert {Path(u["original"]).name for u in units} == {"main.cpp", "particle.cpp", "vec3.cpp"}
    original = next(s for s in report["stages"] if s["name"] == "original")
    assert original["outcome"] == "passed", original["message"]


def _cmake_project(root: Path, package: str, links: str) -> Path:
    """A one-unit CMake project that finds ``package`` and whose program links ``links``."""
    root.mkdir()
    (root / "CMakeLists.txt").write_text(
        f"cmake_minimum_required(VERSION 3.18)\nproject(app LANGUAGES CXX CUDA)\nfind_package({package} REQUIRED)\n"
        f"add_executable(app app.cu)\ntarget_link_libraries(app PRIVATE {links})\n"
    )
    (root / "app.cu").write_text('#include <cstdio>\nint main() { std::puts("ok"); }\n')
    return root


def test_an_original_build_that_cannot_configure_here_is_could_not_verify(tmp_path: Path) -> None:
    root = _cmake_project(tmp_path / "needs_a_package", "NoSuchPackage", "NoSuchPackage::lib")
    code, reports, stderr = _verify(root, "--runner", "cpu")
    assert code == 2
    assert "could not verify: the original's build cannot be read here" in stderr
    (report,) = reports  # --json: the outcome is JSON on stdout too
    assert report["verdict"] == "unverified"
    assert report["summary"].startswith(f"project {root}: could not verify: the original's build cannot")
    assert "NoSuchPackage" in report["stages"][0]["output"]


def test_a_build_linking_cuda_libraries_the_nvcc_wheels_lack_is_read(tmp_path: Path) -> None:
    """The PyPI nvcc wheels carry no libcublas, libnvrtc or libcuda: FindCUDAToolkit made no
    CUDA::cublas, and cuda-samples' cuBLAS, NVRTC and driver-API programs (cmake_blas too) were "could
    not verify: the original's build cannot be read here". Verify reads the build, never links it."""
    root = _cmake_project(tmp_path / "links_libraries", "CUDAToolkit", "CUDA::cublas CUDA::nvrtc CUDA::cuda_driver")
    found = project.read(root, run="app", system=None, scratch=tmp_path / "scratch")
    assert [c.name for c in found.checks] == ["app"]
    assert [Path(s.file).name for s in found.checks[0].executable.sources] == ["app.cu"]
def test_with_json_a_project_refused_before_its_build_is_read_is_json_too(tmp_path: Path) -> None:
    code, reports, _ = _verify(tmp_path / "no_such_project")
    assert code == 2
    assert [r["verdict"] for r in reports] == ["unverified"] and "not a folder" in reports[0]["summary"]


def test_a_command_that_names_no_executable_of_the_build_is_refused() -> None:
    code, reports, stderr = _verify(HEAT, "--run", "heat data/plate.txt 3")
    assert code == 2 and [r["verdict"] for r in reports] == ["unverified"]
    assert "heat is not an executable the build makes (its executables: heat_app, test_heat)" in stderr


def test_make_dry_run_links_objects_and_archives_back_to_their_units(tmp_path: Path) -> None:
    printed = f"""make: Entering directory '{tmp_path}'
nvcc -O2 -Isrc -c src/a.cu -o build/a.o
nvcc -O2 -Isrc -c src/b.cu -o build/b.o && echo done
ar rcs build/libk.a build/b.o
make[1]: Entering directory '{tmp_path}/tools'
g++-12 -O2 -o gen gen.cpp
make[1]: Leaving directory '{tmp_path}/tools'
nvcc -o app build/a.o build/libk.a -lcudart
make: Leaving directory '{tmp_path}'
"""
    found = {e.name: e for e in introspect._make_executables(printed, tmp_path)}
    assert set(found) == {"app", "gen"}
    assert [s.file for s in found["app"].sources] == [str(tmp_path / "src" / "a.cu"), str(tmp_path / "src" / "b.cu")]
    assert found["app"].sources[0].arguments == ("-O2", "-Isrc", "-c", "src/a.cu", "-o", "build/a.o")
    assert found["gen"].path == str(tmp_path / "tools" / "gen")
    assert found["gen"].sources[0].directory == str(tmp_path / "tools")


MODELS = HERE / "cmake_stream_models"
"""A stream benchmark of several programming models (tests/corpus/projects/cmake_stream_models): ``-DMODEL=cuda``
picks the CUDA one, whose ``CUDA_ARCH`` cache option names an NVIDIA target."""
_MODEL_OPTIONS = ("--configure-arg=-DMODEL=cuda", "--configure-arg=-DCUDA_ARCH=sm_80")


@pytest.fixture(scope="module")
def models_hip(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("models") / "cmake_stream_models-hip"
    result = proc.run([sys.executable, "-m", "cass_lsp", "translate", str(MODELS), "--out-dir", str(out), "--arch", "gfx1030"],
                      timeout=300)
    assert result.ok, result.text()
    return out


def test_the_translated_build_gets_the_projects_options_less_the_cuda_only_ones(models_hip: Path) -> None:
    code, reports, stderr = _verify(MODELS, "--translation", models_hip, *_MODEL_OPTIONS, "--run", "cuda-stream 4096",
                                    "--arch", "gfx1030")
    build = _by_name(reports)[f"build files of {models_hip}"]
    assert build["verdict"] == "passed", stderr + json.dumps(reports, indent=1)  # MODEL reached the port's configure
    assert "left out: -DCUDA_ARCH=sm_80 (CUDA-only: NVIDIA targets)" in build["summary"]
    assert code == 0


def test_a_port_that_stops_at_an_option_verify_left_out_is_could_not_verify(models_hip: Path, tmp_path: Path) -> None:
    tree = tmp_path / "asks_for_cuda_arch"
    shutil.copytree(models_hip, tree)
    model = tree / "models" / "cuda.cmake"
    model.write_text('if(NOT DEFINED CUDA_ARCH)\n  message(FATAL_ERROR "CUDA_ARCH is not set")\nendif()\n'
                     + model.read_text().replace('set(CUDA_ARCH "sm_70" CACHE STRING "NVIDIA target, e.g. sm_80")\n', ""))
    code, reports, _ = _verify(MODELS, "--translation", tree, *_MODEL_OPTIONS, "--run", "cuda-stream 4096", "--arch", "gfx1030")
    build = _by_name(reports)[f"build files of {tree}"]
    assert build["verdict"] == "unverified" and code == 2
    assert "stops at CUDA_ARCH, an option of the original's that verify leaves out" in build["summary"]
