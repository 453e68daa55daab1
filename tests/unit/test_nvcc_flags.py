"""A program's nvcc flags as nvcc, clang-19 and g++ take them (verification builds all three)."""

from __future__ import annotations

import contextlib
import os
import threading
from pathlib import Path

import pytest

from cass_lsp.compile import nvcc_flags
from cass_lsp.compile.nvcc_flags import Flags, split


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
    assert any("@args.rsp: response file not read" in d for d in flags.dropped)


def test_response_files_are_read_and_their_flags_filtered_like_the_rest(tmp_path: Path) -> None:
    """CMake gives an nvcc unit its include folders in a response file (includes_CUDA.rsp): without
    them the original of a real CMake project does not compile."""
    (tmp_path / "CMakeFiles").mkdir()
    (tmp_path / "CMakeFiles" / "includes_CUDA.rsp").write_text('-I/src/include "-I/src/with space" -ccbin /tmp/evil @nested.rsp\n')
    (tmp_path / "nested.rsp").write_text("-DNESTED=1 @CMakeFiles/includes_CUDA.rsp")
    flags = split(["-forward-unknown-to-host-compiler", "--options-file", "CMakeFiles/includes_CUDA.rsp", "-x", "cu", "-c", "a.cu"],
                  str(tmp_path), str(tmp_path))
    assert flags.gxx == ("-I/src/include", "-I/src/with space", "-DNESTED=1")
    assert flags.nvcc == ("-forward-unknown-to-host-compiler", *flags.gxx)
    assert any("-ccbin /tmp/evil: chooses what runs" in d for d in flags.dropped)
    assert any("response file not read (nested more than 2 deep)" in d for d in flags.dropped)
    assert split(["--options-file=missing.rsp"], str(tmp_path), str(tmp_path)).dropped == (
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


ATTACKS = [
    # nvlink's --nvvmpath with -lto loads DIR/lib64/libnvvm.so (issue #26), in every spelling
    ["-Xnvlink", "--nvvmpath=src/EVIL,-lto"],
    ["--nvlink-options=--nvvmpath=src/EVIL"],
    ["--nvlink-options", "-nvvmpath=src/EVIL"],
    ["-Xnvlink=--nvvmpath=src/EVIL"],
    ["-Xnvlink", "--nvvmpath", "-Xnvlink", "src/EVIL"],
    ["-Xnvlink", "--nvvmpath,src/EVIL"],
    ["-Xptxas", "--nvvmpath=src/EVIL"],
    ["--ptxas-options=-v,--options-file=src/EVIL"],
    # the host compiler's plugins and search paths, however they are wrapped
    ["-Xcompiler", "-B/EVIL"],
    ["-Xcompiler=-fplugin=EVIL.so"],
    ["--compiler-options", "-fpass-plugin=EVIL.so"],
    ["-Xcompiler", "-Wl,-rpath,/EVIL"],
    ["-Xcompiler", "-Xclang,-load,-Xclang,EVIL.so"],
    ["-Xlinker", "-rpath=/EVIL"],
    ["--linker-options=-plugin=EVIL.so"],
    ["-Wl,--dynamic-linker=/EVIL"],
    ["-Xarch_host", "-fplugin=EVIL.so"],
    ["-Xarch_device", "-B/EVIL"],
    ["-Xclang", "-load", "-Xclang", "EVIL.so"],
    ["-mllvm", "-load=EVIL.so"],
    ["--cuda-path=/EVIL"],
    ["-resource-dir", "/EVIL"],
    ["-fplugin=EVIL.so"],
    ["--gcc-toolchain=/EVIL"],
    # nvcc runs its tools through a shell: a value it expands runs a command
    ["-DX=$(touch EVIL)"],
    ["-I`touch EVIL`"],
    ["-include", "$(touch EVIL)"],
    ["-std=c++17;touch${IFS}EVIL"],
    ["-maxrregcount", "32;touch EVIL"],
    ["--default-stream=legacy;touch EVIL"],
]


@pytest.mark.parametrize("attack", ATTACKS, ids=" ".join)
def test_nothing_naming_a_path_or_a_command_of_the_builds_reaches_a_compiler(attack: list[str]) -> None:
    flags = split(attack, "/src")
    given = (*flags.nvcc, *flags.clang, *flags.gxx)
    assert not any("EVIL" in f for f in given), given
    assert any("EVIL" in d for d in flags.dropped), flags.dropped


@pytest.mark.parametrize(("attack", "named"), [
    (["-Xnvlink", "--nvvmpath=src/EVIL,-lto"], "-Xnvlink --nvvmpath=src/EVIL: loads code from a path of the build's choosing"),
    (["-Xnvlink", "--nvvmpath,src/EVIL"], "-Xnvlink --nvvmpath: loads code from a path of the build's choosing"),
    (["-Xcompiler", "-B/EVIL"], "-Xcompiler -B/EVIL: loads code from a path of the build's choosing"),
    (["-Xcompiler=-fplugin=EVIL.so"], "-Xcompiler -fplugin=EVIL.so: loads code from a path of the build's choosing"),
    (["-Xcompiler", "-Wl,-rpath,/EVIL"], "-Xcompiler -rpath: loads code from a path of the build's choosing"),
    (["-Wl,-rpath,/EVIL"], "-Wl,-rpath: loads code from a path of the build's choosing"),
    (["-Xclang", "-load", "-Xclang", "EVIL.so"], "-Xclang -load: loads code from a path of the build's choosing"),
    (["-Xarch_host", "-fplugin=EVIL.so"], "-Xarch_host -fplugin=EVIL.so: loads code from a path of the build's choosing"),
    (["--cuda-path=/EVIL"], "--cuda-path=/EVIL: loads code from a path of the build's choosing"),
    (["-DX=$(touch EVIL)"], "-DX=$(touch EVIL): nvcc runs its tools through a shell, which would expand it"),
])
def test_each_flag_left_out_is_named_with_why(attack: list[str], named: str) -> None:
    assert named in split(attack, "/src").dropped


def test_harmless_sub_tool_options_still_pass() -> None:
    flags = split(["-Xptxas", "-v", "-Xptxas", "-O3", "--ptxas-options=--warn-on-spills", "--maxrregcount", "32",
                   "-maxrregcount=64", "-Xcompiler", "-fopenmp,-O2", "-Xnvlink", "--suppress-stack-size-warning",
                   "--default-stream", "per-thread", "-Xcompiler", "-Wlogical-op"])
    assert flags.nvcc == ("-Xptxas", "-v", "-Xptxas", "-O3", "-Xptxas", "--warn-on-spills", "--maxrregcount", "32",
                          "-maxrregcount=64", "-Xcompiler", "-fopenmp", "-Xcompiler", "-O2", "-Xnvlink",
                          "--suppress-stack-size-warning", "--default-stream", "per-thread", "-Xcompiler", "-Wlogical-op")
    assert flags.gxx == flags.clang == ("-fopenmp", "-O2", "-Wlogical-op")
    assert flags.dropped == ()


def test_a_value_of_a_sub_tool_option_is_never_read_as_a_response_file(tmp_path: Path) -> None:
    """`-Xptxas --options-file=FILE` was expanded as a response file: FILE's lines showed in the verdict."""
    (tmp_path / "secret").write_text("-DSECRET_LINE\n")
    for attack in (["-Xptxas", "--options-file=secret"], ["-Xnvlink", "@secret"], ["-Xcompiler", "@secret"],
                   ["-Xptxas", "--options-file", "-Xptxas", "secret"]):
        flags = split(attack, str(tmp_path), str(tmp_path))
        assert not any("SECRET_LINE" in f for f in (*flags.nvcc, *flags.dropped)), flags


def _refused(flags: Flags, arg: str, why: str) -> bool:
    return f"{arg}: response file not read ({why})" in flags.dropped


def test_a_response_file_outside_the_project_is_not_read(tmp_path: Path) -> None:
    project, outside = tmp_path / "project", tmp_path / "outside"
    project.mkdir()
    outside.mkdir()
    (outside / "secret.rsp").write_text("-DSECRET_LINE\n")
    (project / "link.rsp").symlink_to(outside / "secret.rsp")
    for arg in (f"@{outside / 'secret.rsp'}", "@../outside/secret.rsp", "@link.rsp", f"--options-file={outside / 'secret.rsp'}"):
        flags = split([arg], str(project), str(project))
        assert not any("SECRET_LINE" in f for f in (*flags.nvcc, *flags.dropped)), flags
        assert _refused(flags, arg, f"outside the project {project}"), flags.dropped
    # the entry's directory is the build database's to choose: it does not widen the project
    flags = split(["@secret.rsp"], str(outside), str(project))
    assert _refused(flags, "@secret.rsp", f"outside the project {project}") and "-DSECRET_LINE" not in flags.nvcc
    # no project folder: nothing is read
    assert _refused(split(["@secret.rsp"], str(outside)), "@secret.rsp", "no project folder to read it from")


def test_special_files_are_never_read_as_response_files(tmp_path: Path) -> None:
    """`@/dev/stdin` made the server read its own LSP input stream; a FIFO blocked verification forever."""
    os.mkfifo(tmp_path / "fifo.rsp")
    (tmp_path / "folder.rsp").mkdir()
    done: list[Flags] = []
    reader = threading.Thread(target=lambda: done.append(split(["@fifo.rsp", "@folder.rsp", "@/dev/stdin"],
                                                               str(tmp_path), str(tmp_path))), daemon=True)
    reader.start()
    reader.join(10)
    if not done:  # unblock the open() the reader is stuck in before failing
        with contextlib.suppress(OSError):
            os.close(os.open(tmp_path / "fifo.rsp", os.O_WRONLY | os.O_NONBLOCK))
    assert done, "reading the response files never finished"
    flags = done[0]
    assert _refused(flags, "@fifo.rsp", "not a regular file") and _refused(flags, "@folder.rsp", "not a regular file")
    assert _refused(flags, "@/dev/stdin", f"outside the project {tmp_path}"), flags.dropped


def test_a_unit_compiled_as_cuda_whatever_its_suffix_keeps_its_language_and_dc_is_separate_compilation() -> None:
    # a Makefile's `%.o: %.cpp` rule: nvcc -x cu -dc (NVIDIA's separate-compilation sample)
    flags = nvcc_flags.split(["-x", "cu", "-arch=sm_20", "-I.", "-dc", "v3.cpp", "-o", "v3.o"], "/src")
    assert flags.cuda_source and flags.rdc and not flags.dropped
    assert nvcc_flags.nvcc_unit_flags(flags) == ("-x", "cu", "-I/src", "-rdc=true")
    assert flags.clang == ("-I/src", "-fgpu-rdc")
    assert nvcc_flags.declares_cuda(nvcc_flags.nvcc_unit_flags(flags))
    assert nvcc_flags.split(["--x=cu", "-c", "a.cpp"]).cuda_source
    assert nvcc_flags.split(["--device-c", "a.cu"]).rdc
    host = nvcc_flags.split(["-x", "c++", "-c", "a.cpp"])
    assert not host.cuda_source and nvcc_flags.nvcc_unit_flags(host) == ()
