#!/usr/bin/env python3
"""Generate ``cass_lsp/translate/data/api_tables.json`` from the HIPIFY API support tables.

Usage::

    python tools/gen_tables.py [--csv ../shared/data/cuda_hip_api_tables.csv] [--out PATH] [--check]

``--check`` regenerates in memory and fails when the committed file differs.

The CSV is the extraction of the API support tables that AMD publishes with HIPIFY (ROCm 6.3 era
docs; 12 families). The output keeps every fact of the CSV, plus a few hand-written rows and
corrections below, each with a note saying why. Layout (decoded by ``cass_lsp.translate.tables``):

- ``names``/``rows``: CUDA names that need an action (a rename, a finding) and, in the same order,
  one ``|``-separated row each (columns in ``columns``); ``identityNames``/``identityRows``: the
  same for names that HIP spells the same way with nothing to report. Parallel lists of plain
  strings decode fastest with the standard library's json (the CLI avoids importing msgspec), and
  rows are split only when a name is met.
- ``reverse``: [HIP name, canonical CUDA name] pairs (for HIP -> CUDA translation).
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import json
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_CSV = ROOT.parent / "shared" / "data" / "cuda_hip_api_tables.csv"
DEFAULT_OUT = ROOT / "cass_lsp" / "translate" / "data" / "api_tables.json"

RELEASE = "HIPIFY API support tables (HIPIFY docs, ROCm 6.3 era)"
FAMILIES = ["runtime", "driver", "device", "rtc", "complex", "blas", "rand", "fft", "sparse", "solver",
            "dnn", "cub", "nvtx"]
# Row columns after the CUDA name (which is the key). ``note`` is ours.
COLUMNS = ["hip", "family", "section", "cudaAdded", "cudaDeprecated", "cudaChanged", "cudaRemoved",
           "hipAdded", "hipDeprecated", "hipChanged", "hipRemoved", "hipExperimental", "alt", "altKind",
           "altAdded", "altDeprecated", "altChanged", "altRemoved", "altExperimental", "note"]
CSV_COLUMNS = ["hip", "api", "section", "cuda_added", "cuda_deprecated", "cuda_changed", "cuda_removed",
               "hip_added", "hip_deprecated", "hip_changed", "hip_removed", "hip_experimental", "alt",
               "alt_kind", "alt_added", "alt_deprecated", "alt_changed", "alt_removed", "alt_experimental"]

_WARP_NOTE = ("Translated per target ROCm: before 7.0 to the non-sync form (mask dropped when it is the "
              "full mask); HIP 6.2 has it only with -DHIP_ENABLE_WARP_SYNC_BUILTINS; from 7.0 on by "
              "default with a 64-bit lane mask.")
_WARP_70_NOTE = "In HIP from ROCm 7.0 (64-bit lane mask); no equivalent in older ROCm."

# NVTX (nvtx3/nvToolsExt.h), which the HIPIFY tables lack: the markers and ranges whose roctx
# (roctracer/roctx.h, libroctx64) twins take and return the same (a char string; int depths;
# a 64-bit range id), spelled with roctx's A names (ASCII, as NVTX's unsuffixed macros are
# without UNICODE). Checked against roctracer's roctx.h (its API 4.1).
_NVTX_SECTION = "NVTX markers and ranges (cass-lsp rule)"
_NVTX_TWINS = {"nvtxMark": "roctxMarkA", "nvtxMarkA": "roctxMarkA", "nvtxRangePush": "roctxRangePushA",
               "nvtxRangePushA": "roctxRangePushA", "nvtxRangePop": "roctxRangePop",
               "nvtxRangeStart": "roctxRangeStartA", "nvtxRangeStartA": "roctxRangeStartA",
               "nvtxRangeEnd": "roctxRangeStop", "nvtxRangeId_t": "roctx_range_id_t"}
_NVTX_TWIN_NOTE = "roctracer's roctx (roctracer/roctx.h); the port links libroctx64"
_NVTX_NO_TWIN = ("roctracer's roctx has markers and ranges by an ASCII message only: no event attributes (colour, "
                 "category, payload), wide strings, domains or names for threads and CUDA objects")
_NVTX_WITHOUT_TWIN = ("nvtxMarkEx", "nvtxMarkW", "nvtxRangePushEx", "nvtxRangePushW", "nvtxRangeStartEx",
                      "nvtxRangeStartW", "nvtxEventAttributes_t", "nvtxNameOsThreadA", "nvtxNameCudaStreamA",
                      "nvtxNameCudaEventA", "nvtxNameCudaDeviceA", "nvtxDomainCreateA", "nvtxDomainHandle_t",
                      "nvtxDomainRangePushEx", "nvtxDomainRangePop", "nvtxDomainMarkEx")

# Names the HIPIFY tables lack or mark unsupported although HIP has them behind a target-dependent
# rule; the engine's warp rules decide the spelling per ROCm version.
EXTRA_ROWS: list[dict[str, str]] = [
    *({"cuda": n, "hip": n, "api": "device", "section": "Warp Functions (cass-lsp rule)",
       "hip_added": "6.2.0", "note": _WARP_NOTE}
      for n in ("__shfl_sync", "__shfl_up_sync", "__shfl_down_sync", "__shfl_xor_sync", "__ballot_sync",
                "__any_sync", "__all_sync", "__activemask", "__syncwarp")),
    *({"cuda": n, "hip": n, "api": "device", "section": "Warp Functions (cass-lsp rule)",
       "hip_added": "7.0.0", "note": _WARP_70_NOTE}
      for n in ("__match_any_sync", "__match_all_sync", "__reduce_add_sync", "__reduce_min_sync",
                "__reduce_max_sync", "__reduce_and_sync", "__reduce_or_sync", "__reduce_xor_sync")),
    *({"cuda": n, "hip": n, "api": "device", "section": "Cooperative Groups (cass-lsp rule)", "hip_added": "6.2.0",
       "note": "thread_block_tile member: absent from the HIP 5.2 cooperative groups headers, present in 6.2."}
      for n in ("meta_group_rank", "meta_group_size")),
    {"cuda": "__CUDA_ARCH__", "hip": "__HIP_DEVICE_COMPILE__", "api": "device",
     "section": "Preprocessor (cass-lsp rule)", "hip_added": "1.6.0",
     "note": "Only defined/undefined tests translate; numeric __CUDA_ARCH__ comparisons need a human."},
    *({"cuda": cuda, "hip": roctx, "api": "nvtx", "section": _NVTX_SECTION, "hip_added": "5.2.0",
       "note": _NVTX_TWIN_NOTE} for cuda, roctx in _NVTX_TWINS.items()),
    *({"cuda": cuda, "hip": "", "api": "nvtx", "section": _NVTX_SECTION, "note": _NVTX_NO_TWIN}
      for cuda in _NVTX_WITHOUT_TWIN),
]

# Corrections from compiling against real headers: Debian 12's HIP 5.2.21153, and HIP 6.2.41134 /
# 7.1.25424 from the triton wheels (see shared/TOOLCHAINS.md).
_NOT_IN_ANY_HIP = "Absent from the HIP 5.2, 6.2 and 7.1 headers although the HIPIFY table lists it."
_JIT_NOTE = "Absent from the HIP 5.2 headers; present in HIP 6.2 (hiprtc.h)."
_DATA_TYPE_NOTE = ("hipDataType is in HIP's hip/library_types.h in ROCm 5.2 (hipSPARSE's generic API takes it); "
                   "hipBLAS takes it only from ROCm 5.7 (before that, hipblasDatatype_t).")
# ROC columns completed from other rows of the same tables (cass_lsp.translate.libraries reads them
# under translate.libraries = "roc").
_ROC_HANDLE_NOTE = ("rocSOLVER works on rocBLAS handles; the tables give rocBLAS's handle functions "
                    "since ROCm 1.5.0 in their cuBLAS rows (cublasCreate -> rocblas_create_handle)")
_XORWOW_NOTE = ("cuRAND's default state is XORWOW; rocRAND has it as rocrand_state_xorwow since ROCm 1.5.0 "
                "(the tables give rocrand_init, which takes it, since 1.5.0)")
_ORDER_NOTE = ("the HIPIFY table swaps the two ROC orders; rocSPARSE's rocsparse_order is row 0, column 1 "
               "(rocsparse-types.h)")
_STREAM_ATTRIBUTE_NOTE = ("In the HIP 7.1 headers (the stream names as macros for the hipLaunchAttribute ones); "
                          "absent from the HIP 5.2 and 6.2 headers although the HIPIFY table lists it unsupported.")
_STREAM_ATTRIBUTES = {"cudaStreamAttrValue": "hipStreamAttrValue", "cudaStreamAttrID": "hipStreamAttrID",
                      "cudaStreamSetAttribute": "hipStreamSetAttribute",
                      "cudaStreamGetAttribute": "hipStreamGetAttribute",
                      "cudaSynchronizationPolicy": "hipSynchronizationPolicy",
                      **{f"cudaStreamAttribute{n}": f"hipStreamAttribute{n}" for n in (
                          "AccessPolicyWindow", "SynchronizationPolicy", "MemSyncDomainMap", "MemSyncDomain",
                          "Priority")},
                      **{f"cudaSyncPolicy{n}": f"hipSyncPolicy{n}" for n in ("Auto", "Spin", "Yield", "BlockingSync")}}
_V1_NOTE = ("legacy cuBLAS v1 API (cublas.h): HIP has no global BLAS context; {}")
CORRECTIONS: dict[str, dict[str, str]] = {
    **{n: {"alt_added": "1.5.0", "note": _ROC_HANDLE_NOTE} for n in (
        "cusolverDnCreate", "cusolverDnDestroy", "cusolverDnGetStream", "cusolverDnSetStream")},
    **{n: {"alt": "rocrand_state_xorwow", "alt_added": "1.5.0", "note": _XORWOW_NOTE} for n in (
        "curandState", "curandState_t", "curandStateXORWOW", "curandStateXORWOW_t")},
    **{cuda: {"hip": hip, "hip_added": "7.1.0", "note": _STREAM_ATTRIBUTE_NOTE} for cuda, hip in _STREAM_ATTRIBUTES.items()},
    **{f"cudaGraphicsMapFlags{n}": {"hip": f"hipGraphicsRegisterFlags{n}", "hip_added": "4.4.0", "note": (
        "HIP has no map-flags enum; its register flag of the same name has the same value (0, 1, 2 in both "
        "APIs), which is what the GL/D3D register calls that CUDA code passes them to take")}
       for n in ("None", "ReadOnly", "WriteDiscard")},
    "cudaMemLocationTypeHost": {"hip": "hipMemLocationTypeHost", "hip_added": "7.1.0", "note": (
        "In the HIP 7.1 headers (hipMemLocationType); absent from the HIP 5.2 and 6.2 headers.")},
    "CUSPARSE_ORDER_COL": {"alt": "rocsparse_order_column", "note": _ORDER_NOTE},
    "CUSPARSE_ORDER_ROW": {"alt": "rocsparse_order_row", "note": _ORDER_NOTE},
    **{f"nvrtcGetCUBIN{n}": {"hip": f"hiprtcGetCode{n}", "hip_added": "2.6.0", "note": (
        "a CUBIN is the loadable machine code (cuModuleLoadData takes it): HIP's is hiprtcGetCode's code object, "
        "which hipModuleLoadData loads; the HIPIFY table gives hiprtcGetBitcode, LLVM bitcode for -fgpu-rdc "
        "linking, which no module load accepts")} for n in ("", "Size")},
    "CU_DEVICE_ATTRIBUTE_VIRTUAL_ADDRESS_MANAGEMENT_SUPPORTED": {
        "hip": "hipDeviceAttributeVirtualMemoryManagementSupported", "hip_added": "5.3.0", "note": (
            "CUDA's deprecated alias of CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED (both 102 in cuda.h), "
            "whose HIP twin the table gives; cuda-samples' vectorAddMMAP still uses it")},
    "CUBLAS_STATUS_LICENSE_ERROR": {"hip_added": "4.4.0", "note": (
        "hipBLAS has no licence status; HIPBLAS_STATUS_UNKNOWN (since hipBLAS 0.47, ROCm 4.4, per its CHANGELOG) "
        "is the status it returns for a back-end code it cannot map; the HIPIFY table leaves its version empty")},
    "cusolver_int_t": {"hip_added": "4.5.0", "note": (
        "cuSOLVER's 32-bit integer typedef; hipSOLVER declares those parameters plain int (rocSOLVER: rocblas_int)")},
    "cublasInit": {"note": _V1_NOTE.format("nothing needs initialising (drop the call; rocBLAS's "
                                          "rocblas_initialize only preloads kernels)")},
    "cublasShutdown": {"note": _V1_NOTE.format("nothing to shut down: destroy the handles the port creates")},
    "cublasAlloc": {"note": _V1_NOTE.format("cublasAlloc(n, elemSize, &p) is hipMalloc(&p, n * elemSize)")},
    "cublasFree": {"note": _V1_NOTE.format("cublasFree(p) is hipFree(p)")},
    **{n: {"hip_added": "5.2.0", "note": _DATA_TYPE_NOTE} for n in (
        "cudaDataType", "cudaDataType_t", "CUDA_R_16F", "CUDA_R_32F", "CUDA_R_64F", "CUDA_C_16F", "CUDA_C_32F",
        "CUDA_C_64F")},
    "cudaDevAttrMaxBlocksPerMultiprocessor": {"hip_added": "", "note": _NOT_IN_ANY_HIP},
    "CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR": {"hip_added": "", "note": _NOT_IN_ANY_HIP},
    "CU_DEVICE_ATTRIBUTE_MULTI_GPU_BOARD_GROUP_ID": {"hip_added": "", "note": _NOT_IN_ANY_HIP},
    **{f"CU_JIT_{n}": {"hip_added": "6.2.0", "note": _JIT_NOTE} for n in (
        "CACHE_MODE", "ERROR_LOG_BUFFER", "ERROR_LOG_BUFFER_SIZE_BYTES", "FALLBACK_STRATEGY",
        "FAST_COMPILE", "GENERATE_DEBUG_INFO", "GENERATE_LINE_INFO", "INFO_LOG_BUFFER",
        "INFO_LOG_BUFFER_SIZE_BYTES", "LOG_VERBOSE", "MAX_REGISTERS", "NEW_SM3X_OPT", "NUM_OPTIONS",
        "OPTIMIZATION_LEVEL", "TARGET", "TARGET_FROM_CUCONTEXT", "THREADS_PER_BLOCK", "WALL_TIME")},
}

# The reverse direction picks one CUDA spelling per HIP name: runtime before libraries before the
# driver API, then the current (not deprecated/removed) one, then the one that shares the longest
# ending with the HIP name (hipError_t -> cudaError_t, not cudaError), then the unsuffixed one.
_FAMILY_RANK = {f: i for i, f in enumerate(["runtime", "device", "complex", "rtc", "blas", "rand", "fft",
                                            "sparse", "solver", "cub", "dnn", "nvtx", "driver"])}


_C_KEYWORDS = frozenset({"int", "unsigned", "long", "short", "char", "float", "double", "void"})


def _common_suffix(a: str, b: str) -> int:
    n = 0
    while n < min(len(a), len(b)) and a[-1 - n] == b[-1 - n]:
        n += 1
    return n


def _supported(row: dict[str, str]) -> bool:
    return bool(row["hip"] and row["hip_added"])


def _needs_action(cuda: str, row: dict[str, str]) -> bool:
    quiet = (row["hip"] == cuda and _supported(row) and not row["note"] and row["alt"] in ("", cuda)
             and not any(row[k] for k in ("cuda_deprecated", "cuda_removed", "hip_deprecated",
                                           "hip_removed", "hip_experimental")))
    return not quiet


def _reverse_key(cuda: str, row: dict[str, str]) -> tuple[int, int, int, int, int, int, str]:
    return (_FAMILY_RANK[row["api"]], bool(row["cuda_removed"]), bool(row["cuda_deprecated"]),
            -_common_suffix(cuda, row["hip"]), "_v2" in cuda, len(cuda), cuda)


def load_rows(csv_path: Path) -> dict[str, dict[str, str]]:
    rows: dict[str, dict[str, str]] = {}
    with csv_path.open(newline="", encoding="utf-8") as f:
        for raw in csv.DictReader(f):
            row = {k: (v or "").strip() for k, v in raw.items()}
            row["note"] = ""
            name = row["cuda"]
            # A few struct tags appear in two families; keep the supported row.
            if name in rows and (_supported(rows[name]) or not _supported(row)):
                continue
            rows[name] = row
    for extra in EXTRA_ROWS:
        base = {k: "" for k in CSV_COLUMNS}
        old = rows.get(extra["cuda"])
        if old is not None:
            base.update({k: old[k] for k in CSV_COLUMNS if k.startswith("cuda_")})
        base.update(extra)
        rows[extra["cuda"]] = base
    for name, fix in CORRECTIONS.items():
        if name in rows:
            rows[name].update(fix)
    return rows


def build(csv_path: Path) -> dict[str, Any]:
    rows = load_rows(csv_path)
    sections = sorted({r["section"] for r in rows.values()})
    section_index = {s: i for i, s in enumerate(sections)}
    family_index = {f: i for i, f in enumerate(FAMILIES)}

    def encode(row: dict[str, str]) -> str:
        fields = [row[c] for c in CSV_COLUMNS] + [row["note"]]
        fields[1] = str(family_index[row["api"]])
        fields[2] = str(section_index[row["section"]])
        if any("|" in x for x in fields):
            raise ValueError(f"'|' in a field of {row['cuda']}")
        return "|".join(fields)

    forward: dict[str, str] = {}
    identity: dict[str, str] = {}
    candidates: dict[str, list[str]] = {}
    for name in sorted(rows):
        row = rows[name]
        (forward if _needs_action(name, row) else identity)[name] = encode(row)
        hip = row["hip"]
        # cusolver_int_t's HIP spelling is the keyword int, which reverse translation must leave alone.
        if _supported(row) and hip.isidentifier() and hip != name and hip not in _C_KEYWORDS:
            candidates.setdefault(hip, []).append(name)
    reverse = {hip: min(names, key=lambda n: _reverse_key(n, rows[n]))
               for hip, names in sorted(candidates.items())}
    digest = hashlib.sha256(csv_path.read_bytes()).hexdigest()
    return {
        "format": 1,
        "source": {"release": RELEASE, "file": csv_path.name, "sha256": digest,
                   "rows": sum(1 for _ in csv_path.open(encoding="utf-8")) - 1,
                   "generator": "tools/gen_tables.py"},
        "families": FAMILIES,
        "sections": sections,
        "columns": COLUMNS,
        "names": list(forward),
        "rows": list(forward.values()),
        "identityNames": list(identity),
        "identityRows": list(identity.values()),
        "reverse": [[hip, cuda] for hip, cuda in reverse.items()],
    }


def render(data: dict[str, Any]) -> str:
    """One entry per line keeps the committed file reviewable in diffs."""
    return json.dumps(data, indent=0, ensure_ascii=False) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--csv", type=Path, default=DEFAULT_CSV)
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--check", action="store_true", help="fail when the committed file is out of date")
    args = parser.parse_args(argv)
    data = build(args.csv)
    text = render(data)
    if args.check:
        current = args.out.read_text(encoding="utf-8") if args.out.exists() else ""
        if current != text:
            print(f"{args.out} is out of date: run tools/gen_tables.py")
            return 1
        print(f"{args.out} is up to date")
        return 0
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(text, encoding="utf-8")
    print(f"{args.out}: {len(data['names'])} forward, {len(data['identityNames'])} identity, "
          f"{len(data['reverse'])} reverse entries")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
