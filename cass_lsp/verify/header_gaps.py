"""A translation's compile error that says nothing about the translation: clang does not know a HIP
library name the target ROCm has, because the library headers it compiles against are older.

The ROCm 7.1 profile compiles against Debian 13's hipBLAS, hipFFT and hipSOLVER headers (ROCm 5.5,
:mod:`cass_lsp.toolchains.hiplibs`) and, as every profile, Debian 12's hipSPARSE and hipRAND (ROCm
5.3, in ``/usr/include``), so a name those libraries added later (``hipblasCgemm_v2``,
``HIPBLAS_COMPUTE_32F``, ``HIPSPARSE_CSR2CSC_ALG_DEFAULT``, ``HIPRAND_ORDERING_PSEUDO_BEST``) is
undeclared there although the translation is right to use it. A name the target ROCm itself lacks
(one of ROCm 6.0 in a translation for ROCm 5.2) stays the translation's error.
"""

from __future__ import annotations

import re

from cass_lsp.translate import tables

_UNDECLARED = re.compile(r"use of undeclared identifier '(?P<name>\w+)'")
# API tables' family -> the Debian package of the library headers the HIP compile reads, and the
# compile's tool version that names it (hip-libs: fetched from Debian 13; system-hip-libs: Debian 12's own)
_PACKAGES = {"blas": ("libhipblas-dev", "hip-libs"), "fft": ("libhipfft-dev", "hip-libs"),
             "solver": ("libhipsolver-dev", "hip-libs"), "sparse": ("libhipsparse-dev", "system-hip-libs"),
             "rand": ("libhiprand-dev", "system-hip-libs")}  # fmt: skip
_VERSION = re.compile(r"(?P<version>\d+\.\d+(?:\.\d+)?)")


def newer_than_headers(message: str, versions: dict[str, str]) -> str | None:
    """Why clang's error ``message`` is the headers' gap, not the translation's defect (None: it is
    not one): the name it does not know is a HIP library name the API tables date after the version
    of that library's headers in ``versions`` (a compile's tool versions, ``hip-libs`` and
    ``system-hip-libs`` among them) and, when ``versions`` names the target's HIP, no later than it."""
    m = _UNDECLARED.search(message)
    cuda = tables.reverse_names().get(m["name"]) if m else None
    row = tables.row(cuda) if cuda is not None else None
    if m is None or row is None or row.family not in _PACKAGES or not row.hip_added:
        return None
    package, key = _PACKAGES[row.family]
    packaged = re.search(rf"\b{re.escape(package)} (?P<version>\d+\.\d+)", versions.get(key, ""))
    if packaged is None or tables.version_tuple(row.hip_added) <= tables.version_tuple(packaged["version"]):
        return None
    target = _VERSION.match(versions.get("hip", ""))
    if target is not None and tables.version_tuple(row.hip_added) > tables.version_tuple(target["version"]):
        return None  # the target ROCm lacks it too: the translation should not use it
    return (f"the library headers here ({package} {packaged['version']}) do not declare {m['name']}, which the"
            f" target ROCm has (since ROCm {row.hip_added})")
