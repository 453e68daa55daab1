"""The rule translation of a buffer that is compiled as HIP, with the line map back to the buffer: what
listings and verification write into their scratch folders (:data:`cass_lsp.compile.scratch.Translator`)."""

from __future__ import annotations

from cass_lsp.compile.linemap import LineMap
from cass_lsp.compile.scratch import HipTarget


def translated(source: str, target: HipTarget) -> tuple[str, LineMap, int]:
    """(HIP text, its line map, number of untranslatable constructs)."""
    # Imported here: the engine is only needed for the AMD side of CUDA files.
    from cass_lsp.translate import TargetProfile, translate

    result = translate(source, TargetProfile(arch=target.arch, rocm=target.rocm), target.options)
    line_map = LineMap(source.encode("utf-8", "surrogateescape"), result.edits)
    return result.text, line_map, len(result.unsupported)
