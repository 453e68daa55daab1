"""The rule engine: CUDA -> HIP (and back) on the tree-sitter tree, driven by the API tables.

A byte regex finds candidate tokens (names the tables or the rules care about, ``<<<``, include
directives); each candidate is looked up in the tree by position to learn its context (code,
comment, string, macro body, unparsable region). ``#define`` bodies are opaque to the grammar, so
a body holding candidates is parsed on its own, wrapped in a function, and translated the same way.
Edits are token-sized and refer to the original bytes; everything between them is kept as is.
"""

from __future__ import annotations

import bisect
import functools
import itertools
import re
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, NamedTuple

import tree_sitter

from cass_lsp.core.targets import Target
from cass_lsp.syntax import nodes, prepass
from cass_lsp.syntax import parsing as syntax
from cass_lsp.translate import (
    bfloat16,
    calls,
    collisions,
    compat,
    groups,
    headers,
    launch,
    libraries,
    nvtx,
    overloads,
    placement,
    portability,
    relevance,
    rounding,
    tables,
    vectors,
    warp,
)
from cass_lsp.translate import codes as fc
from cass_lsp.translate.codes import Severity
from cass_lsp.translate.context import RawEdit

if TYPE_CHECKING:
    from cass_lsp.core.profile import TargetProfile, TranslateOptions
    from cass_lsp.translate.findings import TranslationResult

# Identifier bytes (UTF-8 lead/continuation bytes included, so non-ASCII identifiers stay whole).
_IS_WORD = bytes(1 if (48 <= b < 58 or 65 <= b < 91 or 97 <= b < 123 or b == 95 or b >= 128) else 0
                 for b in range(256))
_WORD_BYTES = bytes(b if _IS_WORD[b] else 32 for b in range(256))
# No ^ anchor: a leading literal lets the regex engine skip ahead; line starts are checked after.
_INCLUDE = re.compile(rb'#[ \t]*include[ \t]*[<"]([^>"\r\n]+)[>"]')
_DEFINE = re.compile(rb"#[ \t]*define[ \t]+([A-Za-z_]\w*)[ \t]+([^\s/]+)[ \t]*(?=\r?\n|//|/\*|\Z)")
# Patterns needed only by some files are compiled on first use (re's own cache): start-up counts.
_DEVICE_CODE = (rb"\b(?:__global__|__device__|__shared__|__constant__|threadIdx|blockIdx|blockDim|gridDim"
                rb"|__syncthreads)\b")
_OPAQUE = rb'(?s)//[^\n]*|/\*.*?(?:\*/|\Z)|"(?:\\.|[^"\\\n])*"?|\'(?:\\.|[^\'\\\n])*\'?'
_BOM = b"\xef\xbb\xbf"
_MACRO_PREFIX = b"void __cass_macro_body__(void) {\n"
_MACRO_SUFFIX = b"\n;}\n"
_MAX_PARSE_FINDINGS = 20
_FEW_WORDS = 4000

_FORWARD_SPECIAL = {"cub", "cuda", "nvcuda", "texture", "surface", "register", "asm", "__asm__", "__asm",
                    "__CUDA_ARCH__", "__launch_bounds__", portability.GRID_CONSTANT, *warp.FORWARD_NAMES, *calls.NAMES, "CUDART_CB",
                    *compat.FORWARD_NAMES, collisions.MAKE_UINT3, *portability.HEADER_GUARDS,
                    *portability.VERSION_MACROS, *compat.NEWER_PROP_FIELDS, "pow", *compat.CACHE_LOADS,
                    *compat.CACHE_STORES, *compat.INTEGER_MINMAX, *bfloat16.NAMES, *compat.SCOPED_ATOMICS,
                    *rounding.NAMES, *groups.META_GROUP, *groups.SHUFFLES, *nvtx.NAMES,
                    *compat.STRUCT_TAGS, *compat.CONTEXT_CREATE, *compat.COORDINATE_MINMAX}
_REVERSE_SPECIAL = {"hipcub", "hip", "asm", "__asm__", "__asm", "hipLaunchKernelGGL", "HIP_SYMBOL",
                    *warp.REVERSE_NAMES, *compat.REVERSE_NAMES, *compat.REMOVED_PROP_FIELDS, *vectors.TYPES}


# A name's rewrite for one target: (new text or None, family, findings as (code, severity, message)),
# kept per (name, target ROCm, library family) since it does not depend on the file.
_Plan = tuple[str | None, str, tuple[tuple[str, Severity, str], ...]]
_PLANS: dict[tuple[str, tuple[int, int], str], _Plan] = {}


class RawFinding(NamedTuple):
    """A finding in original byte offsets (``findings.Finding`` is its public form)."""

    code: str
    severity: Severity
    message: str
    start: int
    end: int
    fix: tuple[RawEdit, ...] = ()
    name: str = ""
    family: str = ""


class Settings(NamedTuple):
    target: Target
    launch_style: str = "chevron"
    rewrite_opaque: bool = False  # names inside strings and comments too
    reverse: bool = False
    libraries: str = "hip"  # "roc": rocBLAS/rocSPARSE/rocRAND/rocSOLVER instead of their hip* layers


@functools.cache
def _candidates(reverse: bool) -> frozenset[bytes]:
    """Names a direction acts on, as UTF-8 (words of a file are intersected with it in C)."""
    names = tables.reverse_names() if reverse else tables.action_names()
    special = _REVERSE_SPECIAL if reverse else _FORWARD_SPECIAL
    return frozenset(n.encode() for n in (*names, *special))


@functools.cache
def _platform_names(reverse: bool) -> frozenset[bytes]:
    """Names that make a file CUDA (HIP in reverse): the candidates, less HIP's vector types (SYCL
    and OpenCL spell theirs alike)."""
    vector_types = frozenset(t.encode() for t in vectors.TYPES) if reverse else frozenset()
    return _candidates(reverse) - vector_types


def uses_source_api(source: bytes, settings: Settings) -> bool:
    """Whether the file uses CUDA (HIP in reverse) at all (:mod:`.relevance`); one that does not is
    left as it is, with no finding."""
    if settings.reverse:
        def maps(path: str) -> bool:
            return headers.reverse(path) is not None
    else:
        def maps(path: str) -> bool:
            return libraries.forward_header(path, settings.target.rocm, settings.libraries) is not None
    return relevance.uses_api(source, _platform_names(settings.reverse), maps, reverse=settings.reverse,
                              in_comments_too=settings.rewrite_opaque)


def warm_up(reverse: bool) -> None:
    """Load the tables now (before forking workers, which then share them)."""
    _candidates(reverse)


