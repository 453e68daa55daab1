"""What a rule module may ask of the translation in progress.

The rule modules (``warp``, ``launch``, ``calls``, ``portability``) see the engine only through
``RuleContext``, which ``rules.Pass`` implements; they never import ``rules``, which imports them.
Offsets are local to the pass's buffer (``src``): the file itself, or a macro body parsed on its own.
"""

from __future__ import annotations

from typing import NamedTuple, Protocol

import tree_sitter

from cass_lsp.core.targets import Target
from cass_lsp.translate.codes import Severity


class RawEdit(NamedTuple):
    """An edit in original byte offsets (``findings.Edit`` is its public form)."""

    start: int
    end: int
    text: str
    tag: str = ""  # stats key ("" for edits that do not count as a conversion)


class RuleContext(Protocol):
    """One pass over a byte buffer, as the rules use it."""

    @property
    def src(self) -> bytes: ...
    @property
    def root(self) -> tree_sitter.Node: ...  # the tree of src
    @property
    def lo(self) -> int: ...  # the window being translated: [lo, hi) of src
    @property
    def hi(self) -> int: ...
    @property
    def is_macro(self) -> bool: ...  # src is a #define body wrapped in a function
    @property
    def target(self) -> Target: ...
    @property
    def reverse(self) -> bool: ...  # HIP -> CUDA
    @property
    def launch_style(self) -> str: ...  # "chevron" or "hipLaunchKernelGGL"

    # -- the tree
    def text(self, node: tree_sitter.Node) -> str: ...
    def inside(self, node: tree_sitter.Node) -> bool: ...
    def context(self, start: int, end: int) -> tuple[str, tree_sitter.Node]: ...
    def call_of(self, name_node: tree_sitter.Node) -> tree_sitter.Node | None: ...
    def arguments(self, call: tree_sitter.Node) -> list[tree_sitter.Node]: ...
    def in_device_function(self, node: tree_sitter.Node, *, host_too: bool = True) -> bool: ...

    # -- what the rules produce
    def edit(self, start: int, end: int, text: str, tag: str = "") -> None:
        """An edit inside the window (rules check ``inside`` first)."""

    def edit_needed(self, start: int, end: int, text: str, tag: str = "") -> None:
        """An edit the window's translation needs wherever it lies (the result carries it)."""

    def find(self, code: str, severity: Severity, message: str, start: int, end: int, *,
             fix: tuple[RawEdit, ...] = (), name: str = "", family: str = "") -> None: ...
    def fix_edit(self, start: int, end: int, text: str) -> RawEdit: ...
    def apply_entry(self, name: str, start: int, end: int, node: tree_sitter.Node | None = None) -> None: ...
    def remember_macro(self, node: tree_sitter.Node) -> None: ...

    # -- what the passes over one file share
    def need_runtime(self) -> None: ...
    def define_body(self, name: str) -> str | None: ...
    def widen_define(self, name: str, text: str, tag: str = "") -> None:
        """Replace the body of the file's ``#define name`` (once per file, wherever it is)."""

    @property
    def file_source(self) -> bytes: ...  # the whole file, whichever buffer this pass reads
    @property
    def wide_masks(self) -> set[str]: ...  # variables this translation declared 64-bit
    @property
    def active_masks(self) -> set[str]: ...  # variables set from __activemask()
