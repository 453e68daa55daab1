"""The original's build options as the port's build takes them (cass_lsp.buildfiles.options)."""

from __future__ import annotations

import pytest

from cass_lsp.buildfiles import options

pytestmark = pytest.mark.unit


def test_options_that_pick_what_to_build_pass_and_cuda_variables_become_hips() -> None:
    ported = options.cmake_options(["-DMODEL=cuda", "-DCMAKE_BUILD_TYPE=Release", "-G", "Ninja",
                                    "-DCMAKE_CUDA_STANDARD=17", "-D", "CMAKE_CUDA_FLAGS:STRING=-O3 --use_fast_math -arch=sm_80"])
    assert ported.arguments == ("-DMODEL=cuda", "-DCMAKE_BUILD_TYPE=Release", "-G", "Ninja", "-DCMAKE_HIP_STANDARD=17",
                                "-DCMAKE_HIP_FLAGS:STRING=-O3 -ffast-math")
    assert ported.dropped == ()


def test_cuda_only_options_are_left_out_and_said() -> None:
    ported = options.cmake_options(["-DMODEL=cuda", "-DCUDA_ARCH=sm_80", "-DCMAKE_CUDA_ARCHITECTURES=80",
                                    "-DCMAKE_CUDA_COMPILER=/usr/local/cuda/bin/nvcc", "-DCUDA_TOOLKIT_ROOT_DIR=/usr/local/cuda",
                                    "-DGPU_TARGET=sm_70;sm_80", "-DUSE_CUDA_GRAPHS=ON"])
    assert ported.arguments == ("-DMODEL=cuda", "-DUSE_CUDA_GRAPHS=ON")  # the port's build files still read it
    assert ported.dropped_names == ("CUDA_ARCH", "CMAKE_CUDA_ARCHITECTURES", "CMAKE_CUDA_COMPILER",
                                    "CUDA_TOOLKIT_ROOT_DIR", "GPU_TARGET")
    assert ported.dropped[0] == "-DCUDA_ARCH=sm_80 (CUDA-only: NVIDIA targets)"


def test_make_variables_naming_nvcc_or_nvidia_targets_are_left_out() -> None:
    ported = options.make_options(["-j4", "NVCC=/usr/local/cuda/bin/nvcc", "SM=sm_80", "CUDA_HOME=/usr/local/cuda",
                                   "N=4096", "all"])
    assert ported.arguments == ("-j4", "N=4096", "all")
    assert ported.dropped_names == ("NVCC", "SM", "CUDA_HOME")


def test_the_cpu_runtime_raises_an_older_standard_to_cpp17_and_says_so() -> None:
    from cass_lsp.cpu.build import raised_standard

    assert raised_standard(["-O2", "-std=gnu++11"]) == (
        ["-O2", "-std=gnu++17", "-Wno-register"], "-std=gnu++11 raised to -std=gnu++17 (the CPU runtime's headers need C++17)")
    assert raised_standard(["-std=c++20"]) == (["-std=c++20"], None)
