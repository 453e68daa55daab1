"""Any text, however broken, ports without an exception (the editor sends half-typed build files),
and text with nothing CUDA in it comes back unchanged."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from cass_lsp.buildfiles import cmake, cmake_reverse, make
from cass_lsp.buildfiles.porting import Settings

_PIECES = st.sampled_from([
    "project(", "CUDA", ")", "(", '"', "\\", "#", "#[[", "]]", "[=[", "]=]", "\n", "\t", " ", "$<", ">", "${", "}",
    "$(", "nvcc", "-arch", "=sm_80", "-gencode", "arch=compute_80,code=sm_80", "-Xcompiler", "-rdc=true",
    "CUDA::cublas", "cuda_add_executable", "OPTIONS", "set_target_properties", "PROPERTIES",
    "CUDA_SEPARABLE_COMPILATION", "ON", "find_package", "CUDAToolkit", "a.cu", "-lcudart", "%.o: %.cu",
    "CUDA_HOME", "?=", ":=", "export", "$(NVCC)", "set", "CMAKE_CUDA_FLAGS", "list", "APPEND", "CUDA_NVCC_FLAGS",
    "-x", "-maxrregcount", "-Xptxas", "-dlink", "é", "\r\n", "string", "file", "GLOB", "*.cu", "hipcc",
    "--offload-arch=gfx1030", "HIP", "hip::host", "$(ROCM_PATH)", "$(shell which nvcc", "2>/dev/null", "%: %.cu",
    "-Xlinker", "-rpath,/x", "'", "omp: CUFLAGS += ", "$(patsubst %/bin/nvcc,%,", "-fopenmp", "CC = $(NVCC)",
])
_TEXT = st.lists(_PIECES, max_size=40).map("".join) | st.text(max_size=200)
_FORWARD = (Settings(arches=("gfx1030", "gfx1100")), Settings(renamed_sources=False, compiler="clang", libraries="roc"))


@settings(max_examples=400, deadline=None)
@given(_TEXT)
def test_any_text_ports_both_ways_without_an_exception(text: str) -> None:
    for forward in _FORWARD:
        cmake.translate(text, forward)
        make.translate(text, forward)
    cmake_reverse.translate(text, Settings(reverse=True))
    make.translate(text, Settings(reverse=True))


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.characters(blacklist_characters="cCuUnNhH"), max_size=300))
def test_text_with_nothing_cuda_comes_back_unchanged(text: str) -> None:
    assert cmake.translate(text, _FORWARD[0]).text == text
    assert make.translate(text, _FORWARD[0]).text == text
