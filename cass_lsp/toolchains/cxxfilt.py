"""C++ demangling through llvm-cxxfilt-19 (or binutils' c++filt): one process for a batch of names."""

from __future__ import annotations

import shutil
from collections.abc import Iterable
from pathlib import Path

from cass_lsp.core import proc
from cass_lsp.toolchains import amd

_TIMEOUT_S = 20.0
_memo: dict[str, str] = {}


def demangler() -> Path | None:
    found = amd.find_tool("llvm-cxxfilt")
    if found:
        return found
    other = shutil.which("c++filt")
    return Path(other) if other else None


def demangle(names: Iterable[str]) -> dict[str, str]:
    """name → demangled name; names that are not mangled (or with no demangler) map to themselves."""
    wanted = {n for n in names if n}
    todo = sorted(n for n in wanted if n not in _memo and n.startswith("_Z"))
    tool = demangler() if todo else None
    if tool is not None:
        result = proc.run([tool], timeout=_TIMEOUT_S, input="\n".join(todo).encode() + b"\n")
        lines = result.stdout.decode(errors="replace").splitlines()
        if result.ok and len(lines) == len(todo):
            _memo.update(zip(todo, lines, strict=True))
    return {n: _memo.get(n, n) for n in wanted}