def _is_candidate(reverse: bool) -> Callable[[str], bool]:
    names = tables.reverse_names() if reverse else tables.action_names()
    special = _REVERSE_SPECIAL if reverse else _FORWARD_SPECIAL
    return lambda word: word in names or word in special


@functools.cache
def _text(raw: bytes) -> str:
    return raw.decode("utf-8", "surrogateescape")


# Members the tables know (cooperative groups methods newer than some ROCm); other members are not API.
_MEMBER_RULES = frozenset({"meta_group_rank", "meta_group_size", *groups.SHUFFLES})
_RUNTIME_FAMILIES = frozenset({"runtime", "driver", "device"})
_DECLARING_PARENTS = frozenset({*nodes.DECLARING_FIELDS, *nodes.TAG_SPECIFIERS})
# Nodes between a declared name and its declaration.
_DECLARATORS = frozenset({nodes.INIT_DECLARATOR, nodes.FUNCTION_DECLARATOR, nodes.POINTER_DECLARATOR,
                          nodes.PARENTHESIZED_DECLARATOR,
                          nodes.REFERENCE_DECLARATOR, nodes.ARRAY_DECLARATOR})


def _not_cancelled() -> None:
    pass


class Engine:
    """State shared by the passes of one translation (the file and its macro bodies)."""

    def __init__(self, source: bytes, settings: Settings, parser: tree_sitter.Parser, macros: prepass.Macros,
                 check_cancelled: Callable[[], None]) -> None:
        self.source = source
        self.macros = macros  # what the pre-pass rewrites, for macro bodies parsed on their own too
        self.settings = settings
        self.reverse = settings.reverse
        self.rocm = settings.target.rocm
        self.parser = parser
        self.check_cancelled = check_cancelled
        self.edits: list[RawEdit] = []
        self.findings: list[RawFinding] = []
        self.user_names: set[str] = set()
        self.declared: dict[str, tuple[int, int]] = {}  # API names the file declares -> first declaration
        # Every API name in code the translation is to rename (original offsets): checked at the end.
        self.expected: list[tuple[str, int, int]] = []
        # Object-like macros of the file: name -> (body start, body end) in original bytes.
        self.defines: dict[str, tuple[int, int]] = {}
        self.widened_defines: set[str] = set()
        self.wide_masks: set[str] = set()  # variables this translation declared 64-bit
        self.active_masks: set[str] = set()  # variables set from __activemask()
        self.uses_runtime = False
        self.helpers: dict[str, int] = {}  # compatibility helper -> its first use (original offset)
        self.fft_told = False  # the file's first cuFFT name said why it stays hipFFT under "roc"

    @functools.cached_property
    def legacy_blas(self) -> bool:
        """The file includes cuBLAS's legacy API (libraries.LEGACY_BLAS_HEADER)."""
        return any(m[1] == libraries.LEGACY_BLAS_HEADER.encode() and _at_line_start(self.source, m.start())
                   for m in _INCLUDE.finditer(self.source))

    def define_body(self, name: str) -> str | None:
        span = self.defines.get(name)
        if span is None:
            return None
        return self.source[span[0]:span[1]].decode("utf-8", "surrogateescape").strip()


