"""The tree-sitter CUDA language, parsers and the project's queries.

Code is parsed through the macro-aware pre-pass (``parse_source``); ``parse`` is bare tree-sitter.
Node type names live in ``grammars/*.scm`` (the queries) and in :mod:`cass_lsp.syntax.nodes`, for the code
that walks the tree by position instead of querying (the translator, the document model's edit
regions); other Python code asks for captures by name.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Sequence

import tree_sitter
import tree_sitter_cuda

from cass_lsp.syntax import prepass

# os.path rather than pathlib: this module is on the start-up path of `cass-lsp translate`
_PACKAGED_GRAMMARS = os.path.join(os.path.dirname(os.path.dirname(__file__)), "grammars")
_SOURCE_GRAMMARS = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(__file__))), "grammars")


@functools.cache
def language() -> tree_sitter.Language:
    return tree_sitter.Language(tree_sitter_cuda.language())


def new_parser() -> tree_sitter.Parser:
    """A fresh parser: parsers are not thread-safe, so each worker takes its own."""
    return tree_sitter.Parser(language())


def parse(source: bytes, old_tree: tree_sitter.Tree | None = None) -> tree_sitter.Tree:
    parser = new_parser()
    return parser.parse(source) if old_tree is None else parser.parse(source, old_tree)


def grammars_dir() -> str:
    return _PACKAGED_GRAMMARS if os.path.isdir(_PACKAGED_GRAMMARS) else _SOURCE_GRAMMARS


@functools.cache
def query(name: str) -> tree_sitter.Query:
    """The compiled query ``grammars/<name>.scm``."""
    with open(os.path.join(grammars_dir(), f"{name}.scm"), encoding="utf-8") as file:
        text = file.read()
    return tree_sitter.Query(language(), text)


def captures(
    query_name: str, node: tree_sitter.Node, byte_range: tuple[int, int] | None = None
) -> dict[str, list[tree_sitter.Node]]:
    cursor = tree_sitter.QueryCursor(query(query_name))
    if byte_range is not None:
        cursor.set_byte_range(*byte_range)
    return cursor.captures(node)


def matches(
    query_name: str, node: tree_sitter.Node, byte_range: tuple[int, int] | None = None
) -> list[tuple[int, dict[str, list[tree_sitter.Node]]]]:
    cursor = tree_sitter.QueryCursor(query(query_name))
    if byte_range is not None:
        cursor.set_byte_range(*byte_range)
    return cursor.matches(node)


def parse_source(source: bytes, old_tree: tree_sitter.Tree | None = None,
                 headers: Sequence[bytes] = ()) -> tree_sitter.Tree:
    """The tree every feature reads: ``source`` through the macro-aware pre-pass
    (:mod:`cass_lsp.syntax.prepass`; same length, so offsets and rows are the original's), which
    reads the macros of ``headers`` too (the project headers the file includes)."""
    return parse(prepass.prepare(source, prepass.scan(source, headers)), old_tree)
