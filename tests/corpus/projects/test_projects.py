"""Whole projects ported: each original's units compile with the real nvcc, ``cass-lsp translate DIR
--out-dir`` writes the build files reviewed in ``expected/``, and the translated trees build AMD
programs through their own build systems with Debian's toolchain (hipcc / clang++-15, installed by
scripts/setup.sh), with no hand edits.

cmake_blas's translation needs hipBLAS to configure and link, which Debian 12 does not package (the
headers come from Debian 13 through ``cass-lsp setup --only hip-libs``, the library does not): here
its units are compiled on the host as its CMake build compiles them, and test_blas_link.py configures,
builds and links the whole tree against libhipblas in a Debian 13 root.
"""

from __future__ import annotations

import glob
import os
import re
import shutil
import sys
from pathlib import Path

import pytest

from cass_lsp import toolchains
from cass_lsp.buildfiles import files
from cass_lsp.core import proc
from cass_lsp.toolchains import devlibs, devlibs15, hiplibs
from tests.corpus.projects.projects import (
    ARCH,
    BUILD_TIMEOUT_S,
    BY_NAME,
    EXPECTED,
    HERE,
    PROJECTS,
    Project,
    nvcc_make_variables,
    offload_bundle,
    tool,
    translate_tree,
)


@pytest.mark.parametrize(("project", "unit"), [(p, u) for p in PROJECTS for u in p.units],
                         ids=lambda v: v.name if isinstance(v, Project) else v)
def test_original_unit_compiles_with_nvcc(
    project: Project, unit: str, nvcc: toolchains.Invocation
) -> None:
    argv = [*nvcc.argv, *project.nvcc, "-c", unit, "-o", os.devnull]
    result = proc.run(argv, env=nvcc.env, cwd=project.root, timeout=BUILD_TIMEOUT_S)
    assert result.ok, f"nvcc rejected {project.name}/{unit}:\n{result.text()}"


def test_original_makefile_builds_with_nvcc(tmp_path: Path, nvcc: toolchains.Invocation) -> None:
    """The original through its own build: separate compilation and nvcc's device link."""
    tree = tmp_path / "make_rdc"
    shutil.copytree(BY_NAME["make_rdc"].root, tree)
    result = proc.run([tool("make"), "-C", str(tree), *nvcc_make_variables(nvcc.argv[0])], env=nvcc.env,
                      timeout=BUILD_TIMEOUT_S)
    assert result.ok, result.text()
    assert "-rdc=true" in result.text()
    assert b"sm_80" in (tree / "nbody").read_bytes()


def test_original_cmake_project_builds_with_nvcc(tmp_path: Path, nvcc: toolchains.Invocation) -> None:
    """make_rdc's CMakeLists.txt through CMake's CUDA language: separable compilation, device link."""
    build = tmp_path / "build"
    configure = proc.run([tool("cmake"), "-S", str(BY_NAME["make_rdc"].root), "-B", str(build),
                          f"-DCMAKE_CUDA_COMPILER={nvcc.argv[0]}"], env=nvcc.env, timeout=BUILD_TIMEOUT_S)
    assert configure.ok, configure.text()
    result = proc.run([tool("cmake"), "--build", str(build)], env=nvcc.env, timeout=BUILD_TIMEOUT_S)
    assert result.ok, result.text()
    assert "Linking CUDA device code" in result.text()
    assert b"sm_80" in (build / "nbody").read_bytes()


@pytest.fixture(scope="module")
def translated(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Path, str]]:
    """Each project translated once: (output tree, standard error)."""
    out: dict[str, tuple[Path, str]] = {}
    for project in PROJECTS:
        tree = tmp_path_factory.mktemp("translated") / project.name
        result = translate_tree(project, tree)
        assert result.ok, result.text()
        out[project.name] = (tree, result.stderr.decode())
    return out


@pytest.mark.parametrize("project", PROJECTS, ids=lambda p: p.name)
def test_translated_build_files_are_the_reviewed_ones(
    project: Project, translated: dict[str, tuple[Path, str]]
) -> None:
    tree, stderr = translated[project.name]
    for build_file in project.build_files:
        expected = (EXPECTED / project.name / build_file).read_text()
        assert (tree / build_file).read_text() == expected, build_file
        assert f"{project.root / build_file}: " in stderr  # reported per build file
    sources = {p.relative_to(tree).as_posix() for p in tree.rglob("*.hip")}
    assert sources == {u.replace(".cu", ".hip") for u in project.units}
    if any(files.kind(b) == "cmake" for b in project.build_files):
        assert files.TOOLCHAIN_FILE in stderr