class Pass:
    """One tree over a byte buffer: the file itself, or a macro body parsed on its own.

    It is the ``context.RuleContext`` the rule modules receive."""

    def __init__(self, eng: Engine, src: bytes, root: tree_sitter.Node, base: int, lo: int, hi: int,
                 local_names: frozenset[str] = frozenset(), *, prepared: bytes | None = None) -> None:
        self.eng = eng
        self.src = src
        self.prepared = src if prepared is None else prepared  # what the tree was parsed from
        self.root = root
        self.base = base  # original offset = base + local offset
        self.lo = lo
        self.hi = hi
        self.local_names = local_names  # macro parameters
        self.is_macro = src is not eng.source
        # What the rules read, as attributes: they are read on every rule call.
        self.target = eng.settings.target
        self.reverse = eng.reverse
        self.launch_style = eng.settings.launch_style
        self.file_source = eng.source
        self.wide_masks = eng.wide_masks
        self.active_masks = eng.active_masks
        self._macro_bodies: dict[int, tree_sitter.Node] = {}
        self._error_spans: dict[int, list[tuple[int, int]]] = {}
        self._misread: set[int] = set()  # misread declarations reported (their start)
        self._device_functions: list[tuple[int, int, bool]] | None = None
        self._device_starts: list[int] = []

    # -- helpers used by the rule modules -------------------------------------------------------
    def text(self, node: tree_sitter.Node) -> str:
        return self.src[node.start_byte:node.end_byte].decode("utf-8", "surrogateescape")

    def at(self, start: int, end: int) -> tree_sitter.Node:
        """The smallest node spanning [start, end)."""
        return self.root.descendant_for_byte_range(start, end) or self.root

    def inside(self, node: tree_sitter.Node) -> bool:
        return self.lo <= node.start_byte and node.end_byte <= self.hi

    def edit(self, start: int, end: int, text: str, tag: str = "") -> None:
        # Rules check that a construct lies in the window before editing it; this only guards.
        assert self.lo <= start <= end <= self.hi, "edit outside the translated window"
        self.eng.edits.append(RawEdit(self.base + start, self.base + end, text, tag))

    def edit_needed(self, start: int, end: int, text: str, tag: str = "") -> None:
        """An edit the window's translation needs wherever it lies: the result carries it as one
        more edit, since leaving it out would give code the target rejects (a 32-bit mask)."""
        self.eng.edits.append(RawEdit(self.base + start, self.base + end, text, tag))

    def find(self, code: str, severity: Severity, message: str, start: int, end: int, *,
             fix: tuple[RawEdit, ...] = (), name: str = "", family: str = "") -> None:
        if self.is_macro:  # a macro body is parsed inside a wrapper: a node may reach into it
            start, end = max(start, self.lo), min(end, self.hi)
        self.eng.findings.append(RawFinding(code, severity, message, self.base + start, self.base + end,
                                            fix, name, family))

    def fix_edit(self, start: int, end: int, text: str) -> RawEdit:
        return RawEdit(self.base + start, self.base + end, text)

    def need_runtime(self) -> None:
        """The translation uses the HIP runtime (a whole-file translation then includes it)."""
        self.eng.uses_runtime = True

    def define_body(self, name: str) -> str | None:
        return self.eng.define_body(name)

    def need_helper(self, key: str, start: int) -> None:
        helpers = self.eng.helpers
        helpers[key] = min(helpers.get(key, self.base + start), self.base + start)

    def widen_define(self, name: str, text: str, tag: str = "") -> None:
        eng = self.eng
        if name not in eng.widened_defines:
            eng.widened_defines.add(name)
            start, end = eng.defines[name]
            eng.edits.append(RawEdit(start, end, text, tag))

    @staticmethod
    def call_of(name_node: tree_sitter.Node) -> tree_sitter.Node | None:
        """The call whose callee is this name (``name(...)`` or ``name<T>(...)``)."""
        callee = name_node
        parent = name_node.parent
        if (parent is not None and parent.type == nodes.TEMPLATE_FUNCTION
                and parent.child_by_field_name(nodes.Field.NAME) == callee):
            callee, parent = parent, parent.parent
        if parent is None or parent.type != nodes.CALL:
            return None
        return parent if parent.child_by_field_name(nodes.Field.FUNCTION) == callee else None

    @staticmethod
    def arguments(call: tree_sitter.Node) -> list[tree_sitter.Node]:
        arglist = call.child_by_field_name(nodes.Field.ARGUMENTS)
        if arglist is None:
            return []
        return [c for c in arglist.named_children if c.type != nodes.COMMENT]

    def in_device_function(self, node: tree_sitter.Node, *, host_too: bool = True) -> bool:
        """Inside a __global__/__device__ function (``host_too=False``: not also __host__)."""
        return self._device_span(node.start_byte, node.end_byte, host_too)

    def _device_span(self, start: int, end: int, host_too: bool) -> bool:
        if self._device_functions is None:
            # A macro body's context is unknown: it counts as host code.
            self._device_functions = [] if self.is_macro else self._find_device_functions()
            self._device_starts = [span[0] for span in self._device_functions]
        i = bisect.bisect_right(self._device_starts, start) - 1
        return i >= 0 and end <= self._device_functions[i][1] and (host_too or not self._device_functions[i][2])

    def _find_device_functions(self) -> list[tuple[int, int, bool]]:
        """(start, end, also __host__) of every __global__/__device__ function definition, sorted."""
        spans: dict[int, tuple[int, int, bool]] = {}
        for m in re.finditer(rb"\b__(?:global|device)__\b", self.src):
            definition = self.at(m.start(), m.end()).parent
            if definition is None or definition.type != nodes.FUNCTION_DEFINITION:
                continue
            host = any(c.type == nodes.HOST_QUALIFIER for c in definition.children)
            spans[definition.start_byte] = (definition.start_byte, definition.end_byte, host)
        return sorted(spans.values())

    # -- the pass -------------------------------------------------------------------------------
    def run(self) -> None:
        self._scan_words()
        self._scan_launches()
        if not self.reverse and self.target.wave_size == 64:
            portability.warp_size_literals(self)
        if not self.is_macro:
            if self.reverse:
                compat.reverse_dynamic_shared(self)
                vectors.reverse_operators(self)
            else:
                collisions.guard_definitions(self)
                overloads.merge(self)
        for arg in self._macro_bodies.values():
            self.eng.check_cancelled()
            self._translate_macro(arg)

    def context(self, start: int, end: int, node: tree_sitter.Node | None = None) -> tuple[str, tree_sitter.Node]:
        """What the bytes [start, end) are part of: code, comment, string, macro (body) or other."""
        if node is None:
            node = self.at(start, end)
        kind = node.type
        if kind in nodes.NAMES or kind == nodes.MEMBER_NAME or kind == nodes.NUMBER or not node.is_named:
            return "code", node
        if kind == nodes.COMMENT:
            return "comment", node
        if kind in nodes.STRINGS:
            return "string", node
        if kind == nodes.MACRO_BODY:
            return "macro", node
        if kind == nodes.ERROR:
            return ("string" if self._in_opaque_text(node, start) else "code"), node
        return "other", node

    def _in_opaque_text(self, error: tree_sitter.Node, pos: int) -> bool:
        spans = self._error_spans.get(error.start_byte)
        if spans is None:
            chunk = self.src[error.start_byte:error.end_byte]
            spans = [(m.start() + error.start_byte, m.end() + error.start_byte) for m in re.finditer(_OPAQUE, chunk)]
            self._error_spans[error.start_byte] = spans
        return any(s <= pos < e for s, e in spans)

    def remember_macro(self, node: tree_sitter.Node) -> None:
        self._macro_bodies.setdefault(node.start_byte, node)

    def _positions(self) -> list[tuple[int, int, bytes]]:
        """Whole-word occurrences of candidate names in the window, in source order."""
        src, lo, hi = self.src, self.lo, self.hi
        words = set((src if lo == 0 and hi == len(src) else src[lo:hi]).translate(_WORD_BYTES).split())
        if len(words) < _FEW_WORDS:
            # A small file (a cold CLI run): testing its words beats building the UTF-8 name set.
            wanted = _is_candidate(self.reverse)
            present = {w for w in words if wanted(w.decode("utf-8", "surrogateescape"))}
        else:
            present = words & _candidates(self.reverse)
        found: list[tuple[int, int, bytes]] = []
        for name in present:
            i = src.find(name, lo, hi)
            while i != -1:
                j = i + len(name)
                if (i == 0 or not _IS_WORD[src[i - 1]]) and (j == len(src) or not _IS_WORD[src[j]]):
                    found.append((i, j, name))
                i = src.find(name, j, hi)
        found.sort()
        return found

    def _scan_words(self) -> None:
        positions = self._positions()
        if not positions:
            return
        hits: list[tuple[str, tree_sitter.Node, str, tree_sitter.Node | None, str]] = []
        # Names in code the grammar could not read, translated by name once every declaration is known.
        unparsed: list[tuple[str, int, int]] = []
        rewrite_opaque = self.eng.settings.rewrite_opaque
        user_names = self.eng.user_names
        descend = self.root.descendant_for_byte_range
        names, declaring = nodes.NAMES, _DECLARING_PARENTS
        for start, end, raw in positions:
            name = _text(raw)
            if prepass.changed(self.src, self.prepared, start, end):
                unparsed.append((name, start, end))  # the pre-pass read it as its expansion
                continue
            node = descend(start, end) or self.root
            kind = node.type
            if kind not in names:
                where, node = self.context(start, end, node)
                if where == "macro":
                    self.remember_macro(node)
                elif where in ("comment", "string") and rewrite_opaque:
                    self._rename_plain(name, start, end)
                if where != "code":
                    continue
                if node.is_named and (node.start_byte, node.end_byte) != (start, end):
                    unparsed.append((name, start, end))  # swallowed by an unparsable region
                    continue
                kind = node.type if node.is_named else ""
            parent = node.parent
            parent_kind = parent.type if parent is not None else ""
            if parent_kind in declaring and parent is not None and self._declares(node, parent):
                if not self._misread_declaration(name, node):
                    user_names.add(name)
                    self.eng.declared.setdefault(name, (self.base + start, self.base + end))
                else:
                    unparsed.append((name, start, end))
                    continue
            hits.append((name, node, kind, parent, parent_kind))
        for name, start, end in unparsed:
            self._translate_by_name(name, start, end)
        for hit in hits:
            self._dispatch(*hit)

    def _misread_declaration(self, name: str, node: tree_sitter.Node) -> bool:
        """Whether the tree declares this API name only by misreading statements (then the file
        does not declare it, and its other uses stay API uses).

        A declaration inside an unparsable region is a guess. So is a block-scope declaration whose
        type is a bare name on an earlier line, or that holds an unparsable part: a macro used as a
        statement without a semicolon (``TIMER_START`` on its own line, then ``cudaMemcpy(...);``)
        reads as the type of a declaration of the next statement's callee."""
        declaration = node.parent
        while declaration is not None and declaration.type in _DECLARATORS:
            declaration = declaration.parent
        if declaration is None:
            return False
        if declaration.type == nodes.ERROR:
            return True  # the region's parse-error finding covers it
        block = declaration.parent
        kind = declaration.child_by_field_name(nodes.Field.TYPE)
        if (declaration.type != nodes.DECLARATION or block is None
                or block.type not in (nodes.COMPOUND_STATEMENT, nodes.ERROR)
                or kind is None or kind.type != nodes.TYPE_NAME
                or not (declaration.has_error or kind.end_point.row < node.start_point.row)):
            return False
        if declaration.start_byte not in self._misread:
            self._misread.add(declaration.start_byte)
            before = " ".join(self.src[declaration.start_byte:node.start_byte].decode("utf-8", "replace").split())
            self.find(fc.PARSE_ERROR, "warning", f"`{before} {name}` reads as a declaration of {name} (a macro "
                      "used as a statement without a semicolon?): this statement was translated by name, without "
                      "a full parse", declaration.start_byte, declaration.end_byte)
        return True

    def _translate_by_name(self, name: str, start: int, end: int) -> None:
        """A name in code the grammar could not read gets the plain table rename, which needs no
        tree. A name whose translation depends on its call (arguments HIP wants wrapped, a dropped
        warp mask) is reported instead: renaming it alone would give code that does not compile."""
        if name in self.eng.user_names or name in self.local_names:
            return
        self.eng.expected.append((name, self.base + start, self.base + end))
        if name not in (_REVERSE_SPECIAL if self.reverse else _FORWARD_SPECIAL):
            self._rename_unparsed(name, start, end)
            return
        if self.reverse and warp.reverse_by_name(self, name, start, end):
            return
        if name == "CUDART_CB" and not self.reverse:
            portability.callback_convention(self, start, end)  # needs no tree
            return
        if name == portability.GRID_CONSTANT and not self.reverse:
            portability.grid_constant(self, start, end)
            return
        found = None if self.reverse else tables.row(name)
        if found is not None:
            self.find(fc.UNTRANSLATED, "warning", f"{name} is in code the parser could not read, and its "
                      "translation depends on the call around it: translate this use by hand", start, end,
                      name=name, family=found.family)

    @staticmethod
    def _declares(node: tree_sitter.Node, parent: tree_sitter.Node) -> bool:
        fields = nodes.DECLARING_FIELDS.get(parent.type)
        if fields is not None:
            return any(parent.child_by_field_name(f) == node for f in fields)
        return (parent.child_by_field_name(nodes.Field.NAME) == node
                and parent.child_by_field_name(nodes.Field.BODY) is not None)

    def _scoped(self, node: tree_sitter.Node, parent: tree_sitter.Node) -> bool:
        """``ns::name`` with a namespace other than the global one, and other than an API enum
        type (``hipGLDeviceList::hipGLDeviceListAll`` names the API's enumerator)."""
        scope = parent.child_by_field_name(nodes.Field.SCOPE)
        return (scope is not None and parent.child_by_field_name(nodes.Field.NAME) == node
                and not _is_candidate(self.reverse)(self.text(scope)))

    def _dispatch(self, name: str, node: tree_sitter.Node, kind: str, parent: tree_sitter.Node | None,
                  parent_kind: str) -> None:
        if not kind:
            self._keyword(name, node)
            return
        if self.reverse and kind == nodes.MEMBER_NAME and name in compat.REMOVED_PROP_FIELDS:
            compat.prop_field(self, name, node)
            return
        if not self.reverse and kind == nodes.MEMBER_NAME and name in compat.NEWER_PROP_FIELDS:
            compat.newer_prop_field(self, name, node)
            return
        if (name in self.eng.user_names or name in self.local_names
                or (kind == nodes.MEMBER_NAME and name not in _MEMBER_RULES) or parent_kind == nodes.MACRO_PARAMS
                or (parent_kind == nodes.QUALIFIED and parent is not None and self._scoped(node, parent))):
            return
        self.eng.expected.append((name, self.base + node.start_byte, self.base + node.end_byte))
        if self.reverse:
            if not (warp.reverse(self, name, node) or self._reverse_special(name, node)):
                self._rename_plain(name, node.start_byte, node.end_byte)
        elif name not in _FORWARD_SPECIAL or not self._forward_special(name, node):
            self.apply_entry(name, node.start_byte, node.end_byte, node)

    def _keyword(self, name: str, node: tree_sitter.Node) -> None:
        parent = node.parent
        if parent is None:
            return
        if name == nodes.REGISTER and parent.type == nodes.STORAGE_CLASS and not self.reverse:
            portability.register_storage(self, parent)
        elif name in ("asm", "__asm__", "__asm") and parent.type == nodes.ASM:
            portability.inline_asm(self, parent)
        elif name == "__launch_bounds__" and parent.type == nodes.LAUNCH_BOUNDS and not self.reverse:
            portability.launch_bounds(self, parent)
        elif name == portability.GRID_CONSTANT and not self.reverse and self.inside(node):
            portability.grid_constant(self, node.start_byte, node.end_byte)

    def _forward_special(self, name: str, node: tree_sitter.Node) -> bool:
        """Rules that replace the table for a name; True when the name is handled."""
        if name in warp.FORWARD_NAMES:
            return warp.forward(self, name, node)
        if name in calls.NAMES:
            return calls.handle(self, name, node)
        if name == "CUDART_CB":
            return portability.callback_convention(self, node.start_byte, node.end_byte)
        if name == portability.GRID_CONSTANT:
            return portability.grid_constant(self, node.start_byte, node.end_byte)
        if name in compat.FORWARD_NAMES:
            return compat.forward(self, name, node)
        if name in compat.CACHE_LOADS or name in compat.CACHE_STORES:
            return compat.cache_hint(self, name, node)
        if name in compat.INTEGER_MINMAX:
            return compat.integer_minmax(self, name, node)
        if name in compat.STRUCT_TAGS:
            return compat.struct_tag(self, name, node)
        if name in compat.CONTEXT_CREATE:
            return compat.context_create(self, name, node)
        if name in compat.COORDINATE_MINMAX:
            return compat.coordinate_minmax(self, node)
        if name in compat.SCOPED_ATOMICS:
            return compat.scoped_atomic(self, name, node)
        if name in rounding.NAMES:
            return rounding.forward(self, name, node)
        if name in groups.META_GROUP:
            return groups.meta_group(self, name, node)
        if name in groups.SHUFFLES:
            return groups.tile_shuffle(self, name, node) if node.type == nodes.MEMBER_NAME else True
        if name in nvtx.NAMES:
            return nvtx.forward(self, name, node)
        if name in bfloat16.NAMES:
            return bfloat16.forward(self, name, node)
        if name == collisions.MAKE_UINT3:
            return collisions.uint3_to_dim3(self, node)
        if name == "__CUDA_ARCH__":
            return portability.cuda_arch(self, node)
        if name in portability.HEADER_GUARDS:
            return portability.header_guard(self, name, node)
        if name in portability.VERSION_MACROS:
            return portability.version_macro(self, name, node)
        if name in ("texture", "surface"):
            return portability.texture_reference(self, name, node)
        if name == "pow":
            return portability.file_scope_pow(self, node)
        if name == "cub":
            return self._namespace_rename(node, "hipcub", "cub")
        if name == "cuda":
            if not self._thrust_backend(node, "hip") and node.type == nodes.NAMESPACE_NAME:
                self.find(fc.UNSUPPORTED_API, "error", "cuda:: (libcu++) has no HIP equivalent",
                          node.start_byte, node.end_byte, name=name, family="runtime")
            return True
        if name == "nvcuda":
            if node.type == nodes.NAMESPACE_NAME:
                self.find(fc.UNSUPPORTED_API, "error", "nvcuda::wmma has no HIP equivalent in the HIP headers; "
                          "rocWMMA (rocwmma::) offers a similar API with different fragment types",
                          node.start_byte, node.end_byte, name=name, family="device")
            return True
        return False

    def _reverse_special(self, name: str, node: tree_sitter.Node) -> bool:
        if name == "hipcub":
            return self._namespace_rename(node, "cub", "cub")
        if name == "hip":
            self._thrust_backend(node, "cuda")
            return True
        if name == "hipLaunchKernelGGL":
            return launch.reverse(self, node)
        if name == "HIP_SYMBOL":
            return calls.unwrap_symbol(self, node)
        if name in compat.REVERSE_NAMES:
            return compat.reverse(self, name, node)
        if name in vectors.TYPES:
            return vectors.construct(self, name, node)
        return False

    def _namespace_rename(self, node: tree_sitter.Node, new: str, tag: str) -> bool:
        parent = node.parent
        if node.type == nodes.NAMESPACE_NAME or (parent is not None and parent.type == nodes.USING):
            self.edit(node.start_byte, node.end_byte, new, tag)
        return True

    def _thrust_backend(self, node: tree_sitter.Node, new: str) -> bool:
        """``thrust::cuda`` <-> ``thrust::hip``; False when the name is not Thrust's backend."""
        before = self.src[max(0, node.start_byte - 40):node.start_byte]
        if node.type != nodes.NAMESPACE_NAME or not re.search(rb"\bthrust\s*::\s*$", before):
            return False
        self.edit(node.start_byte, node.end_byte, new, "runtime")
        return True

    def _rename_unparsed(self, name: str, start: int, end: int) -> None:
        if self.reverse:
            self._rename_plain(name, start, end)
        else:
            self.apply_entry(name, start, end)

    def _rename_plain(self, name: str, start: int, end: int) -> bool:
        """Rename without findings (reverse direction, strings and comments on request)."""
        if self.reverse:
            cuda = tables.reverse_names().get(name)
            if cuda is None:
                return False
            found = tables.row(cuda)
            self.edit(start, end, cuda, found.family if found else "")
            return True
        new, family, _ = self._planned(name)
        if new is not None:
            self.edit(start, end, new, family)
            return True
        return False

    def _available(self, found: tables.Row) -> bool:
        return tables.version_tuple(found.hip_added) <= self.eng.rocm

    def apply_entry(self, name: str, start: int, end: int, node: tree_sitter.Node | None = None) -> None:
        """Table-driven rename of one CUDA name in code, with its findings."""
        eng = self.eng
        new, family, notes = self._planned(name)
        if family == "blas" and eng.legacy_blas:
            found = tables.row(name)
            legacy = libraries.legacy_blas_call(found) if found is not None else None
            if legacy is not None:
                self.find(*legacy, start, end, name=name, family=family)
                return
        if family == "fft" and eng.settings.libraries == "roc" and not eng.fft_told:
            eng.fft_told = True
            self.find(fc.UNTRANSLATED, "info", libraries.FFT_UNDER_ROC, start, end, name=name, family=family)
        if family in _RUNTIME_FAMILIES:
            eng.uses_runtime = True
            if family == "runtime" and self._device_side_call(start, end, node):
                self.find(fc.DYNAMIC_PARALLELISM, "error", f"{name} called from device code is CUDA's device "
                          "runtime (dynamic parallelism), which HIP does not have", start, end, name=name,
                          family=family)
                return
        if new is not None:
            eng.edits.append(RawEdit(self.base + start, self.base + end, new, family))
        if node is not None and eng.settings.libraries == "roc" and name in libraries.CALL_RULES:
            libraries.rewrite_call(self, name, node)
        for code, severity, message in notes:
            self.find(code, severity, message, start, end, name=name, family=family)

    def _device_side_call(self, start: int, end: int, node: tree_sitter.Node | None) -> bool:
        if not self._device_span(start, end, False):
            return False
        call = self.call_of(node or self.at(start, end))
        return call is not None and self.in_device_function(call, host_too=False)

    def _planned(self, name: str) -> _Plan:
        key = (name, self.eng.rocm, self.eng.settings.libraries)
        plan = _PLANS.get(key)
        if plan is None:
            plan = _PLANS[key] = self._plan(name)
        return plan

    def _plan(self, name: str) -> _Plan:
        found = tables.row(name)
        if found is None:
            return None, "", ()
        chosen = libraries.plan(found, self.eng.settings.libraries, self.eng.rocm)
        if chosen is not None:
            return chosen
        family = found.family
        older = compat.older_spelling(name, found.hip, self.eng.rocm)
        if older is not None:
            return older[0], family, ((fc.API_NEWER_THAN_TARGET, "info", older[1]),)
        if not found.supported:
            return None, family, ((fc.UNSUPPORTED_API, "error", _unsupported_message(found)),)
        if not self._available(found):
            return None, family, ((fc.API_NEWER_THAN_TARGET, "error",
                                   f"{found.hip} (for {name}) needs ROCm {found.hip_added} or newer; the target "
                                   f"is ROCm {self.eng.settings.target.rocm_text}"),)
        return (found.hip if found.hip != name else None), family, tuple(libraries.lifecycle_notes(found, self.eng.rocm))

    def _scan_launches(self) -> None:
        """``<<<`` launches (HIP's hipLaunchKernelGGL is a name: the word scan finds it)."""
        if self.reverse:
            return
        pos = self.src.find(b"<<<", self.lo, self.hi)
        while pos != -1:
            where, node = self.context(pos, pos + 3)
            if where == "macro":
                self.remember_macro(node)
            elif where == "code" and node.parent is not None and node.parent.type == nodes.KERNEL_CALL:
                launch.forward(self, node.parent)
            pos = self.src.find(b"<<<", pos + 3, self.hi)

    def _translate_macro(self, arg: tree_sitter.Node) -> None:
        if not self.inside(arg):
            return
        body = self.src[arg.start_byte:arg.end_byte]
        sub_src = _MACRO_PREFIX + body + _MACRO_SUFFIX
        prepared = prepass.prepare(sub_src, self.eng.macros)
        tree = self.eng.parser.parse(prepared)
        params: frozenset[str] = frozenset()
        definition = arg.parent
        if definition is not None:
            plist = definition.child_by_field_name(nodes.Field.PARAMETERS)
            if plist is not None:
                params = frozenset(self.text(p) for p in plist.named_children)
        start = len(_MACRO_PREFIX)
        Pass(self.eng, sub_src, tree.root_node, self.base + arg.start_byte - start, start, start + len(body),
             params, prepared=prepared).run()

    # -- includes and whole-file rules (main pass only) -----------------------------------------
    def includes(self) -> bool:
        """Map include paths; returns True when the file includes the HIP runtime after translation."""
        seen: set[str] = set()
        has_runtime = False
        for m in _INCLUDE.finditer(self.src, self.lo, self.hi):
            if not _at_line_start(self.src, m.start()):
                continue
            path = m.group(1).decode("utf-8", "surrogateescape")
            where, node = self.context(m.start(1), m.end(1))
            directive = node.parent
            while directive is not None and directive.type != nodes.INCLUDE:
                directive = directive.parent
            if where != "string" or directive is None:
                continue
            if self.reverse:
                new = headers.reverse(path)
                family = "headers"
                reason = ""
            else:
                mapping = libraries.forward_header(path, self.eng.rocm, self.eng.settings.libraries)
                if mapping is None:
                    seen.add(path)
                    has_runtime = has_runtime or headers.is_runtime_header(path)
                    continue
                new, family, reason = mapping.path, mapping.family, mapping.reason
            if new is None:
                seen.add(path)
                continue
            if not new:
                self.find(fc.UNSUPPORTED_HEADER, "error", f"<{path}> has no HIP equivalent: {reason}",
                          m.start(1), m.end(1), name=path, family=family)
                continue
            if path == groups.REDUCE_HEADER and not self.reverse:
                groups.reduce_header(self, m.start(1), m.end(1))
            if new in seen and self.inside(directive):
                self.edit(directive.start_byte, directive.end_byte, "", "headers")
                continue
            if not self.reverse and not has_runtime and not headers.is_runtime_header(new):
                # nvcc includes cuda_runtime.h before anything else, and HIP's headers rely on it. A
                # directive under #if/#ifdef (jacobi's `#ifdef HAVE_CUB`) may be skipped: then at the top.
                if _conditional(directive):
                    self.runtime_at_top()
                else:
                    self.edit(directive.start_byte, directive.start_byte,
                              f"#include <{headers.RUNTIME}>{_eol(self.src)}", "headers")
                seen.add(headers.RUNTIME)
                has_runtime = True
            if (not self.reverse and not has_runtime and headers.is_runtime_header(new)
                    and placement.user_directive_before(self.src, directive.start_byte)):
                # nvcc's implicit include comes before this file's macros and project headers.
                self.runtime_at_top()
            seen.add(new)
            has_runtime = has_runtime or headers.is_runtime_header(new)
            self.edit(m.start(1), m.end(1), new, "headers")
        return has_runtime

    def runtime_at_top(self) -> None:
        """``#include <hip/hip_runtime.h>`` where nvcc's implicit include stands (placement.top_position)."""
        pos = placement.top_position(self.src)
        self.eng.edits.append(RawEdit(pos, pos, placement.runtime_line(self.src), "headers"))

    def uses_hip(self) -> bool:
        return self.eng.uses_runtime or re.compile(_DEVICE_CODE).search(self.src, self.lo, self.hi) is not None

    def include_runtime(self) -> None:
        """Include the HIP runtime the translated code uses (nvcc includes cuda_runtime.h implicitly;
        clang's HIP mode does not), unless an include outside the window brings it. A CUDA runtime
        include there is reported instead: it is the rest of the file's to translate."""
        cuda: tuple[re.Match[bytes], headers.HeaderMapping] | None = None
        outside = () if self.lo == 0 and self.hi == len(self.src) else (
            m for m in _INCLUDE.finditer(self.src) if m.start() < self.lo or m.end() > self.hi)
        for m in outside:
            if not _at_line_start(self.src, m.start()) or self.context(m.start(1), m.end(1))[0] != "string":
                continue
            path = m.group(1).decode("utf-8", "surrogateescape")
            if headers.is_runtime_header(path):
                return
            mapping = headers.forward(path, self.eng.rocm)
            if cuda is None and mapping is not None and headers.is_runtime_header(mapping.path):
                cuda = m, mapping
        if cuda is None:
            self.runtime_at_top()
            return
        m, mapping = cuda
        path = m.group(1).decode("utf-8", "surrogateescape")
        self.find(fc.UNTRANSLATED, "warning", f"<{path}>, outside the translated range, does not declare the HIP "
                  f"names the range now uses: translate it to <{mapping.path}>", m.start(1), m.end(1),
                  fix=(self.fix_edit(m.start(1), m.end(1), mapping.path),), name=path, family=mapping.family)

    def define_helpers(self) -> None:
        """Each compatibility helper the translation calls, once, after the includes that precede
        its first use (the declarations it needs come from them)."""
        for key, first in sorted(self.eng.helpers.items(), key=lambda kv: kv[1]):
            pos = placement.top_position(self.src)
            for m in _INCLUDE.finditer(self.src, 0, first):
                if _at_line_start(self.src, m.start()) and self.context(m.start(1), m.end(1))[0] == "string":
                    line_end = self.src.find(b"\n", m.end())
                    pos = len(self.src) if line_end == -1 else line_end + 1
            self.eng.edits.append(RawEdit(pos, pos, compat.render(key, _eol(self.src)), "compat"))

    def collect_defines(self) -> None:
        """Object-like macros whose body is a single token (full lane masks such as FULL_MASK)."""
        for m in _DEFINE.finditer(self.src):
            if _at_line_start(self.src, m.start()) and self.context(m.start(2), m.end(2))[0] == "macro":
                self.eng.defines[m.group(1).decode()] = m.span(2)

    def report_kept(self, edits: list[RawEdit]) -> None:
        """The safety net: an API name in code that the translation keeps, with no finding saying so,
        gets one (the translated file never keeps a source-API name silently). API names the file
        declares itself are said once, at their first declaration."""
        eng = self.eng
        covered = sorted([(e.start, e.end) for e in edits if e.start < e.end]
                         + [(f.start, f.end) for f in eng.findings])
        starts = [c[0] for c in covered]
        reach = list(itertools.accumulate((c[1] for c in covered), max))
        for name, start, end in eng.expected:
            i = bisect.bisect_right(starts, start) - 1
            if (i >= 0 and reach[i] >= end) or not self._renamed(name):
                continue
            self.find(fc.UNTRANSLATED, "warning", f"{name} is kept: the translator could not tell how it is used "
                      "here (code it could not fully read); translate this use by hand", start - self.base,
                      end - self.base, name=name)
        for name, (start, end) in eng.declared.items():
            if self._renamed(name):
                self.find(fc.UNTRANSLATED, "info", f"{name} is declared by this file, so its uses here are the "
                          "file's own and keep their name", start - self.base, end - self.base, name=name)

    def _renamed(self, name: str) -> bool:
        """Whether the translation must rename ``name`` in this direction (the tables' names; in
        reverse also HIP's mask-less warp functions, which CUDA 9+ no longer has)."""
        if self.reverse:
            return name in tables.reverse_names() or name in warp.NON_SYNC
        return self._planned(name)[0] is not None

    def parse_errors(self) -> None:
        if not self.root.has_error:
            return
        # The reverse direction rewrites HIP_DYNAMIC_SHARED(T, name), which the grammar cannot parse.
        rewritten = compat.dynamic_shared_spans(self.src) if self.reverse else []
        reported = 0
        stack = [self.root]
        while stack and reported < _MAX_PARSE_FINDINGS:
            node = stack.pop()
            if node.type == nodes.ERROR or node.is_missing:
                if (node.end_byte > self.lo and node.start_byte < self.hi
                        and not any(s <= node.start_byte and node.end_byte <= e for s, e in rewritten)):
                    message = (f"missing {node.type}: the code around it was read on a guess, and translated "
                               "as read" if node.is_missing else "unparsable code: translated by name, without a "
                               "full parse (table names outside strings and comments were renamed)")
                    message += f"; what the parser could not read: {self._construct(node)}"
                    self.find(fc.PARSE_ERROR, "warning", message, node.start_byte, node.end_byte)
                    reported += 1
                continue
            stack.extend(reversed([c for c in node.children if c.has_error or c.is_missing]))


    def _construct(self, node: tree_sitter.Node) -> str:
        """The construct that most likely defeated the parser at an ERROR or MISSING node."""
        line = self.src.rfind(b"\n", 0, node.start_byte) + 1
        before = self.src[line:node.start_byte]
        text = self.src[node.start_byte:node.end_byte]
        if node.is_missing:
            text = before
        for pattern, what in _CONSTRUCTS:
            m = pattern.search(text)
            if m is not None:
                return what.format(*(g.decode("utf-8", "replace") for g in m.groups()))
        return "a construct the grammar does not know"

    def set_aside_branches(self) -> None:
        """``#else`` branches the pre-pass set aside (prepass.set_aside) are said once each."""
        for start, end in prepass.set_aside(self.src):
            if end > self.lo and start < self.hi and self.src[start:end].strip():
                self.find(fc.PARSE_ERROR, "info", "#if/#else branches here split a statement or a list, which no "
                          "parser of one branch at a time can read: the #if branch was read, and this branch "
                          "translated by name (table names outside strings and comments were renamed)",
                          start + 1, end)


