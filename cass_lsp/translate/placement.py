"""Where the HIP runtime include goes: nvcc's implicit ``cuda_runtime.h``, reproduced.

nvcc includes ``cuda_runtime.h`` before the first line of every translation unit, so CUDA headers
use runtime names without including anything, and a user's ``#define T double`` can never reach
the runtime's own templates. clang's HIP mode includes nothing. One file at a time, the engine puts
``#include <hip/hip_runtime.h>`` at the top of a file that needs it (:func:`top_position`); over a
tree, :func:`tree_fixes` also puts it first in every translation unit that reaches such a header
through its includes (a host ``.cpp`` that includes a translated ``.cuh`` after its own macros).
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import NamedTuple

from cass_lsp.core.filekinds import UNIT_SUFFIXES
from cass_lsp.translate import headers

# A BOM, then blank space and comments.
_LEADING = re.compile(rb"(?:\xef\xbb\xbf)?(?:\s+|//[^\n]*|/\*.*?\*/)*", re.S)
_SPACE = re.compile(rb"(?:\s+|//[^\n]*|/\*.*?\*/)*", re.S)
# What opens a header before its content: ``#pragma once`` or an include guard's #ifndef/#define pair.
_GUARD = re.compile(rb"#[ \t]*pragma[ \t]+once\b[^\n]*(?:\n|\Z)"
                    rb"|#[ \t]*(?:ifndef[ \t]+(\w+)|if[ \t]+!\s*defined\s*\(?\s*(\w+)\s*\)?)[^\n]*\n"
                    rb"(?:\s+|//[^\n]*|/\*.*?\*/)*#[ \t]*define[ \t]+(\w+)[^\n]*(?:\n|\Z)", re.S)
_RUNTIME_INCLUDE = re.compile(rb'#[ \t]*include[ \t]*[<"]hip/hip_runtime\.h[>"]')
# In CUDA text not yet translated, cuda_runtime.h first becomes hip_runtime.h first.
_ANY_RUNTIME_INCLUDE = re.compile(rb'#[ \t]*include[ \t]*[<"](?:hip/hip_runtime|cuda_runtime)\.h[>"]')
# Directives that may change what the HIP headers see when they come after them: a macro, or a
# project header (quoted), which may define macros of its own.
_USER_DIRECTIVE = re.compile(rb'^[ \t]*#[ \t]*(?:define|undef|include[ \t]*")', re.M)
_INCLUDE = re.compile(rb'^[ \t]*#[ \t]*include[ \t]*([<"])([^>"\r\n]+)[>"]', re.M)
# Files a compiler reads as translation units (headers are only ever included).


def top_position(src: bytes) -> int:
    """Where nvcc's implicit include stands in a file: after its leading comment, and after an
    include guard or ``#pragma once`` that opens it, before any other directive or code."""
    pos = _LEADING.match(src).end()  # type: ignore[union-attr]  # the pattern matches the empty string
    guard = _GUARD.match(src, pos)
    if guard is not None and (guard[3] is None or guard[3] == (guard[1] or guard[2])):
        return guard.end()
    while pos > 0 and src[pos - 1:pos] in (b" ", b"\t"):
        pos -= 1
    return pos


def runtime_first(src: bytes, pattern: re.Pattern[bytes] = _RUNTIME_INCLUDE) -> bool:
    """The file includes the HIP runtime at :func:`top_position`, before any other directive."""
    pos = top_position(src)
    pos = _SPACE.match(src, pos).end()  # type: ignore[union-attr]
    return pattern.match(src, pos) is not None


def user_directive_before(src: bytes, pos: int) -> bool:
    """A macro definition or a project include stands between the top of the file and ``pos``."""
    return _USER_DIRECTIVE.search(src, top_position(src), pos) is not None


def runtime_line(src: bytes) -> str:
    nl = src.find(b"\n")
    eol = "\r\n" if nl > 0 and src[nl - 1:nl] == b"\r" else "\n"
    return f"#include <{headers.RUNTIME}>{eol}"


def with_runtime_first(src: bytes) -> bytes:
    pos = top_position(src)
    return src[:pos] + runtime_line(src).encode() + src[pos:]


def _includes(src: bytes) -> Iterable[tuple[bool, str]]:
    """(quoted, path) of each include directive (a commented-out one counts too: a false positive
    costs one harmless include)."""
    for m in _INCLUDE.finditer(src):
        yield m[1] == b'"', m[2].decode("utf-8", "surrogateescape")


def uses_hip(src: bytes) -> bool:
    return any(not quoted and headers.reverse(path) is not None for quoted, path in _includes(src))


class Need(NamedTuple):
    """Why a translation unit must include the HIP runtime first."""

    include: tuple[int, int] | None
    """The byte span of the unit's own quoted include that leads to a header using HIP; None: the
    unit itself uses HIP."""
    header: str | None
    """The header (real path) that include reaches and that uses HIP, the first one found."""