def test_translated_makefile_builds_separately_compiled_units_with_hipcc(
    translated: dict[str, tuple[Path, str]], nvcc: toolchains.Invocation
) -> None:
    tool("hipcc")
    tree, _ = translated["make_rdc"]
    # nvcc on PATH, as on a CUDA machine: the Makefile itself must make hipcc choose AMD.
    env = {**os.environ, "PATH": f"{Path(nvcc.argv[0]).parent}:{os.environ['PATH']}"}
    env.pop("HIP_PLATFORM", None)
    result = proc.run([tool("make"), "-C", str(tree)], env=env, timeout=BUILD_TIMEOUT_S)
    assert result.ok, result.text()
    assert "-fgpu-rdc" in result.text() and f"--offload-arch={ARCH}" in result.text()
    offload_bundle(tree / "nbody")


def test_translated_makefile_builds_with_clang_in_hip_mode(tmp_path: Path) -> None:
    """--make-compiler clang: -x hip on compile lines, --hip-link on the link; the compiler variable
    names Debian's HIP-capable clang, as the finding says."""
    clang = tool("clang++-15")
    tree = tmp_path / "make_rdc"
    translated = translate_tree(BY_NAME["make_rdc"], tree, "--make-compiler", "clang")
    assert translated.ok, translated.text()
    bitcode = glob.glob("/usr/lib/*/amdgcn/bitcode")
    compiler = f"NVCC={clang} --rocm-path=/usr --hip-device-lib-path={bitcode[0] if bitcode else ''}"
    result = proc.run([tool("make"), "-C", str(tree), compiler], timeout=BUILD_TIMEOUT_S)
    assert result.ok, result.text()
    assert "-x hip" in result.text() and "--hip-link -fgpu-rdc" in result.text()
    offload_bundle(tree / "nbody")


# the options a user of the CUDA original gives its configure, meaningless for the port, which must
# still configure with them
_CUDA_OPTIONS = ("-DCUDA_ARCH=sm_80", "-DCMAKE_CUDA_ARCHITECTURES=80", "-DCMAKE_CUDA_COMPILER=/usr/local/cuda/bin/nvcc")


@pytest.mark.parametrize(("name", "program", "options"), [
    ("findcuda_rand", "montecarlo", ()), ("make_rdc", "nbody", ()),
    ("cmake_models", "triad-CUDA", ("-DMODEL=CUDA",)), ("cmake_thrust", "samplestats", _CUDA_OPTIONS)])
def test_translated_cmake_project_configures_and_builds_with_the_hip_language(
    name: str, program: str, options: tuple[str, ...], translated: dict[str, tuple[Path, str]], tmp_path: Path
) -> None:
    """FindCUDA's macros; a static library of relocatable device code linked into a program; a
    multi-model benchmark whose CUDA model sets CMAKE_CUDA_FLAGS (nvcc's options, a clang-as-CUDA
    branch) before enable_language, so the port sets CMAKE_HIP_FLAGS there, and whose own macro
    requires CUDA_ARCH, which the port configures without; Thrust, which Debian 12 packages for HIP
    only through the headers `cass-lsp setup --only hip-libs` fetched, with nvcc options in generator
    expressions and a suite's helper header naming cuBLAS and cuFFT (which this machine lacks) in
    blocks the program never compiles."""
    tool("clang++-15")
    tree, _ = translated[name]
    build = tmp_path / "build"  # outside the shared tree, which other tests read as translate wrote it
    configure = proc.run([tool("cmake"), "-S", str(tree), "-B", str(build),
                          f"-DCMAKE_TOOLCHAIN_FILE={files.TOOLCHAIN_FILE}", *options], timeout=BUILD_TIMEOUT_S)
    assert configure.ok, configure.text()
    assert "The HIP compiler identification is Clang" in configure.text()
    result = proc.run([tool("cmake"), "--build", str(build)], timeout=BUILD_TIMEOUT_S)
    assert result.ok, result.text()
    offload_bundle(build / program)


def test_translated_thrust_makefile_builds_with_the_headers_the_report_names(
    translated: dict[str, tuple[Path, str]], tmp_path: Path, nvcc: toolchains.Invocation
) -> None:
    """Debian 12 packages no rocThrust: the report's line points hipcc at the fetched headers."""
    tool("hipcc")
    if hiplibs.include_dir("5.2") is None:
        pytest.fail(f"rocThrust headers missing: {hiplibs.SETUP_HINT}")
    source, stderr = translated["cmake_thrust"]
    line = re.search(r"HIPCC_COMPILE_FLAGS_APPEND='(?P<flags>[^']+)' make", stderr)
    assert line is not None, stderr
    tree = tmp_path / "cmake_thrust"
    shutil.copytree(source, tree)
    env = {**os.environ, "PATH": f"{Path(nvcc.argv[0]).parent}:{os.environ['PATH']}",
           "HIPCC_COMPILE_FLAGS_APPEND": line.group("flags")}
    result = proc.run([tool("make"), "-C", str(tree)], env=env, timeout=BUILD_TIMEOUT_S)
    assert result.ok, result.text()
    offload_bundle(tree / "samplestats")