# What an ERROR region (or the line before a MISSING node) holds -> the construct to name.
_CONSTRUCTS = (
    (re.compile(rb"^[ \t]*#[ \t]*(?:if|ifdef|ifndef|elif|else|endif)\b", re.M),
     "preprocessor conditionals inside a statement or a list"),
    (re.compile(rb"\basm\b|\b__asm__\b"), "inline assembly operands"),
    (re.compile(rb"\b([A-Z_][A-Z0-9_]{2,})[ \t]*\("),
     "a macro invocation, {0}(...), that the parser cannot expand (defined in a header this file includes?)"),
    (re.compile(rb"\b([A-Z_][A-Z0-9_]{2,})\b"),
     "a macro, {0}, used where only its expansion makes sense (defined in a header this file includes?)"),
    (re.compile(rb"\b(?:template|typename)\b|>>"), "a template construct"),
    (re.compile(rb"\bnew\b"), "a new-expression"),
    (re.compile(rb"\)[ \t]*$"), "a call used as a statement without a semicolon (a statement macro?)"),
)


_CONDITIONALS = frozenset({nodes.IF, nodes.IFDEF, nodes.ELIF, nodes.ELSE, nodes.ELIFDEF})


def _conditional(node: tree_sitter.Node) -> bool:
    """``node`` lies in a preprocessor conditional's branch."""
    parent = node.parent
    while parent is not None:
        if parent.type in _CONDITIONALS:
            return True
        parent = parent.parent
    return False


