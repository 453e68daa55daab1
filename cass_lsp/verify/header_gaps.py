"""A translation's compile error that says nothing about the translation: clang does not know a HIP
library name the target ROCm has, because the library headers it compiles against are older.

The ROCm 7.1 profile compiles against Debian 13's hipBLAS, hipFFT and hipSOLVER headers (ROCm 5.5,
:mod:`cass_lsp.toolchains.hiplibs`), so a name those libraries added in ROCm 6 (``hipblasCgemm_v2``,
``HIPBLAS_COMPUTE_32F``) is undeclared there although the translation is right to call it.
"""

from __future__ import annotations

import re

from cass_lsp.translate import tables

_UNDECLARED = re.compile(r"use of undeclared identifier '(?P<name>\w+)'")
# API tables' family -> the Debian package of the library headers the HIP compile reads
_PACKAGES = {"blas": "libhipblas-dev", "fft": "libhipfft-dev", "solver": "libhipsolver-dev"}


def newer_than_headers(message: str, versions: dict[str, str]) -> str | None:
    """Why clang's error ``message`` is the headers' gap, not the translation's defect (None: it is
    not one): the name it does not know is a HIP library name the API tables date after the version
    of that library's headers in ``versions`` (a compile's tool versions, ``hip-libs`` among them)."""
    m = _UNDECLARED.search(message)
    cuda = tables.reverse_names().get(m["name"]) if m else None
    row = tables.row(cuda) if cuda is not None else None
    if m is None or row is None or row.family not in _PACKAGES or not row.hip_added:
        return None
    package = _PACKAGES[row.family]
    packaged = re.search(rf"\b{re.escape(package)} (?P<version>\d+\.\d+)", versions.get("hip-libs", ""))
    if packaged is None or tables.version_tuple(row.hip_added) <= tables.version_tuple(packaged["version"]):
        return None
    return (f"the library headers here ({package} {packaged['version']}) do not declare {m['name']}, which the"
            f" target ROCm has (since ROCm {row.hip_added})")
