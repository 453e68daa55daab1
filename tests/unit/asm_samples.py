"""Listings parsed from the real compiler output in tests/data/asm (shared by the asm unit tests)."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from cass_lsp.asm import rdna, sass
from cass_lsp.asm.listing import Listing

DATA = Path(__file__).resolve().parent.parent / "data" / "asm"
CU = str(DATA / "vecred.cu")
HIP = str(DATA / "vecred.hip")


def line_of(path: str, marker: str) -> int:
    for number, text in enumerate(Path(path).read_text().splitlines(), 1):
        if marker in text:
            return number
    raise AssertionError(f"{marker!r} not in {path}")


def _to_data(copy: str) -> Callable[[str], str]:
    # the listings were made in another folder: point the source file at our copy
    def mapped(path: str) -> str:
        return copy if os.path.basename(path) == os.path.basename(copy) else os.path.normpath(path)

    return mapped


def sass_listing() -> Listing:
    text = (DATA / "vecred.sm_90.nvdisasm-gi.sass").read_text()
    log = (DATA / "vecred.sm_90.ptxas.txt").read_text()
    functions = sass.parse(text, log, arch="sm_90", map_path=_to_data(CU))
    return Listing(target="sm_90", dialect="sass", source=CU, functions=functions, toolchain="nvcc 13.5")


def rdna_listing() -> Listing:
    functions = rdna.parse((DATA / "vecred.gfx1100.s").read_text(), map_path=_to_data(HIP))
    return Listing(target="gfx1100", dialect="amdgcn", source=HIP, functions=functions, toolchain="clang 19")