def _at_line_start(src: bytes, pos: int) -> bool:
    line = src.rfind(b"\n", 0, pos) + 1
    before = src[line:pos]
    if line == 0 and before.startswith(_BOM):
        before = before[len(_BOM):]
    return not before.strip(b" \t")


def _unsupported_message(found: tables.Row) -> str:
    since = f" (CUDA {found.cuda_added})" if found.cuda_added else ""
    text = f"{found.cuda}{since} has no HIP equivalent"
    if found.hip and not found.hip_added:
        text = f"{found.cuda}{since}: {found.hip} is named by HIPIFY but not implemented in HIP"
    if found.alt:
        kind = "MIOpen" if found.alt_kind == "MIOPEN" else "ROC library"
        version = f" (since {found.alt_added})" if found.alt_added else ""
        text += f"; {kind} equivalent: {found.alt}{version}"
    if found.note:
        text += f". {found.note}"
    return text


def _resolve(edits: list[RawEdit]) -> list[RawEdit]:
    """Sort and drop edits inside an enclosing replacement (insertions at its start are kept)."""
    kept: list[RawEdit] = []
    end = -1
    # Stable sort: at one position, insertions first, then the widest replacement.
    for e in sorted(edits, key=lambda e: (e.start, e.start != e.end, -e.end)):
        if e.start < end:
            continue
        kept.append(e)
        end = max(end, e.end)
    return kept