def runtime_needs(
    units: Iterable[str],
    read: Callable[[str], bytes | None],
    include_dirs: Callable[[str], Sequence[str]] = lambda unit: (),
    known: Iterable[str] = (),
    *,
    uses: Callable[[str, bytes], bool] = lambda path, src: uses_hip(src),
    cuda: bool = False,
) -> dict[str, Need]:
    """The one walk of a tree's includes for the runtime include: the translation units among
    ``units`` that do not include a runtime first and use HIP themselves or reach, through quoted
    includes, a header that does (``uses(real_path, text)``; by default: it includes a HIP header).

    ``read`` gives a file's text, None when there is none; a quoted include is looked up beside the
    including file, then in ``include_dirs(unit)`` (its ``-I`` folders), then as the one of
    ``known`` whose path ends with it (the build's ``-I`` folders are not always known). ``cuda``:
    the texts are CUDA, not yet translated (``cuda_runtime.h`` first becomes ``hip_runtime.h`` first)."""
    first = _ANY_RUNTIME_INCLUDE if cuda else _RUNTIME_INCLUDE
    everything = [os.path.realpath(path) for path in known]
    memo: dict[tuple[str, tuple[str, ...]], str | None] = {}

    def resolve(including: str, name: str, folders: tuple[str, ...]) -> tuple[str, bytes] | None:
        for folder in (os.path.dirname(including), *folders):
            candidate = os.path.realpath(os.path.join(folder, name))
            text = read(candidate)
            if text is not None:
                return candidate, text
        suffix = os.sep + os.path.normpath(name)
        matches = [path for path in everything if path.endswith(suffix)]
        text = read(matches[0]) if len(matches) == 1 else None
        return (matches[0], text) if text is not None else None

    def hip_header(path: str, src: bytes, folders: tuple[str, ...]) -> str | None:
        """The first header using HIP that ``path`` is or reaches."""
        if (path, folders) in memo:
            return memo[path, folders]
        memo[path, folders] = None  # an include cycle adds nothing
        found = path if uses(path, src) else None
        for quoted, name in _includes(src) if found is None else ():
            header = resolve(path, name, folders) if quoted else None
            found = hip_header(*header, folders) if header is not None else None
            if found is not None:
                break
        memo[path, folders] = found
        return found

    needs: dict[str, Need] = {}
    for unit in units:
        src = read(os.path.realpath(unit))
        if src is None or not unit.lower().endswith(UNIT_SUFFIXES) or runtime_first(src, first):
            continue
        real = os.path.realpath(unit)
        if uses(real, src):
            needs[unit] = Need(None, None)
            continue
        folders = tuple(os.path.realpath(d) for d in include_dirs(unit))
        for m in _INCLUDE.finditer(src):
            header = resolve(real, m[2].decode("utf-8", "surrogateescape"), folders) if m[1] == b'"' else None
            reached = hip_header(*header, folders) if header is not None else None
            if reached is not None:
                needs[unit] = Need(m.span(), reached)
                break
    return needs


def tree_fixes(translations: Mapping[str, bytes], roots: Iterable[str] = ()) -> dict[str, bytes]:
    """The translation units of a tree that must include the HIP runtime first, with it added.

    ``translations`` maps each source path to its translation; a quoted include is looked up beside
    the including file, then under each of ``roots`` (the translated folders), as ``-I`` would, then
    as the one header of the tree whose path ends with it. A
    unit needs the runtime when its translation or a project header it reaches includes a HIP
    header; a ``.cu`` file always does, as nvcc always includes it."""
    by_path = {os.path.realpath(path): text for path, text in translations.items()}
    search = [r for r in roots if os.path.isdir(r)]
    needs = runtime_needs(translations, by_path.get, lambda unit: search, translations)
    fixes: dict[str, bytes] = {}
    for path, src in translations.items():
        if not path.lower().endswith(UNIT_SUFFIXES) or runtime_first(src):
            continue
        if path.lower().endswith(".cu") or path in needs:
            fixes[path] = with_runtime_first(src)
    return fixes


def units_reaching(header: str, units: Iterable[str], read: Callable[[str], bytes | None],
                   include_dirs: Callable[[str], Sequence[str]] = lambda unit: ()) -> dict[str, tuple[int, int]]:
    """The translation units among ``units`` whose quoted includes reach ``header`` (directly or
    through other headers) and that do not already include a runtime first, each with the byte
    span of its own include directive that leads there (:func:`runtime_needs`, CUDA texts).

    Single-file translation puts the HIP runtime include at the top of a header whose translation
    uses HIP; a unit that includes the header after its own macros then gets it after them, where
    nvcc's implicit include came before: such units are the ones to tell. ``read`` gives a file's
    text (an editor's unsaved one first), None when there is none; a quoted include is looked up
    beside the including file, then in ``include_dirs(unit)`` (its ``-I`` folders)."""
    target = os.path.realpath(header)
    needs = runtime_needs(units, read, include_dirs, uses=lambda path, src: path == target, cuda=True)
    return {unit: need.include for unit, need in needs.items() if need.include is not None}
