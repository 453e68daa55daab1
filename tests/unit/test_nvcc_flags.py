"""A program's nvcc flags as nvcc, clang-19 and g++ take them (verification builds all three)."""

from __future__ import annotations

from pathlib import Path

from cass_lsp.build.nvcc_flags import split


def test_preprocessor_and_language_flags_mean_the_same_to_every_compiler() -> None:
    flags = split(["-DN=4", "-I", "inc", "--include-path=other", "-std=c++17", "-O3", "main.cu"], "/src")
    expected = ("-DN=4", "-I/src/inc", "-I/src/other", "-std=c++17", "-O3")
    assert flags.nvcc == flags.clang == flags.gxx == expected
    assert flags.dropped == ()


def test_nvcc_front_end_flags_stay_with_nvcc_and_mean_nothing_elsewhere() -> None:
    flags = split(["--expt-relaxed-constexpr", "--extended-lambda", "-lineinfo", "-maxrregcount=32", "-Xptxas", "-v"])
    assert flags.nvcc == ("--expt-relaxed-constexpr", "--extended-lambda", "-lineinfo", "-maxrregcount=32", "-Xptxas", "-v")
    assert flags.clang == flags.gxx == ()


def test_rdc_and_fast_math_map_to_their_clang_meaning() -> None:
    flags = split(["-rdc=true", "-use_fast_math"])
    assert flags.rdc and "-fgpu-rdc" in flags.clang and "-ffast-math" in flags.clang
    assert flags.gxx == ()  # the CPU build keeps IEEE arithmetic


def test_a_builds_targets_are_left_to_the_verification() -> None:
    flags = split(["-arch=sm_80", "-arch", "sm_70", "-gencode", "arch=compute_80,code=sm_80", "-O2"])
    assert flags.nvcc == flags.clang == ("-O2",)


def test_host_options_pass_only_from_the_safe_list() -> None:
    flags = split(["-Xcompiler", "-fopenmp,-Wall,-fplugin=/tmp/x.so", "--compiler-options=-O3"])
    assert flags.gxx == ("-fopenmp", "-Wall", "-O3") and flags.clang == flags.gxx
    assert flags.nvcc == ("-Xcompiler", "-fopenmp", "-Xcompiler", "-Wall", "-Xcompiler", "-O3")
    assert any("-fplugin=/tmp/x.so" in d for d in flags.dropped)


def test_nothing_that_chooses_what_runs_is_taken_from_a_build() -> None:
    flags = split(["-ccbin", "/tmp/evil", "-B/tmp/x", "@args.rsp", "-Xlinker", "--script=x", "-Werror", "--frob"])
    assert flags.nvcc == flags.clang == flags.gxx == ()
    assert len(flags.dropped) == 6
    assert any("-ccbin /tmp/evil: chooses what runs" in d for d in flags.dropped)
    assert "@args.rsp: response file not read" in flags.dropped[0]


def test_response_files_are_read_and_their_flags_filtered_like_the_rest(tmp_path: Path) -> None:
    """CMake gives an nvcc unit its include folders in a response file (includes_CUDA.rsp): without
    them the original of a real CMake project does not compile."""
    (tmp_path / "CMakeFiles").mkdir()
    (tmp_path / "CMakeFiles" / "includes_CUDA.rsp").write_text('-I/src/include "-I/src/with space" -ccbin /tmp/evil @nested.rsp\n')
    (tmp_path / "nested.rsp").write_text("-DNESTED=1 @CMakeFiles/includes_CUDA.rsp")
    flags = split(["-forward-unknown-to-host-compiler", "--options-file", "CMakeFiles/includes_CUDA.rsp", "-x", "cu", "-c", "a.cu"],
                  str(tmp_path))
    assert flags.gxx == ("-I/src/include", "-I/src/with space", "-DNESTED=1")
    assert flags.nvcc == ("-forward-unknown-to-host-compiler", *flags.gxx)
    assert any("-ccbin /tmp/evil: chooses what runs" in d for d in flags.dropped)
    assert any("response file not read (nested more than 2 deep)" in d for d in flags.dropped)
    assert split(["--options-file=missing.rsp"], str(tmp_path)).dropped == (
        "--options-file=missing.rsp: response file not read (No such file or directory)",)


def test_position_independent_executables_pass_to_the_host_compilers() -> None:
    """CMAKE_POSITION_INDEPENDENT_CODE gives an executable's nvcc units -Xcompiler -fPIE (NVIDIA's
    samples set it)."""
    flags = split(["-Xcompiler", "-fPIE"])
    assert flags.gxx == flags.clang == ("-fPIE",) and not flags.dropped


def test_a_host_units_own_flags_reach_nvcc_through_xcompiler() -> None:
    """A g++ unit's compile_commands entry (CMake gives it -fPIE, -Wall bare): nvcc rejects those
    unwrapped ('Unknown option -fPIE'), so the original never compiled."""
    flags = split(["-O2", "-fPIE", "-Wall", "-pthread", "-g"])
    assert flags.nvcc == ("-O2", "-Xcompiler", "-fPIE", "-Xcompiler", "-Wall", "-Xcompiler", "-pthread", "-g")
    assert flags.gxx == flags.clang == ("-O2", "-fPIE", "-Wall", "-pthread", "-g")


def test_the_cuda_toolkits_include_folder_is_nvccs_alone(tmp_path: Path) -> None:
    """CMake's CUDAToolkit_INCLUDE_DIRS on a target: CUDA's vector_types.h then clashed with HIP's
    char1 in the translation's compile (NVIDIA's boxFilter and FunctionPointers samples 'failed')."""
    from cass_lsp.toolchains import nvidia

    toolkit = nvidia.require().nvcc.resolve().parent.parent / "include"
    assert (toolkit / "cuda_runtime.h").is_file()
    flags = split([f"-I{toolkit}", "-isystem", str(toolkit), f"-I{tmp_path}"])
    assert flags.nvcc == (f"-I{toolkit}", "-isystem", str(toolkit), f"-I{tmp_path}")
    assert flags.clang == flags.gxx == (f"-I{tmp_path}",)