def test_translated_makefile_for_clang_builds_with_the_compiler_the_report_names(tmp_path: Path) -> None:
    """--make-compiler clang on Debian's packages: the report names hip-clang++, clang-15 with the
    ROCm paths, which also takes the fetched Thrust headers."""
    tool("clang++-15")
    headers = hiplibs.include_dir("5.2")
    if headers is None:
        pytest.fail(f"rocThrust headers missing: {hiplibs.SETUP_HINT}")
    tree = tmp_path / "cmake_thrust"
    translated = translate_tree(BY_NAME["cmake_thrust"], tree, "--make-compiler", "clang")
    assert translated.ok, translated.text()
    compiler = re.search(r"ported for clang with make NVCC=(?P<path>\S+)", translated.stderr.decode())
    assert compiler is not None and compiler.group("path") == files.HIP_CLANG_WRAPPER, translated.stderr.decode()
    result = proc.run([tool("make"), "-C", str(tree), f"NVCC={compiler.group('path')}",
                       f"CASS_HIP_LIBRARY_HEADERS={headers}"], timeout=BUILD_TIMEOUT_S)
    assert result.ok, result.text()
    offload_bundle(tree / "samplestats")


@pytest.mark.parametrize("unit", BY_NAME["cmake_blas"].units)
def test_translated_blas_units_compile_for_amd(unit: str, translated: dict[str, tuple[Path, str]]) -> None:
    hipcc = tool("hipcc")
    headers = hiplibs.include_dir("5.2")
    if headers is None:
        pytest.fail(f"hipBLAS headers missing: {hiplibs.SETUP_HINT}")
    tree, _ = translated["cmake_blas"]
    source = unit.replace(".cu", ".hip")
    # the flags the translated CMake files give the unit (HIP_STANDARD 17, the compile options)
    argv = [hipcc, f"--offload-arch={ARCH}", "-std=c++17", "-gline-tables-only", "-ffast-math", "-Iinclude",
            f"-I{headers}", "-c", source, "-o", os.devnull]
    result = proc.run(argv, env={**os.environ, "HIP_PLATFORM": "amd"}, cwd=tree, timeout=BUILD_TIMEOUT_S)
    assert result.ok, result.text()


def test_translated_makefile_builds_for_gfx1100_with_the_generated_device_libraries(
    tmp_path: Path, nvcc: toolchains.Invocation
) -> None:
    """Debian 12's device libraries stop at gfx1036; the report names the clang-15 folder setup builds."""
    tool("hipcc")
    tree = tmp_path / "make_rdc"
    translated = translate_tree(BY_NAME["make_rdc"], tree, "--arch", "gfx1100")
    assert translated.ok, translated.text()
    folder = devlibs15.folder()
    assert f"DEVICE_LIB_PATH={folder}" in translated.stderr.decode()
    if not devlibs.isa_file(folder, "gfx1100").is_file():
        pytest.fail(f"no clang-15 device libraries for gfx1100: {devlibs15.HINT}")
    env = {**os.environ, "PATH": f"{Path(nvcc.argv[0]).parent}:{os.environ['PATH']}", "DEVICE_LIB_PATH": str(folder)}
    result = proc.run([tool("make"), "-C", str(tree)], env=env, timeout=BUILD_TIMEOUT_S)
    assert result.ok, result.text()
    assert b"amdgcn-amd-amdhsa--gfx1100" in (tree / "nbody").read_bytes()


def test_a_file_scope_pow_initializer_compiles_and_links_with_hipcc(tmp_path: Path) -> None:
    """tests/corpus/projects/gups_pow (GUPS-shaped: ``const long N = pow(2, 20);`` at file scope) translated,
    then compiled and linked by Debian's hipcc: unchanged, clang takes HIP's device overloads there, or a
    ``pow<int, int>`` template its headers only declare (undefined at link)."""
    hipcc = tool("hipcc")
    out = tmp_path / "gups.hip"
    result = proc.run([sys.executable, "-m", "cass_lsp", "translate", str(HERE / "gups_pow" / "gups.cu"), "-o", str(out),
                       "--arch", ARCH], timeout=300)
    assert result.ok, result.text()
    argv = [hipcc, f"--offload-arch={ARCH}", "-O2", str(out), "-o", str(tmp_path / "gups")]
    built = proc.run(argv, env={**os.environ, "HIP_PLATFORM": "amd"}, cwd=tmp_path, timeout=BUILD_TIMEOUT_S)
    assert built.ok, built.text()
    offload_bundle(tmp_path / "gups")
