"""Where the HIP runtime include goes (nvcc's implicit cuda_runtime.h), one file and a whole tree.

The tree under realcode/tree is the shape that broke a real port: a host .cpp includes a header that
``#define``s ``T`` before a CUDA header that includes nothing (nvcc provides the runtime), so a HIP
include inside that header came after the macro and HIP's ``template <typename T, ...>`` broke.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from cass_lsp.cli.translate import main
from cass_lsp.translate import TargetProfile, placement, translate

TREE = Path(__file__).parent / "realcode" / "tree"
R52 = TargetProfile("gfx1100", "5.2")


@pytest.mark.parametrize(
    ("src", "expected"),
    [
        ("// kernels\n#define T double\n__global__ void k() {}\n",
         "// kernels\n#include <hip/hip_runtime.h>\n#define T double\n__global__ void k() {}\n"),
        ("/* a\n   b */\n#ifndef G\n#define G\n#define T double\n__device__ int x;\n#endif\n",
         "/* a\n   b */\n#ifndef G\n#define G\n#include <hip/hip_runtime.h>\n#define T double\n__device__ int x;\n"
         "#endif\n"),
        ("#pragma once\n#include \"config.h\"\n__device__ int x;\n",
         "#pragma once\n#include <hip/hip_runtime.h>\n#include \"config.h\"\n__device__ int x;\n"),
    ],
    ids=["macro", "guard", "pragma-once"],
)
def test_one_file_gets_the_runtime_before_its_macros_and_project_headers(src: str, expected: str) -> None:
    assert translate(src, R52).text == expected


def test_an_explicit_runtime_include_after_a_macro_is_preceded_by_one_at_the_top() -> None:
    src = "#define T double\n#include <cuda_runtime.h>\nvoid f() { cudaDeviceSynchronize(); }\n"
    out = translate(src, R52).text
    assert out.startswith("#include <hip/hip_runtime.h>\n#define T double\n#include <hip/hip_runtime.h>\n")
    # Only macros and project headers matter: a system header before the runtime keeps the file as is.
    plain = "#include <cstdio>\n#include <cuda_runtime.h>\nvoid f() { cudaDeviceSynchronize(); }\n"
    assert translate(plain, R52).text.count("hip/hip_runtime.h") == 1


def test_top_position_skips_the_leading_comment_and_the_guard_only() -> None:
    assert placement.top_position(b"\xef\xbb\xbf// c\n  int x;\n") == len(b"\xef\xbb\xbf// c\n")
    assert placement.top_position(b"#if !defined(G)\n#define G\nint x;\n#endif\n") == len(b"#if !defined(G)\n#define G\n")
    assert placement.top_position(b"#ifndef G\n#define H\n") == 0  # not a guard
    assert placement.runtime_first(b"// c\n#include <hip/hip_runtime.h>\n#define T double\n")
    assert not placement.runtime_first(b"#define T double\n#include <hip/hip_runtime.h>\n")


def _translate_tree(tmp_path: Path) -> Path:
    src = tmp_path / "cuda"
    shutil.copytree(TREE, src)
    out = tmp_path / "hip"
    assert main([str(src), "--out-dir", str(out), "--rocm", "5.2"]) == 0
    return out


def test_tree_translation_puts_the_runtime_first_in_every_unit_that_needs_it(tmp_path: Path) -> None:
    out = _translate_tree(tmp_path)
    for unit in ("src/solver.hip", "src/driver.cpp"):
        text = (out / unit).read_bytes()
        assert placement.runtime_first(text), unit
        assert text.startswith(b"// "), unit  # after the leading comment only
    # A unit that reaches no HIP header stays as it was.
    assert (out / "src/stats.cc").read_text() == (TREE / "src/stats.cc").read_text()
    # The header includes the runtime itself (single-file rule), inside its guard.
    header = (out / "include/particles.cuh").read_text()
    assert "#define PARTICLES_CUH\n#include <hip/hip_runtime.h>\n" in header


def test_units_reaching_a_header_through_quoted_includes(tmp_path: Path) -> None:
    files = {
        "inc/kernels.cuh": b"#pragma once\n__global__ void k();\n",
        "inc/all.h": b'#pragma once\n#include "kernels.cuh"\n',
        "a.cpp": b'#define T double\n#include <vector>\n#include "all.h"\n',  # through -Iinc and all.h
        "b.cu": b'#include <cuda_runtime.h>\n#include "inc/kernels.cuh"\n',  # the runtime comes first already
        "c.cpp": b'#include "other.h"\n',
        "inc/all_copy.h": b'#include "all_copy.h"\n',  # an include cycle ends
        "d.cpp": b'#include "inc/all_copy.h"\n',
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(exist_ok=True)
        (tmp_path / name).write_bytes(text)

    def read(path: str) -> bytes | None:
        return (Path(path).read_bytes() if Path(path).is_file() else None)

    units = [str(tmp_path / u) for u in ("a.cpp", "b.cu", "c.cpp", "d.cpp")]
    found = placement.units_reaching(str(tmp_path / "inc/kernels.cuh"), units, read,
                                     lambda unit: [str(tmp_path / "inc")])
    src = files["a.cpp"]
    assert found == {str(tmp_path / "a.cpp"): (src.index(b'#include "all.h"'), len(src) - 1)}
