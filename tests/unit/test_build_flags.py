"""nvcc's flags as the HIP compiler's (nvcc_flags.port) and back (port_back), for ported builds."""

from __future__ import annotations

from cass_lsp.compile.nvcc_flags import port, port_back


def test_targets_become_one_offload_arch_per_amd_target_where_the_first_stood() -> None:
    ported = port(["-O2", "-gencode", "arch=compute_70,code=sm_70", "-arch=sm_80", "-c"], ["gfx1030", "gfx1100"])
    assert ported.flags == ["-O2", "--offload-arch=gfx1030", "--offload-arch=gfx1100", "-c"]
    assert ported.nvidia_targets == ["compute_70", "sm_70", "sm_80"]
    assert port(["-arch", "sm_80", "-O2"], ["gfx1030"], offload=False).flags == ["-O2"]


def test_each_mapped_flag_says_what_can_differ() -> None:
    ported = port(["-G", "-use_fast_math", "-lineinfo", "--default-stream", "per-thread", "-Xptxas", "-v",
                   "-x", "cu", "-dc"], ["gfx1030"])
    assert ported.flags == ["-g", "-O0", "-ffast-math", "-gline-tables-only", "-fgpu-default-stream=per-thread",
                            "-Rpass-analysis=kernel-resource-usage", "-x", "hip", "-fgpu-rdc", "-c"]
    severities = {n.flag: n.severity for n in ported.notes}
    assert severities["-G"] == "warning" and severities["-use_fast_math"] == "warning"


def test_flags_with_no_amd_meaning_are_dropped_with_a_reason() -> None:
    ported = port(["--expt-relaxed-constexpr", "-maxrregcount", "32", "-Xptxas=-O3", "-ccbin", "g++-12",
                   "-dlink", "$(EXTRA)", "-Xcompiler", "-Wall,-fopenmp"], ["gfx1030"])
    assert ported.flags == ["$(EXTRA)", "-Wall", "-fopenmp"]
    assert {n.flag: n.severity for n in ported.notes} == {
        "--expt-relaxed-constexpr": "info", "-maxrregcount 32": "warning", "-Xptxas=-O3": "warning",
        "-ccbin g++-12": "warning", "-dlink": "error", "-Xcompiler -Wall,-fopenmp": "info"}
    assert "__launch_bounds__" in next(n.message for n in ported.notes if n.flag.startswith("-maxrregcount"))


def test_back_to_nvcc_where_symmetric() -> None:
    back = port_back(["--offload-arch=gfx1030", "--offload-arch=gfx1100", "-fgpu-rdc", "-Wall", "-O3",
                      "-fgpu-default-stream=per-thread", "--rocm-path=/usr"], "sm_90")
    assert back.flags == ["-arch=sm_90", "-rdc=true", "-Xcompiler", "-Wall", "-O3", "--default-stream", "per-thread"]


def test_nvcc_only_options_of_real_builds_and_clang_as_the_cuda_compiler() -> None:
    """What real CMake projects put in CMAKE_CUDA_FLAGS: clang rejected each as an unknown argument."""
    ported = port(["-forward-unknown-to-host-compiler", "--restrict", "-Xcudafe", "--diag_suppress=177",
                   "--cuda-gpu-arch=sm_80", "--cuda-path=/usr/local/cuda", "-x", "cuda", "-ftz=true",
                   "-fmad=false", "-prec-div=false", "-O3"], ["gfx1030"], offload=False)
    assert ported.flags == ["-x", "hip", "-fgpu-flush-denormals-to-zero", "-ffp-contract=off", "-O3"]
    assert ported.nvidia_targets == ["sm_80"]
    assert {n.flag for n in ported.notes} == {"-forward-unknown-to-host-compiler", "--restrict",
                                             "-Xcudafe --diag_suppress=177", "--cuda-path=/usr/local/cuda",
                                             "-ftz=true", "-fmad=false", "-prec-div=false"}
    assert port(["--cuda-gpu-arch", "sm_70"], ["gfx1030"]).flags == ["--offload-arch=gfx1030"]
