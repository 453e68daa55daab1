"""Hover facts: the API table entry of a CUDA (or HIP) name."""

from __future__ import annotations

import msgspec

from cass_lsp.translate import tables


class ApiEntry(msgspec.Struct, rename="camel", frozen=True, omit_defaults=True):
    """A CUDA name, its HIP (and ROC library / MIOpen) equivalents and their versions."""

    cuda: str
    hip: str  # "" when HIP has no equivalent
    family: str  # runtime, driver, device, rtc, complex, blas, rand, fft, sparse, solver, dnn, cub
    section: str
    cuda_added: str = ""
    cuda_deprecated: str = ""
    cuda_changed: str = ""
    cuda_removed: str = ""
    hip_added: str = ""  # "" with a hip name: named by HIPIFY, not implemented
    hip_deprecated: str = ""
    hip_changed: str = ""
    hip_removed: str = ""
    hip_experimental: str = ""
    alt: str = ""  # rocBLAS/rocRAND/rocSPARSE/rocSOLVER or MIOpen name
    alt_kind: str = ""  # ROC or MIOPEN
    alt_added: str = ""
    alt_deprecated: str = ""
    alt_changed: str = ""
    alt_removed: str = ""
    alt_experimental: str = ""
    note: str = ""  # a cass-lsp rule or correction that applies to this name

    @property
    def supported(self) -> bool:
        return bool(self.hip and self.hip_added)


def lookup(name: str) -> ApiEntry | None:
    """Facts for a CUDA name, or for a HIP name through its canonical CUDA spelling."""
    found = tables.row(name)
    if found is None:
        cuda = tables.reverse_names().get(name)
        found = tables.row(cuda) if cuda is not None else None
    return None if found is None else ApiEntry(*found)