def _eol(source: bytes) -> str:
    nl = source.find(b"\n")
    return "\r\n" if nl > 0 and source[nl - 1:nl] == b"\r" else "\n"


class Outcome(NamedTuple):
    edits: list[RawEdit]  # sorted, non-overlapping
    findings: list[RawFinding]  # sorted by position
    stats: dict[str, int]


def run(source: bytes, settings: Settings, *, byte_range: tuple[int, int] | None = None,
        tree: tree_sitter.Tree | None = None, check_cancelled: Callable[[], None] | None = None,
        headers: Sequence[bytes] = ()) -> Outcome:
    """The engine on UTF-8 bytes (``translate`` is the public, Struct-returning form). A file that
    uses no CUDA (no HIP in reverse: :func:`uses_source_api`) gets no edit and no finding, except
    prose (a licence named ``.cu``), which gets one ``not-code`` note.

    ``check_cancelled`` is called between passes and raises to abandon the translation.
    ``headers``: the texts of the project headers the file includes, whose macros the pre-pass
    reads (``prepass.scan``); ``tree``, when given, must come from the same preparation."""
    if not uses_source_api(source, settings):
        if _is_prose(source):  # a licence named .cu: said once, so the tree copies it under its own name
            return Outcome([], [RawFinding(fc.NOT_CODE, "info", _PROSE, 0, 0)], {})
        return Outcome([], [], {})
    check = check_cancelled or _not_cancelled
    parser = syntax.new_parser()
    macros = prepass.scan(source, headers)
    prepared = prepass.prepare(source, macros)
    if tree is None:
        tree = parser.parse(prepared)
    check()
    lo, hi = (0, len(source)) if byte_range is None else (max(0, byte_range[0]), min(len(source), byte_range[1]))
    eng = Engine(source, settings, parser, macros, check)
    main = Pass(eng, source, tree.root_node, 0, lo, hi, prepared=prepared)
    if tree.root_node.has_error and _is_prose(source):
        main.find(fc.NOT_CODE, "info", _PROSE, 0, 0)
        return Outcome([], eng.findings, {})
    main.parse_errors()
    main.set_aside_branches()
    if not settings.reverse:
        main.collect_defines()
    has_runtime = main.includes()
    check()
    main.run()
    check()
    if not settings.reverse and not has_runtime and main.uses_hip():
        main.include_runtime()
    main.define_helpers()
    edits = _resolve(eng.edits)
    main.report_kept(edits)
    stats: dict[str, int] = {}
    for e in edits:
        if e.tag:
            stats[e.tag] = stats.get(e.tag, 0) + 1
    return Outcome(edits, sorted(eng.findings, key=lambda f: (f.start, f.end, f.code)), stats)


