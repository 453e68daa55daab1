"""``cass-lsp translate`` over trees with build files: ported with the sources, reported per file,
written as the sources are (--out-dir, --in-place with backups, standard output), and --reverse."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from cass_lsp.core import proc

CMAKE = "project(p LANGUAGES CXX CUDA)\nadd_executable(app main.cu)\ntarget_link_libraries(app CUDA::cudart)\n"
MAIN = "#include <cufft.h>\n__global__ void k() {}\nint main() { cufftHandle plan; cufftPlan1d(&plan, 8, CUFFT_C2C, 1); }\n"


def _translate(*args: str) -> proc.ProcResult:
    return proc.run([sys.executable, "-m", "cass_lsp", "translate", "--arch", "gfx1030", *args], timeout=120)


def _tree(root: Path) -> Path:
    root.mkdir()
    (root / "CMakeLists.txt").write_text(CMAKE + "find_package(CUDAToolkit REQUIRED)\n")
    (root / "main.cu").write_text(MAIN)
    (root / "build.mk").write_text("NVCC = nvcc\nLIBS = -lcufft\n")
    return root


def test_out_dir_ports_build_files_with_the_libraries_the_sources_use(tmp_path: Path) -> None:
    src = _tree(tmp_path / "src")
    result = _translate(str(src), "--out-dir", str(tmp_path / "out"))
    assert result.ok, result.text()
    cmake = (tmp_path / "out" / "CMakeLists.txt").read_text()
    assert "add_executable(app main.hip)" in cmake
    assert "find_package(hipfft REQUIRED)" in cmake  # from main.cu's cuFFT calls, not the CMake file
    assert (tmp_path / "out" / "build.mk").read_text() == ("NVCC = hipcc\nexport HIP_PLATFORM ?= amd\n"
                                                              "export HCC_AMDGPU_TARGET ?= gfx1030\nLIBS = -lhipfft\n")
    stderr = result.stderr.decode()
    assert f"{src / 'CMakeLists.txt'}: " in stderr and "build rewrite(s)" in stderr
    assert f"  {src / 'CMakeLists.txt'}:4: find_package(CUDAToolkit) -> find_package(hip REQUIRED)" in stderr
    assert "-DCMAKE_TOOLCHAIN_FILE=" in stderr


def test_in_place_keeps_source_names_and_backs_up_build_files(tmp_path: Path) -> None:
    src = _tree(tmp_path / "src")
    assert _translate(str(src), "--in-place").ok
    cmake = (src / "CMakeLists.txt").read_text()
    assert "add_executable(app main.cu)\nset_source_files_properties(main.cu PROPERTIES LANGUAGE HIP)" in cmake
    assert (src / "CMakeLists.txt.prehip").read_text().startswith(CMAKE)
    assert "hipfftPlan1d" in (src / "main.cu").read_text()


def test_one_build_file_to_standard_output_and_json(tmp_path: Path) -> None:
    (tmp_path / "CMakeLists.txt").write_text(CMAKE + "target_link_libraries(app CUDA::nvml)\n")
    text = _translate(str(tmp_path / "CMakeLists.txt"))
    assert text.ok and "project(p LANGUAGES CXX HIP)" in text.stdout.decode()
    report = json.loads(_translate(str(tmp_path / "CMakeLists.txt"), "--json").stdout)
    findings = report["reports"][0]["findings"]
    assert any(f["line"] == 4 and f["severity"] == "error" and f["code"] == "build-unmapped" for f in findings)
    strict = _translate(str(tmp_path / "CMakeLists.txt"), "--strict")
    assert strict.returncode == 1  # NVML stays: an error finding


def test_reverse_ports_a_translated_tree_back(tmp_path: Path) -> None:
    src = _tree(tmp_path / "src")
    assert _translate(str(src), "--out-dir", str(tmp_path / "hip")).ok
    assert _translate(str(tmp_path / "hip"), "--reverse", "--out-dir", str(tmp_path / "cuda")).ok
    cmake = (tmp_path / "cuda" / "CMakeLists.txt").read_text()
    assert "project(p LANGUAGES CXX CUDA)" in cmake and "add_executable(app main.cu)" in cmake
    assert "CUDA::cudart" in cmake
    assert (tmp_path / "cuda" / "build.mk").read_text() == "NVCC = nvcc\nLIBS = -lcufft\n"


def test_doctor_names_the_toolchain_file_for_ported_cmake_projects() -> None:
    from cass_lsp.buildfiles.files import TOOLCHAIN_FILE

    result = proc.run([sys.executable, "-m", "cass_lsp", "doctor", "--json"], timeout=120)
    tools = {t["name"]: t for t in json.loads(result.stdout)["tools"]}
    assert tools["build: hipcc (ported Makefiles)"]["found"], "scripts/setup.sh installs hipcc"
    cmake = tools["build: CMake HIP language"]
    assert cmake["found"] and TOOLCHAIN_FILE in cmake["version"]
    # a port's -fopenmp links LLVM's libomp, not gcc's libgomp: doctor names its package where missing
    from cass_lsp.buildfiles.tools import OPENMP_NAME

    openmp = tools[OPENMP_NAME]
    assert openmp["found"] or openmp["hint"].startswith("apt-get install libomp-"), openmp


def test_files_cmake_generated_in_a_build_tree_are_not_ported(tmp_path: Path) -> None:
    src = _tree(tmp_path / "src")
    (src / "build" / "CMakeFiles").mkdir(parents=True)
    (src / "build" / "CMakeCache.txt").write_text("CMAKE_CUDA_COMPILER:FILEPATH=/usr/local/cuda/bin/nvcc\n")
    (src / "build" / "Makefile").write_text("all:\n\t/usr/local/cuda/bin/nvcc -c a.cu\n")
    (src / "build" / "CMakeFiles" / "CMakeCUDACompiler.cmake").write_text('set(CMAKE_CUDA_COMPILER "nvcc")\n')
    result = _translate(str(src), "--out-dir", str(tmp_path / "out"))
    assert result.ok, result.text()
    assert (tmp_path / "out" / "CMakeLists.txt").is_file()
    assert not (tmp_path / "out" / "build").exists()


def test_make_compiler_clang(tmp_path: Path) -> None:
    src = _tree(tmp_path / "src")
    assert _translate(str(src), "--out-dir", str(tmp_path / "out"), "--make-compiler", "clang").ok
    assert (tmp_path / "out" / "build.mk").read_text() == "NVCC = clang++\nLIBS = -lhipfft\n"


def test_several_arches_reach_the_build_files_and_the_sources_take_the_first(tmp_path: Path) -> None:
    src = _tree(tmp_path / "src")
    result = proc.run([sys.executable, "-m", "cass_lsp", "translate", str(src), "--out-dir", str(tmp_path / "out"),
                       "--arch", "gfx1100,gfx90a", "--json"], timeout=120)
    assert result.ok, result.text()
    assert 'set(CMAKE_HIP_ARCHITECTURES "gfx1100;gfx90a" CACHE STRING' in (tmp_path / "out" / "CMakeLists.txt").read_text()
    assert json.loads(result.stdout)["arch"] == "gfx1100"
    text = proc.run([sys.executable, "-m", "cass_lsp", "translate", str(src), "--out-dir", str(tmp_path / "out2"),
                     "--arch", "gfx1100,gfx90a"], timeout=120)
    assert "sources are translated for gfx1100 (32-lane waves); gfx90a run 64-lane waves" in text.stderr.decode()
    bad = _translate(str(src), "--out-dir", str(tmp_path / "out3"), "--arch", "gfx1030,sm_90")
    assert bad.returncode == 2 and "unknown GPU arch 'sm_90'" in bad.stderr.decode()


def test_out_dir_copies_the_trees_other_files_but_not_build_products(tmp_path: Path) -> None:
    """A ported project's tests read its data files: the port must carry them."""
    src = _tree(tmp_path / "src")
    (src / "data").mkdir()
    (src / "data" / "plate.txt").write_text("4 4\n1 1 90\n")
    (src / "run.sh").write_text("#!/bin/sh\n./app data/plate.txt\n")
    (src / "run.sh").chmod(0o755)
    (src / "main.o").write_bytes(b"\x7fELF")
    (src / "build").mkdir()
    (src / "build" / "CMakeCache.txt").write_text("")
    (src / "build" / "app").write_bytes(b"\x7fELF")
    (src / ".git").mkdir()
    (src / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    out = src / "hip"  # inside the tree: not walked into itself
    result = _translate(str(src), "--out-dir", str(out))
    assert result.ok, result.text()
    copied = sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file())
    assert copied == ["CMakeLists.txt", "build.mk", "data/plate.txt", "main.hip", "run.sh"]
    assert (out / "run.sh").stat().st_mode & 0o111
    assert "2 other file(s) copied" in result.stderr.decode()
