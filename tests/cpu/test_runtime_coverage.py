"""What real single-unit programs need of the CPU runtime (issue 18): launches evaluated once and
found in headers, names the runtime must leave to the program, rounding-mode conversions, every
device attribute and error, device-side assert, and the limits (fiber stacks, address space) that
used to end programs with a bare SIGSEGV or SIGABRT.

Each program is real CUDA/HIP: nvcc compiles it (``--ptx``: the whole front end, host and device);
the CPU runtime builds it with g++ and runs it.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Literal

import pytest

from cass_lsp import toolchains
from cass_lsp.core import proc
from cass_lsp.cpu import BuildResult, build, classify, prepare_source
from cass_lsp.cpu.build import command
from cass_lsp.cpu.outcome import EXIT_UNSUPPORTED
from tests.cpu.conftest import KERNELS, RUN_TIMEOUT_S, need_gxx

_NVCC_TIMEOUT_S = 300.0


class Built:
    def __init__(self, builds: dict[str, BuildResult]) -> None:
        self.builds = builds

    def run(self, name: str, args: Sequence[str] = (), env: Mapping[str, str] | None = None,
            address_space_mb: int | None = None) -> proc.ProcResult:
        built = self.builds[name]
        assert built.ok, built.log
        argv = [built.exe, *args]
        if address_space_mb is not None:  # as the verification sandbox limits a run (RLIMIT_AS)
            argv = ["prlimit", f"--as={address_space_mb << 20}", "--", *argv]
        return proc.run(argv, timeout=RUN_TIMEOUT_S, env={**os.environ, **(env or {})})

    def values(self, name: str, args: Sequence[str] = (), env: Mapping[str, str] | None = None) -> dict[str, str]:
        result = self.run(name, args, env)
        assert result.ok, result.text()
        return dict(re.findall(r"^(\w+)=(.*)$", result.stdout.decode(), re.M))


def _build_with_headers(source: Path, out: Path, platform: Literal["amd", "nvidia"] | None = None) -> BuildResult:
    """Like the verification build of a program: the source and the headers it includes prepared
    (``prepare_source`` on each quoted-include header too), then compiled."""
    out.mkdir(parents=True, exist_ok=True)
    for header in KERNELS.glob("*.cuh"):
        (out / header.name).write_text(prepare_source(header.read_text()))
    if platform is None:
        return build(source, source.read_text(), out / source.stem)
    prepared = out / f"{source.stem}.cpu.cpp"
    prepared.write_text(prepare_source(source.read_text()))
    exe = out / source.stem
    argv = command(source, prepared, exe, hip=True, warp_size=32, cxx="g++", platform=platform)
    result = proc.run(argv, timeout=120, cwd=out)
    return BuildResult(ok=result.ok, exe=str(exe), log=result.text(), command=argv, duration=result.duration)


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Built:
    need_gxx()
    out = tmp_path_factory.mktemp("cpu-coverage")
    jobs = {
        "coverage.cu": lambda: _build_with_headers(KERNELS / "coverage.cu", out / "cu"),
        "limits.cu": lambda: _build_with_headers(KERNELS / "limits.cu", out / "limits"),
        "coverage.hip": lambda: _build_with_headers(KERNELS / "coverage.hip", out / "hip", platform="amd"),
        "half_modes.cu": lambda: _build_with_headers(KERNELS / "half_modes.cu", out / "half"),
    }
    with ThreadPoolExecutor(max_workers=2) as pool:
        futures = {name: pool.submit(job) for name, job in jobs.items()}
        return Built({name: f.result() for name, f in futures.items()})


@pytest.mark.parametrize("name", ["coverage.cu", "limits.cu", "coverage.hip", "half_modes.cu"])
def test_programs_are_real_cuda(name: str) -> None:
    try:
        nvcc = toolchains.nvcc_invocation("sm_90", hip_source=name.endswith(".hip"))
    except toolchains.ToolchainMissing as exc:
        pytest.fail(str(exc))
    result = proc.run([*nvcc.argv, "--ptx", "-o", "/dev/null", name], env=nvcc.env, cwd=KERNELS,
                      timeout=_NVCC_TIMEOUT_S)
    assert result.ok, result.text()


def test_launch_arguments_are_evaluated_once(built: Built) -> None:
    v = built.values("coverage.cu")
    assert v["launch_hits"] == "64"  # 2 x 32 threads each add n's value at the launch, 1
    assert v["launch_n"] == "2"  # `n++` ran once, not once per GPU thread
    assert v["null_argument"] == "96"  # NULL for a pointer parameter stays a null pointer
    assert v["braced_argument"] == "120"  # 96 + 2 threads x 3 x 4
    hip = built.values("coverage.hip")
    assert hip["launch_hits"] == "192 n=3"  # hipLaunchKernelGGL(..., n++) then <<<>>>(n++): 64 * 1 + 64 * 2
    assert hip["ggl_forms"] == "cudaSuccess,7"  # no kernel arguments; HIP_KERNEL_NAME(template<int, 7>)


def test_launches_in_an_included_header(built: Built) -> None:
    v = built.values("coverage.cu")
    # fill_with<T><<<>>> 3, scale_by<T, 2><<<>>> by 3 * 2, then (in a lambda) the first half by 3 * 1
    assert (v["header_first"], v["header_last"]) == ("54", "18")
    assert v["macro_fill"] == "7"


def test_names_left_to_the_program(built: Built) -> None:
    v = built.values("coverage.cu")
    assert v["shared_reversed"] == "31,63"  # file-scope `extern __shared__ float shared[]` and a member `shared`
    assert v["user_atomic_max"] == "63"  # the program's own atomicMax(float*), which CUDA does not declare
    assert v["reference_index"] == "69"  # host parameters named blockIdx, blockDim, threadIdx
    assert v["names"] == "2,3"  # globals named half and local
    assert v["int_limits"] == "2147483647,4294967295,-9223372036854775808"  # <climits> without including it
    # (and the program builds with its own __lane_id, which CUDA does not declare either)


def test_conversions_round_as_the_gpu_does(built: Built) -> None:
    v = built.values("coverage.cu")
    assert v["f2i"] == "2,-2,3,-3"
    assert v["d2i"] == "4,-3,4,-4"
    assert v["f2u"] == "2,1,2,1"
    assert v["f2u_clamped"] == "0,4294967295"  # out of range saturates, as cvt does
    assert v["f2ll"] == "0,-1,-1,-2"
    assert v["f2ll_big"] == "9223372036854775807"
    assert v["i2f"] == "16777216.0,16777218.0,16777218.0,-16777218.0"
    assert v["ll2f"] == "9007199254740992.0,33554432.0,33554436.0,33554432.0"
    assert v["ui2f_rz"] == "4294967040.0"
    assert v["d2f"] == "0x1.99999ap-4,-0x1.999998p-4,0x1.99999ap-4,0x1.999998p-4"
    assert v["f2i_nan_big"] == "0,2147483647"
    assert v["bits"] == "0x3f800000 back=3.141593"
    # arithmetic in the suffix's rounding mode (each differs from round-to-nearest)
    assert v["rounded"] == ",".join([
        "0x1.000002p+0", "0x1p+0", "0x1.6a09e8p+0", "0x1.6a09e6p+0", "0x1.fffffep-1", "0x1.fffffffffffffp-1",
        "0x1.5555555555556p-2",
    ])  # fmt: skip


def test_half_conversions_and_math(built: Built) -> None:
    v = built.values("half_modes.cu")
    assert v["f2h"] == "3555,3555,3556,b556"  # 1/3: nearest, toward zero, up; -1/3 down
    assert v["f2h_big_rz"] == "7bff i2h_rd=6800"  # 65504 (not inf) toward zero; 2049 down to 2048
    assert v["h2i"] == "2,-2,3,-3"
    assert v["h2other"] == "0,-1,1"
    assert v["math"] == "3,2,-2,2,8,3,0.25,-1"
    assert v["fma"] == "1,0"
    assert v["pair_sum"] == "3.5625"  # 0.25 + 0.5 and 1.5625 + 1.25, each exact in half
    assert v["runtime_guard"] == "1"  # cuda_runtime.h included implicitly, as nvcc does


def test_device_attributes_properties_errors_and_vectors(built: Built) -> None:
    v = built.values("coverage.cu")
    assert v["attr_compute_mode"] == "cudaSuccess,0"  # cudaComputeModeDefault
    assert v["attr_positive"] == "1"
    assert v["prop_positive"] == "1"
    assert v["error_names"] == "cudaErrorAssert,an illegal memory access was encountered,701"
    assert v["dim3_to_uint3"] == "32,1,1"
    assert v["vectors"] == "5,-1,16,16"
    assert v["peer"] == "cudaErrorInvalidDevice,cudaSuccess,30"  # no device 1; a copy within device 0
    assert v["meminfo"] == "1"  # free memory falls with the program's own allocations (and only with them)
    assert v["dp4a"] == "10,1546"  # signed and unsigned byte dot products
    # SIMD lanes: signed/unsigned saturation, comparison masks, saturated abs, sum of absolute differences
    assert v["simd"] == "02007f81,ffff0305,8000ffff,ff0000ff,7f01017f,8"
    assert v["api"] == "cudaSuccess,4096,cudaSuccess,1,cudaSuccess"  # limits, pointer attributes, cudaMallocAsync
    assert v["device_flags"] == "4,24"  # cudaDeviceBlockingSync is cudaDeviceScheduleBlockingSync
    hip = built.values("coverage.hip")
    assert hip["compute_mode"] == "cudaSuccess,0"
    assert hip["assert_error"] == "device-side assert triggered"


def test_amd_wave32_is_the_amd_platform(built: Built, tmp_path: Path) -> None:
    assert built.values("coverage.hip")["platform"] == "amd"
    source, prepared, exe = tmp_path / "a.hip", tmp_path / "a.cpp", tmp_path / "a"
    wave32_amd = command(source, prepared, exe, hip=True, warp_size=32, cxx="g++", platform="amd")
    assert "-D__HIP_PLATFORM_AMD__=1" in wave32_amd and "-D__HIP_PLATFORM_NVIDIA__=1" not in wave32_amd
    wave64_default = command(source, prepared, exe, hip=True, warp_size=64, cxx="g++")
    assert "-D__HIP_PLATFORM_AMD__=1" in wave64_default


def test_device_assert_ends_the_kernel_with_cuda_error(built: Built) -> None:
    result = built.run("limits.cu", ["assert", "5"])
    assert result.returncode == 1, result.text()  # the program's own exit after cudaErrorAssert
    out = result.stdout.decode()
    assert "assert_sync=cudaErrorAssert\n" in out
    assert "assert_string=device-side assert triggered\n" in out
    assert "assert_memcpy=cudaErrorAssert\n" in out and "assert_last=cudaErrorAssert\n" in out  # sticky
    err = result.stderr.decode()
    assert "limits.cu:" in err and "thread: [5,0,0] Assertion `static_cast<int>(threadIdx.x) < limit` failed." in err
    assert built.values("limits.cu", ["assert", "64"])["assert_sync"] == "cudaSuccess"


def test_large_locals_and_shared_in_1024_thread_blocks(built: Built) -> None:
    v = built.values("limits.cu", ["locals"])
    assert v["locals_error"] == "cudaSuccess"
    per_thread = [sum(((i * 31 % 4096) * 7 + t) % 13 for i in range(4096)) + 12 for t in range(1024)]
    assert v["locals_total"] == str(16 * sum(per_thread))


def test_many_workers_share_a_small_address_space(built: Built) -> None:
    # 16 workers x 1024 fibers x 576 KiB of stack is 9 GiB: under 2 GiB, the workers that cannot
    # reserve theirs sit the launch out instead of aborting the program.
    result = built.run("limits.cu", ["locals"], env={"CASS_CPU_THREADS": "16"}, address_space_mb=2048)
    assert result.ok, result.text()
    assert "locals_error=cudaSuccess" in result.stdout.decode()


def test_stacks_that_cannot_fit_name_the_limit(built: Built) -> None:
    result = built.run("limits.cu", ["locals"], env={"CASS_CPU_STACK_KB": "4096"}, address_space_mb=2048)
    assert result.returncode == EXIT_UNSUPPORTED
    outcome = classify(result)
    assert outcome.kind == "unsupported"
    assert "1024-thread block" in outcome.detail and "CASS_CPU_STACK_KB" in outcome.detail
    assert "2048 MiB" in outcome.detail and "memoryMb" in outcome.detail


def test_deep_recursion_overflow_is_reported_and_configurable(built: Built) -> None:
    assert built.values("limits.cu", ["recurse", "1000"])["recurse"] == "1000"
    result = built.run("limits.cu", ["recurse", "10000"])
    outcome = classify(result)
    assert outcome.kind == "unsupported", result.text()
    assert "fiber stack overflow in kernel recurse" in outcome.detail and "CASS_CPU_STACK_KB" in outcome.detail
    assert built.values("limits.cu", ["recurse", "10000"], env={"CASS_CPU_STACK_KB": "8192"})["recurse"] == "10000"


def test_a_frame_larger_than_the_guard_is_reported(built: Built) -> None:
    assert built.values("limits.cu", ["frame"])["frame"] == str(32767 + 63)
    result = built.run("limits.cu", ["frame"], env={"CASS_CPU_STACK_KB": "64"})
    outcome = classify(result)
    assert outcome.kind == "unsupported", result.text()  # without -fstack-clash-protection: SIGSEGV
    assert "fiber stack overflow in kernel one_big_frame" in outcome.detail


def test_kernels_launched_from_several_host_threads(built: Built) -> None:
    # the launches take turns (before, the shared worker pool hung with two launches in flight)
    assert built.values("limits.cu", ["threads"])["threads"] == "50,100,150,200"


def test_an_invalid_access_says_which_gpu_thread_made_it(built: Built) -> None:
    result = built.run("limits.cu", ["poke", "0"])
    outcome = classify(result)
    assert outcome.kind == "crashed", result.text()
    assert outcome.detail.startswith("killed by SIGSEGV (invalid memory access at ")
    assert "in kernel poke, block (0,0,0), thread (0,0,0)" in outcome.detail


def test_an_invalid_access_in_a_plain_loop_names_its_thread(built: Built) -> None:
    # barrier-free kernels that read no memory, their blocks run back to back in one plain loop:
    # the first thread in run order of one block faults, whichever way the threads run
    runs = [("poke_row", {"CASS_CPU_THREADS": "1"}, "block (2,0,0), thread (0,0,0)"),
            ("poke_row", {"CASS_CPU_THREADS": "1", "CASS_CPU_ORDER": "reverse"}, "block (2,0,0), thread (31,0,0)"),
            ("poke_block", {"CASS_CPU_THREADS": "1"}, "block (1,2,0), thread (0,0,0)"),
            ("poke_block", {"CASS_CPU_THREADS": "4"}, "block (1,2,0), thread (0,0,0)"),
            ("poke_block", {"CASS_CPU_THREADS": "1", "CASS_CPU_ORDER": "reverse"}, "block (1,2,0), thread (3,3,1)")]  # fmt: skip
    for mode, env, where in runs:
        result = built.run("limits.cu", [mode, "0"], env=env)
        outcome = classify(result)
        assert outcome.kind == "crashed", (mode, env, result.text())
        assert f"in kernel poke_block, {where}" in outcome.detail, (mode, env, outcome.detail)