_PROSE = "not C++ (prose: no statement, block or directive): left as it is"


def _is_prose(source: bytes) -> bool:
    """Text with no block, directive or line-ending ``;`` outside comments and strings: prose (a
    licence named ``.cu``), whose semicolons sit inside sentences."""
    code = re.sub(_OPAQUE, b" ", source)
    return (code.strip() != b"" and not any(c in code for c in b"{}#")
            and not any(line.rstrip().endswith(b";") for line in code.splitlines()))


def apply(source: bytes, edits: list[RawEdit]) -> bytes:
    out: list[bytes] = []
    pos = 0
    for e in edits:
        out.append(source[pos:e.start])
        out.append(e.text.encode("utf-8", "surrogateescape"))
        pos = e.end
    out.append(source[pos:])
    return b"".join(out)


def engine_settings(arch: str, rocm: str, launch_style: str, rewrite_opaque: bool, reverse: bool,
                    libraries: str = "hip", cuda: str = "auto") -> Settings:
    """The engine's settings, built in this one place for the server, the CLI and the library API
    (ValueError for a bad arch, ROCm or CUDA). Plain values, not the settings Structs: the CLI's cold
    start never loads msgspec."""
    from cass_lsp.core import targets

    return Settings(targets.resolve(arch, rocm, cuda), launch_style, rewrite_opaque, reverse, libraries)


