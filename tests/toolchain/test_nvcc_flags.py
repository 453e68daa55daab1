"""A program's nvcc flags with the real nvcc: the CUDA toolkit's include folder is nvcc's alone; the flag
splitting itself is tested in tests/unit/test_nvcc_flags.py."""

from __future__ import annotations

from pathlib import Path

from cass_lsp.compile.nvcc_flags import split


def test_the_cuda_toolkits_include_folder_is_nvccs_alone(tmp_path: Path) -> None:
    """CMake's CUDAToolkit_INCLUDE_DIRS on a target: CUDA's vector_types.h then clashed with HIP's
    char1 in the translation's compile (NVIDIA's boxFilter and FunctionPointers samples 'failed')."""
    from cass_lsp.toolchains import nvidia

    toolkit = nvidia.require().nvcc.resolve().parent.parent / "include"
    assert (toolkit / "cuda_runtime.h").is_file()
    flags = split([f"-I{toolkit}", "-isystem", str(toolkit), f"-I{tmp_path}"])
    assert flags.nvcc == (f"-I{toolkit}", "-isystem", str(toolkit), f"-I{tmp_path}")
    assert flags.clang == flags.gxx == (f"-I{tmp_path}",)
