"""The committed API tables: provenance, content, corrections, and the generator that makes them."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from cass_lsp.toolchains import rocm71
from cass_lsp.translate import lookup, tables

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))
import gen_tables  # noqa: E402

FAMILIES = ["runtime", "driver", "device", "rtc", "complex", "blas", "rand", "fft", "sparse", "solver", "dnn", "cub",
            "nvtx"]
# Renames the rule engine makes when the table says HIP added the name (runtime-side families).
HEADER_CHECKED_FAMILIES = ("runtime", "driver", "device", "complex", "rtc")


def all_rows() -> list[tables.Row]:
    names = [*tables.action_names(), *tables._tables().identity]
    return [row for row in map(tables.row, names) if row is not None]


def header_tokens(*folders: Path) -> set[str]:
    """Names in the AMD side of HIP headers (the NVIDIA-platform mappings do not count)."""
    found: set[str] = set()
    for folder in folders:
        for path in folder.rglob("*.h*"):
            if {"nvidia_detail", "nvcc_detail"} & set(path.parts):
                continue
            found.update(re.findall(r"[A-Za-z_]\w*", path.read_text(encoding="utf-8", errors="replace")))
    return found


def test_provenance_is_recorded() -> None:
    source = tables.source()
    assert "HIPIFY" in source["release"] and "ROCm 6.3" in source["release"]
    assert source["rows"] == 8932 and re.fullmatch(r"[0-9a-f]{64}", source["sha256"])
    assert source["generator"] == "tools/gen_tables.py"


def test_the_twelve_hipify_families_and_nvtx_are_there() -> None:
    assert tables.families() == FAMILIES
    counts = {f: 0 for f in FAMILIES}
    for row in all_rows():
        counts[row.family] += 1
    assert all(counts[f] > 0 for f in FAMILIES), counts
    assert sum(counts.values()) > 8900


@pytest.mark.parametrize(
    ("cuda", "hip", "family", "alt"),
    [
        ("cudaMalloc", "hipMalloc", "runtime", ""),
        ("cuMemAlloc_v2", "hipMalloc", "driver", ""),
        ("__half2float", "__half2float", "device", ""),
        ("nvrtcCreateProgram", "hiprtcCreateProgram", "rtc", ""),
        ("cuCaddf", "hipCaddf", "complex", ""),
        ("cublasSgemm_v2", "hipblasSgemm", "blas", "rocblas_sgemm"),
        ("curand_init", "hiprand_init", "rand", "rocrand_init"),
        ("cufftExecC2C", "hipfftExecC2C", "fft", ""),
        ("cusparseCreate", "hipsparseCreate", "sparse", "rocsparse_create_handle"),
        ("cusolverDnCreate", "hipsolverDnCreate", "solver", "rocblas_create_handle"),
        ("cudnnCreate", "hipdnnCreate", "dnn", "miopenCreate"),
        ("CUB_MAX", "CUB_MAX", "cub", ""),
        ("nvtxRangePush", "roctxRangePushA", "nvtx", ""),
    ],
)
def test_entries_of_each_family(cuda: str, hip: str, family: str, alt: str) -> None:
    entry = lookup(cuda)
    assert entry is not None
    assert (entry.hip, entry.family, entry.alt) == (hip, family, alt)


def test_versions_are_kept() -> None:
    entry = lookup("cudaBindTexture")
    assert entry is not None
    assert (entry.cuda_deprecated, entry.cuda_removed, entry.hip_added, entry.hip_deprecated) == (
        "11.0", "12.0", "1.6.0", "3.8.0")
    experimental = lookup("cublasSgemm_64")
    assert experimental is not None and experimental.hip_experimental == "6.3.0"
    dnn = lookup("cudnnCreate")
    assert dnn is not None and not dnn.supported and dnn.alt_kind == "MIOPEN"


def test_reverse_direction_picks_the_current_runtime_spelling() -> None:
    reverse = tables.reverse_names()
    assert reverse["hipDeviceSynchronize"] == "cudaDeviceSynchronize"  # not cudaThreadSynchronize
    assert reverse["hipStreamDestroy"] == "cudaStreamDestroy"  # not cuStreamDestroy
    assert reverse["hipError_t"] == "cudaError_t"  # not cudaError
    assert reverse["hipblasSgemm"] == "cublasSgemm"  # not cublasSgemm_v2
    assert reverse["__HIP_DEVICE_COMPILE__"] == "__CUDA_ARCH__"


def test_corrections_carry_their_reason() -> None:
    gone = lookup("cudaDevAttrMaxBlocksPerMultiprocessor")
    assert gone is not None and not gone.supported and "Absent" in gone.note
    jit = lookup("CU_JIT_MAX_REGISTERS")
    assert jit is not None and jit.hip_added == "6.2.0" and "5.2" in jit.note
    data_type = lookup("CUDA_R_32F")
    assert data_type is not None and data_type.hip == "HIP_R_32F" and data_type.hip_added == "5.2.0"
    warp = lookup("__ballot_sync")
    assert warp is not None and warp.hip == "__ballot_sync" and "ROCm" in warp.note


def hip_renames_up_to(version: tuple[int, int]) -> list[tables.Row]:
    return [r for r in all_rows() if r.family in HEADER_CHECKED_FAMILIES and r.supported and r.hip != r.cuda
            and "cass-lsp" not in r.section and tables.version_tuple(r.hip_added) <= version]


def test_renames_available_in_rocm52_exist_in_debians_hip_headers() -> None:
    tokens = header_tokens(Path("/usr/include/hip"))
    missing = [(r.cuda, r.hip) for r in hip_renames_up_to((5, 2)) if r.hip not in tokens]
    assert missing == []


def test_renames_available_in_rocm71_exist_in_its_headers() -> None:
    if not rocm71.installed():
        pytest.fail(f"the HIP 7.1 headers are missing: run {rocm71.SETUP_HINT}")
    tokens = header_tokens(rocm71.root() / "hip71" / "include", rocm71.root() / "hip62" / "include")
    missing = [(r.cuda, r.hip) for r in hip_renames_up_to((7, 1)) if r.hip not in tokens]
    assert missing == []


def test_the_generator_builds_the_layout_and_detects_stale_data(tmp_path: Path) -> None:
    csv = tmp_path / "t.csv"
    header = ("api,section,cuda,cuda_added,cuda_deprecated,cuda_changed,cuda_removed,hip,hip_added,hip_deprecated,"
              "hip_changed,hip_removed,hip_experimental,alt,alt_kind,alt_added,alt_deprecated,alt_changed,"
              "alt_removed,alt_experimental")
    columns = header.split(",")

    def line(**values: str) -> str:
        return ",".join(values.get(c, "") for c in columns)

    csv.write_text("\n".join([
        header,
        line(api="runtime", section="Memory", cuda="cudaFoo", hip="hipFoo", hip_added="1.6.0"),
        line(api="driver", section="Memory", cuda="cuFoo", hip="hipFoo", hip_added="1.6.0"),
        line(api="runtime", section="Memory", cuda="cudaBar", cuda_added="12.0"),
        line(api="device", section="Device Functions", cuda="__same", hip="__same", hip_added="1.6.0"),
    ]) + "\n")
    data = gen_tables.build(csv)
    assert data["source"]["rows"] == 4
    assert "cudaFoo" in data["names"] and "cudaBar" in data["names"]
    assert "__same" in data["identityNames"]
    assert ["hipFoo", "cudaFoo"] in data["reverse"]
    assert "__ballot_sync" in data["names"]
    out = tmp_path / "tables.json"
    assert gen_tables.main(["--csv", str(csv), "--out", str(out)]) == 0
    assert gen_tables.main(["--csv", str(csv), "--out", str(out), "--check"]) == 0
    out.write_text(out.read_text().replace("hipFoo", "hipBaz"))
    assert gen_tables.main(["--csv", str(csv), "--out", str(out), "--check"]) == 1
