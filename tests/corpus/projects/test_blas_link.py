"""cmake_blas's translation configures, builds and links AMD programs against hipBLAS with no hand
edits, with Debian's toolchain where Debian packages hipBLAS: Debian 13, in a root built for the test
(tests/corpus/projects/debian13.py; Debian 12 has no hipBLAS library, see test_projects.py).

The tree is translated on the host by ``cass-lsp translate`` and built in the root through CMake's HIP
language, configured as the translation report says (its toolchain file), and as Debian 13 users
can without it (its CMake 3.31 finds Debian's hip-lang package by itself once ``HIPCXX`` names the
compiler: it looks for no versioned ``clang++-17``).
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from cass_lsp.buildfiles import files
from tests.corpus.projects import debian13
from tests.corpus.projects.projects import ARCH, BY_NAME, translate_tree

_TIMEOUT_S = 600.0
_PROGRAMS = ("app/vecops_app", "tests/test_vecops")
_CODE_OBJECT = f"amdgcn-amd-amdhsa--{ARCH}".encode()


@pytest.fixture(scope="module")
def trixie() -> Path:
    """The Debian 13 root, built on first use (about 2 minutes and 840 MB of downloads)."""
    try:
        return debian13.ensure()
    except debian13.RootUnavailable as exc:
        pytest.fail(f"no Debian 13 root to build cmake_blas in: {exc}")


@pytest.fixture
def translated(trixie: Path) -> Iterator[tuple[Path, str, str]]:
    """A folder of the root holding cmake_blas translated: (host path, path inside the root, the
    translation report)."""
    with debian13.workdir(trixie) as (host, inside):
        result = translate_tree(BY_NAME["cmake_blas"], host / "cmake_blas")
        assert result.ok, result.text()
        yield host, inside, result.stderr.decode()


def _in_root(root: Path, argv: list[str], cwd: str = "/", env: dict[str, str] | None = None) -> str:
    result = debian13.run(root, argv, cwd=cwd, env=env, timeout=_TIMEOUT_S)
    assert result.ok, f"{' '.join(argv)} in the Debian 13 root:\n{result.text()}"
    return result.text()


def _configure_args(how: str, report: str, host: Path, inside: str) -> tuple[list[str], dict[str, str]]:
    if how == "HIPCXX":
        return [], {"HIPCXX": "clang++-17"}
    assert f"-DCMAKE_TOOLCHAIN_FILE={files.TOOLCHAIN_FILE}" in report  # what the report tells the user
    shutil.copyfile(files.TOOLCHAIN_FILE, host / "hip-debian.cmake")
    return [f"-DCMAKE_TOOLCHAIN_FILE={inside}/hip-debian.cmake"], {}


@pytest.mark.parametrize("how", ["toolchain file", "HIPCXX"])
def test_translated_blas_project_links_hipblas_programs(
    how: str, trixie: Path, translated: tuple[Path, str, str]
) -> None:
    host, inside, report = translated
    tree = f"{inside}/cmake_blas"
    args, env = _configure_args(how, report, host, inside)
    configure = _in_root(trixie, ["cmake", "-S", tree, "-B", f"{tree}/build", *args], env=env)
    assert "The HIP compiler identification is Clang 17" in configure
    built = _in_root(trixie, ["cmake", "--build", f"{tree}/build"])
    assert "Linking HIP executable" in built
    build = host / "cmake_blas" / "build"
    for program in _PROGRAMS:
        assert (build / program).is_file(), f"{program} was not built:\n{built}"
        assert _CODE_OBJECT in (build / program).read_bytes(), f"{program} holds no {ARCH} code object"
        dynamic = _in_root(trixie, ["readelf", "--dynamic", f"{tree}/build/{program}"])
        needed = re.findall(r"\(NEEDED\)\s+Shared library: \[([^]]+)\]", dynamic)
        assert "libhipblas.so.0" in needed and "libamdhip64.so.5" in needed, needed
    listed = _in_root(trixie, ["ctest", "-N"], cwd=f"{tree}/build")
    assert "Test #1: vecops" in listed and "Total Tests: 1" in listed, listed
