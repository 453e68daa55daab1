"""A compiler plugin that proves it was loaded: what a hostile workspace puts in
``cass.asm.extraArgs.clang`` (``-fplugin=...``) to run code as the server's user."""

from __future__ import annotations

import subprocess
from pathlib import Path

SOURCE = """
#include <stdio.h>
__attribute__((constructor)) static void cass_test_plugin(void) {
  FILE *f = fopen(MARKER, "a");
  if (f) { fputs("loaded\\n", f); fclose(f); }
}
"""

OPENED = "__global__ void k(float *x) { x[threadIdx.x] = 1.0f; }\nint main() { return 0; }\n"
"""A document whose AMD listing is compiled on open: clang loads the plugin then."""


def build(folder: Path, name: str) -> tuple[Path, Path]:
    """The plugin (a shared library whose constructor appends to a marker file) and its marker."""
    folder.mkdir(parents=True, exist_ok=True)
    source, library, marker = folder / f"{name}.c", folder / f"{name}.so", folder / f"{name}.loaded"
    source.write_text(SOURCE)
    subprocess.run(
        ["gcc", "-shared", "-fPIC", f'-DMARKER="{marker}"', "-o", str(library), str(source)], check=True, timeout=60
    )
    return library, marker


def settings(library: Path) -> dict[str, object]:
    """Settings that compile the AMD listing on open, with the plugin on clang's command line."""
    return {"asm": {"targets": ["gfx1100"], "extraArgs": {"clang": [f"-fplugin={library}"]}}}
