"""Source and header suffixes, in one place: which files are CUDA or HIP, which compile as units,
which a tree translation takes and which the watcher reacts to. Lower case: compare with
``path.lower().endswith(...)``."""

from __future__ import annotations

CUDA_SUFFIX = ".cu"
"""A CUDA source; the original of a verification pair."""
CUDA_HEADER_SUFFIX = ".cuh"
HIP_SUFFIX = ".hip"
C_SUFFIX = ".c"
UNIT_SUFFIXES = (".cu", ".cpp", ".cc", ".cxx")
"""The files that compile as units of a program (a folder's candidates, compile_commands entries)."""
CXX_UNIT_SUFFIXES = UNIT_SUFFIXES[1:]
HEADER_SUFFIXES = (".h", ".hh", ".hpp", ".hxx", ".inl", ".inc")
"""C and C++ headers and the inline files they include."""

CUDA_DOCUMENT_SUFFIXES = frozenset({CUDA_SUFFIX, CUDA_HEADER_SUFFIX, HIP_SUFFIX})
"""Documents that are CUDA (or HIP) whatever language id the editor sends."""
TRANSLATED_SUFFIXES = (CUDA_SUFFIX, CUDA_HEADER_SUFFIX, *HEADER_SUFFIXES, C_SUFFIX, *CXX_UNIT_SUFFIXES)
"""What ``cass-lsp translate`` takes from a folder (CUDA to HIP)."""
REVERSE_TRANSLATED_SUFFIXES = (HIP_SUFFIX, *TRANSLATED_SUFFIXES[1:])
"""What ``cass-lsp translate --reverse`` takes from a folder (HIP to CUDA)."""
COMMAND_UNIT_SUFFIXES = (*UNIT_SUFFIXES, C_SUFFIX, HIP_SUFFIX)
"""The source operands of a compiler command line (nvcc's, or a translated tree's hipcc)."""
WATCHED_SUFFIXES = (CUDA_SUFFIX, CUDA_HEADER_SUFFIX, HIP_SUFFIX, *HEADER_SUFFIXES[:3], *CXX_UNIT_SUFFIXES, ".inl")
"""The files whose change the verification watcher reports."""
