"""Where a translation goes: the one naming rule the server and the CLI share.

CUDA sources become ``.hip`` and HIP sources ``.cu``. Headers keep their names when the translation
goes into another folder (``--out-dir``), so the tree's ``#include "foo.cuh"`` lines still find them;
beside the original (the editor's "Create HIP translation"), a ``.cuh`` header would collide with
itself, so it becomes ``.hip.h``.
"""

from __future__ import annotations

import posixpath

_SOURCE = {False: (".cu", ".hip"), True: (".hip", ".cu")}  # reverse -> (from, to)
_HEADER = {False: (".cuh", ".hip.h"), True: (".hip.h", ".cuh")}


def translated_name(name: str, *, reverse: bool, beside_original: bool) -> str:
    """The file name (or path: only the suffix changes) of ``name``'s translation.

    Into another folder only the source suffix changes; beside the original every file gets the
    other language's suffix (headers their header suffix), so it never names the original itself."""
    source_from, source_to = _SOURCE[reverse]
    header_from, header_to = _HEADER[reverse]
    lower = name.lower()
    if lower.endswith(source_from):
        return name[: -len(source_from)] + source_to
    if not beside_original:
        return name
    if lower.endswith(header_from) and len(name) > len(header_from):
        return name[: -len(header_from)] + header_to
    stem, _ = posixpath.splitext(name)
    return (stem or name) + source_to