def settings_of(profile: TargetProfile | None, options: TranslateOptions | None, reverse: bool) -> Settings:
    """:func:`engine_settings` of the library API's profile and options (their defaults when None)."""
    from cass_lsp.core.profile import TargetProfile, TranslateOptions

    profile = profile or TargetProfile()
    options = options or TranslateOptions()
    return engine_settings(profile.arch, profile.rocm, options.launch_style, options.rewrite_strings_and_comments,
                           reverse, options.libraries, profile.cuda)


def translate(source: str, profile: TargetProfile | None = None, options: TranslateOptions | None = None, *,
              reverse: bool = False, byte_range: tuple[int, int] | None = None,
              tree: tree_sitter.Tree | None = None,
              check_cancelled: Callable[[], None] | None = None,
              headers: Sequence[str] = ()) -> TranslationResult:
    """Translate CUDA to HIP (or HIP to CUDA with ``reverse``); offsets are UTF-8 byte offsets.

    ``byte_range`` limits rewriting to a region, save the edits elsewhere that the region's code
    needs to compile: the body of a ``#define`` lane mask it uses, the type of a mask variable it
    assigns, the HIP runtime include where the file has no runtime include (a CUDA runtime include
    outside the region is reported, with the fix). ``tree`` is an existing parse of ``source``.
    ``check_cancelled`` is called between passes and may raise to stop the work. ``headers``: the
    texts of the project headers ``source`` includes; the macros they define (attribute macros such as
    ``RAJA_HOST_DEVICE``, statement macros such as ``CHECK(call)``) are read as the file's own are.
    """
    data = source.encode("utf-8", "surrogateescape")
    out = run(data, settings_of(profile, options, reverse), byte_range=byte_range, tree=tree,
              check_cancelled=check_cancelled, headers=[h.encode("utf-8", "surrogateescape") for h in headers])
    return result_of(data, out)


def result_of(data: bytes, out: Outcome) -> TranslationResult:
    """The public, Struct-based form of an outcome of ``run`` on ``data``."""
    from cass_lsp.translate.findings import Edit, TranslationResult, public_finding

    text = apply(data, out.edits).decode("utf-8", "surrogateescape")
    return TranslationResult(text, [Edit(e.start, e.end, e.text) for e in out.edits],
                             [public_finding(f) for f in out.findings], out.stats)
