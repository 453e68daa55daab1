"""API-table names the engine deliberately translates otherwise than the plain table rename.

The tables say which HIP name a CUDA name has; for these names a rule knows better for some
targets or some uses. The table coverage test (tests/unit/test_table_coverage.py) leaves them out
of its percentage where they differ, and fails when an entry no longer differs anywhere it looks.
Rules that act on a use rather than a name (device-side runtime calls, texture references, names a
file declares itself) are not per-row and are tested with their rules.
"""

from __future__ import annotations

from cass_lsp.translate import libraries, rounding, warp

_NON_SYNC = ("HIP before 7.0 gets the non-sync form (HIP 6.x has the sync one only behind "
             "-DHIP_ENABLE_WARP_SYNC_BUILTINS): the mask is dropped when it is the full mask, else reported")

REASONS: dict[str, str] = {
    **{name: _NON_SYNC for name in (*warp.SHUFFLES, *warp.VOTES)},
    "__activemask": "HIP before 7.0 has no __activemask builtin by default: __ballot(1) is the same mask",
    "__syncwarp": ("HIP before 7.0 has no __syncwarp by default: a wavefront fence around "
                   "__builtin_amdgcn_wave_barrier() does the same"),
    "__CUDA_ARCH__": ("only defined()/#ifdef tests become __HIP_DEVICE_COMPILE__; its value (__CUDA_ARCH__ >= "
                      "700, v = __CUDA_ARCH__) reads CASS_CUDA_ARCH, a helper's level of CUDA features AMD GPUs have"),
    **{name: ("HIP declares the cache-hinted loads for __half only: cass_ldcs, ..., a compatibility helper, "
              "loads any type (the hint dropped)") for name in ("__ldca", "__ldcg", "__ldcs")},
    "cudaGraphInstantiate": ("CUDA 12's three-argument form is hipGraphInstantiateWithFlags; "
                             "hipGraphInstantiate keeps CUDA 11's five arguments"),
    "cudaEventCreate": "CUDA's two-argument C++ overload, cudaEventCreate(&e, flags), is hipEventCreateWithFlags",
    **{name: ("HIP's is its approximate reciprocal or square root: cass_frcp_rn, ..., a compatibility helper, "
              "rounds correctly as CUDA's does") for name in rounding.NAMES if name.endswith("_rn")},
}

# Under translate.libraries = "roc", rows of the ROC families (rocBLAS, rocSPARSE, rocRAND, rocSOLVER)
# the engine translates otherwise than the plain ROC-column rename.
ROC_REASONS: dict[str, str] = {
    name: ("rocSOLVER's potrf takes no workspace: a call with cuSOLVER's eight arguments loses Workspace and "
           "Lwork; any other use (a pointer to it, another argument count) is reported for a human")
    for name in libraries.DROPPED_ARGUMENTS
}


def reasons(libraries: str) -> dict[str, str]:
    """The deliberate differences under a library setting ("hip" or "roc")."""
    return ROC_REASONS if libraries == "roc" else REASONS
