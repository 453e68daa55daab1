"""Warp intrinsics, spelled per target ROCm.

HIP before 7.0 has only the non-sync forms (``__shfl_down``, ``__ballot``, ...; 6.x has the sync
forms behind -DHIP_ENABLE_WARP_SYNC_BUILTINS, so the non-sync form is preferred there too). From 7.0
the sync forms exist by default and their mask must be a 64-bit integer (a static_assert rejects
``0xffffffffu``). HIP's ``__ballot`` and ``__activemask`` return 64 bits on every target.
"""

from __future__ import annotations

import re

import tree_sitter

from cass_lsp.syntax import nodes
from cass_lsp.translate import codes as fc
from cass_lsp.translate.context import RuleContext

SHUFFLES = ("__shfl_sync", "__shfl_up_sync", "__shfl_down_sync", "__shfl_xor_sync")
VOTES = ("__ballot_sync", "__any_sync", "__all_sync")
ROCM7_ONLY = ("__match_any_sync", "__match_all_sync", "__reduce_add_sync", "__reduce_min_sync",
              "__reduce_max_sync", "__reduce_and_sync", "__reduce_or_sync", "__reduce_xor_sync")
# 32-bit bit counts that a 64-lane mask outgrows -> their 64-bit forms.
BIT_COUNTS = {"__popc": "__popcll", "__ffs": "__ffsll", "__clz": "__clzll"}
FORWARD_NAMES = frozenset({*SHUFFLES, *VOTES, *ROCM7_ONLY, "__activemask", "__syncwarp", *BIT_COUNTS})
NON_SYNC = ("__shfl", "__shfl_up", "__shfl_down", "__shfl_xor", "__ballot", "__any", "__all")
WAVE_BARRIER = "__builtin_amdgcn_wave_barrier"
REVERSE_NAMES = frozenset({*NON_SYNC, *SHUFFLES, *VOTES, *ROCM7_ONLY, "__syncwarp", WAVE_BARRIER})

SYNC_BUILTINS_SINCE = (7, 0)
FULL_MASK_64 = "0xffffffffffffffffull"
FULL_MASK_32 = "0xffffffff"
WIDE_TYPE = "unsigned long long"
# What __syncwarp does in HIP 7.x, usable as an expression on older ROCm.
SYNCWARP_EXPR = ('(__builtin_amdgcn_fence(__ATOMIC_RELEASE, "wavefront"), __builtin_amdgcn_wave_barrier(), '
                 '__builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "wavefront"))')

_MASK_CALLS = ("__ballot_sync(", "__activemask(", "__ballot(")
_SUFFIX = r"(?:[uU](?:ll|LL|l|L)?|(?:ll|LL|l|L)[uU]?)?"
_FULL64 = rf"(?:0[xX][fF]{{16}}|18446744073709551615){_SUFFIX}|~0(?:[uU](?:ll|LL)|(?:ll|LL)[uU]?)"
_FULL32 = rf"(?:0[xX][fF]{{8}}|4294967295|~0|-1){_SUFFIX}"
_WIDE_DECL = r"\b(?:long\s+long|u?int64_t|unsigned\s+long|size_t|auto|lanemask_t)\s+(?:const\s+)?{}\b"
_CONST_DECL = (rb"\b(?:constexpr|const)\b[^;={}()]*\b", rb"\s*=\s*([^;,{}]+?)\s*[;,]")
_NARROW_TYPES = r"unsigned(?:\s+int)?|int|uint32_t|int32_t|uint"


def _strip(text: str) -> str:
    text = "".join(text.split())
    while text.startswith("(") and text.endswith(")"):
        text = text[1:-1]
    return text


def _literal_kind(text: str) -> str:
    if re.fullmatch(_FULL64, text):
        return "full64"
    if re.fullmatch(_FULL32, text):
        return "full32"
    if text == "__activemask()":
        return "active"
    return "other"


def mask_kind(p: RuleContext, mask: tree_sitter.Node) -> tuple[str, str]:
    """(kind, origin): kind is full64, full32, active, wide (a 64-bit variable) or other; origin
    says where a named full mask is spelled: "macro" (#define), "const" (a constant), "" (here)."""
    text = _strip(p.text(mask))
    if mask.type != nodes.IDENTIFIER:
        return _literal_kind(text), ""
    if text in p.active_masks:
        return "active", ""
    if text in p.wide_masks:
        return "wide", ""
    body = p.define_body(text)
    if body is not None:
        return _literal_kind(_strip(body)), "macro"
    const = re.search(_CONST_DECL[0] + re.escape(text.encode()) + _CONST_DECL[1], p.file_source)
    if const is not None:
        return _literal_kind(_strip(const[1].decode("utf-8", "surrogateescape"))), "const"
    return "other", ""


def _declared_wide(p: RuleContext, call: tree_sitter.Node, name: str) -> bool:
    scope = call
    while scope.parent is not None and scope.type != nodes.FUNCTION_DEFINITION:
        scope = scope.parent
    return re.search(_WIDE_DECL.format(re.escape(name)), p.text(scope)) is not None


def forward(p: RuleContext, name: str, node: tree_sitter.Node) -> bool:
    """CUDA warp intrinsics -> what the target ROCm has; True (the name is always handled here)."""
    call = p.call_of(node)
    p.need_runtime()
    legacy = p.target.rocm < SYNC_BUILTINS_SINCE
    if call is not None and not p.inside(call):
        return True
    if name in BIT_COUNTS:
        if call is not None:
            _bit_count(p, name, node, call)
        return True
    if call is None:
        if legacy:
            p.find(fc.UNTRANSLATED, "error", f"{name} does not exist before ROCm 7.0 and this use is not a "
                   "call the rules can rewrite", node.start_byte, node.end_byte, name=name, family="device")
        return True
    args = p.arguments(call)
    if name in ROCM7_ONLY:
        if legacy:
            p.find(fc.API_NEWER_THAN_TARGET, "error", f"{name} needs ROCm 7.0 or newer; the target is ROCm "
                   f"{p.target.rocm_text}", node.start_byte, node.end_byte, name=name, family="device")
        elif args:
            _widen_mask(p, call, args[0])
        return True
    if name == "__activemask":
        variable = _initialized_variable(call)
        if variable is not None:
            p.active_masks.add(p.text(variable))
        _widen_declaration(p, call)
        if legacy:
            p.edit(call.start_byte, call.end_byte, "__ballot(1)", "device")
        return True
    if name == "__syncwarp":
        if legacy:
            if args and mask_kind(p, args[0])[0] in ("other", "wide"):
                _dropped(p, args[0], name)
            p.edit(call.start_byte, call.end_byte, SYNCWARP_EXPR, "device")
        elif args:
            _widen_mask(p, call, args[0])
        return True
    wanted = 3 if name in SHUFFLES else 2
    if len(args) < wanted:
        p.find(fc.UNTRANSLATED, "error" if legacy else "warning",
               f"{name} with {len(args)} arguments: left unchanged", call.start_byte, call.end_byte,
               name=name, family="device")
        return True
    if name == "__ballot_sync":
        _widen_declaration(p, call)
    if p.target.wave_size == 64 and name in SHUFFLES:
        _shuffle_width_checks(p, name, call, args)
    if legacy:
        mask = args[0]
        if mask_kind(p, mask)[0] in ("other", "wide"):
            _dropped(p, mask, name)
        p.edit(node.start_byte, node.end_byte, name[: -len("_sync")], "device")
        p.edit(mask.start_byte, args[1].start_byte, "")
    else:
        _widen_mask(p, call, args[0])
    return True


def _dropped(p: RuleContext, mask: tree_sitter.Node, name: str) -> None:
    p.find(fc.WARP_MASK_DROPPED, "warning",
           f"ROCm {p.target.rocm_text} has no {name}; the non-sync form runs on all active lanes, so the "
           f"mask {p.text(mask)!r} is dropped: check the lanes that take part",
           mask.start_byte, mask.end_byte, name=name, family="device")


def _widen_declaration(p: RuleContext, call: tree_sitter.Node) -> None:
    """``unsigned m = __ballot_sync(...)`` / ``__activemask()``: HIP's masks have 64 bits. Widen the
    variable where it matters: ROCm 7 wants 64-bit masks back, and a wave64 mask needs the bits."""
    if p.target.rocm < SYNC_BUILTINS_SINCE and p.target.wave_size == 32:
        return
    variable = _initialized_variable(call)
    declaration = variable.parent.parent if variable is not None and variable.parent is not None else None
    decl_type = declaration.child_by_field_name(nodes.Field.TYPE) if declaration is not None else None
    if variable is None or decl_type is None:
        return
    if not re.fullmatch(_NARROW_TYPES, " ".join(p.text(decl_type).split())):
        return
    # The call is in the window; a window starting inside the declaration still needs the type.
    p.edit_needed(decl_type.start_byte, decl_type.end_byte, WIDE_TYPE, "device")
    p.wide_masks.add(p.text(variable))
    p.find(fc.WARP_MASK_WIDTH, "info", f"{p.text(variable)} holds a lane mask, which has 64 bits in HIP: "
           f"declared {WIDE_TYPE}", decl_type.start_byte, decl_type.end_byte, name=p.text(variable),
           family="device")


def _initialized_variable(call: tree_sitter.Node) -> tree_sitter.Node | None:
    """``x`` in ``T x = call(...)``."""
    declarator = call.parent
    if declarator is None or declarator.type != nodes.INIT_DECLARATOR or declarator.parent is None:
        return None
    variable = declarator.child_by_field_name(nodes.Field.DECLARATOR)
    return variable if variable is not None and variable.type == nodes.IDENTIFIER else None


def _widen_mask(p: RuleContext, call: tree_sitter.Node, mask: tree_sitter.Node) -> None:
    kind, origin = mask_kind(p, mask)
    if kind in ("full64", "active", "wide"):
        return
    if kind == "full32":
        if origin == "macro":
            # Wherever the #define is: the mask would stay 32-bit, which ROCm 7 rejects.
            p.widen_define(p.text(mask), FULL_MASK_64, "device")
        else:
            p.edit(mask.start_byte, mask.end_byte, FULL_MASK_64, "device")
        return
    text = p.text(mask)
    if mask.type == nodes.IDENTIFIER and _declared_wide(p, call, text):
        return
    cast = f"static_cast<{WIDE_TYPE}>({text})"
    if p.target.wave_size == 32:
        p.edit(mask.start_byte, mask.end_byte, cast, "device")
        p.find(fc.WARP_MASK_WIDTH, "info", f"ROCm {p.target.rocm_text} needs a 64-bit lane mask: {text} is widened "
               "(wave32 ignores the upper half)", mask.start_byte, mask.end_byte, name=text, family="device")
    else:
        p.find(fc.WARP_MASK_WIDTH, "error", f"ROCm {p.target.rocm_text} needs a 64-bit lane mask and "
               f"{p.target.arch} runs 64 lanes: make {text} a 64-bit mask covering the whole wave",
               mask.start_byte, mask.end_byte, fix=(p.fix_edit(mask.start_byte, mask.end_byte, cast),),
               name=text, family="device")


def _shuffle_width_checks(p: RuleContext, name: str, call: tree_sitter.Node, args: list[tree_sitter.Node]) -> None:
    if len(args) >= 4 and _strip(p.text(args[3])) == "32":
        p.find(fc.WARP_SIZE_ASSUMPTION, "warning", f"width 32 splits each {p.target.wave_size}-lane wave of "
               f"{p.target.arch} into two halves: use warpSize if the code means the whole warp",
               args[3].start_byte, args[3].end_byte, name=name, family="device")
    if name != "__shfl_sync" and _starts_at_half_warp(p, call, args[2]):
        p.find(fc.WARP_SIZE_ASSUMPTION, "warning", f"a shuffle reduction starting at offset 16 combines 32 lanes; "
               f"{p.target.arch} runs {p.target.wave_size}-lane waves: start at warpSize / 2", args[2].start_byte,
               args[2].end_byte, name=name, family="device")


def _bit_count(p: RuleContext, name: str, node: tree_sitter.Node, call: tree_sitter.Node) -> None:
    """``__ffs``/``__popc``/``__clz`` of a lane mask, which has 64 bits in HIP."""
    args = p.arguments(call)
    if len(args) != 1:
        return
    text = _strip(p.text(args[0]))
    if text not in p.wide_masks and not text.startswith(_MASK_CALLS):
        return
    wide = BIT_COUNTS[name]
    if name == "__clz":
        # Same result for lanes 0-31 only with the 32-bit form: on wave64 the offsets change.
        if p.target.wave_size == 64:
            p.find(fc.WARP_SIZE_ASSUMPTION, "warning", f"__clz reads 32 bits of a {p.target.wave_size}-lane mask: use "
                   f"{wide} and count from bit 63", node.start_byte, node.end_byte, name=name, family="device")
        return
    # __ffs of a 64-bit value is ambiguous in HIP, and __popc drops lanes 32-63; the 64-bit forms
    # give the CUDA result for lanes 0-31 and count the rest.
    p.edit(node.start_byte, node.end_byte, wide, "device")
    p.find(fc.WARP_MASK_WIDTH, "info", f"{name} -> {wide}: the lane mask has 64 bits in HIP", node.start_byte,
           node.end_byte, name=name, family="device")


def _starts_at_half_warp(p: RuleContext, call: tree_sitter.Node, delta: tree_sitter.Node) -> bool:
    """The offset is 16, or a for-loop variable that starts at 16."""
    text = _strip(p.text(delta))
    if text == "16":
        return True
    if delta.type != nodes.IDENTIFIER:
        return False
    loop = call.parent
    while loop is not None and loop.type != nodes.FOR:
        loop = loop.parent
    init = loop.child_by_field_name(nodes.Field.INITIALIZER) if loop is not None else None
    return init is not None and re.search(rf"\b{re.escape(text)}\s*=\s*16\b", p.text(init)) is not None


def reverse(p: RuleContext, name: str, node: tree_sitter.Node) -> bool:
    """HIP warp intrinsics -> the CUDA sync forms with a 32-bit full mask."""
    if name not in REVERSE_NAMES:
        return False
    if name == WAVE_BARRIER:
        _reverse_syncwarp(p, node)
        return True
    call = p.call_of(node)
    if call is None or not p.inside(call):
        return True
    args = p.arguments(call)
    if name == "__ballot" and len(args) == 1 and _strip(p.text(args[0])) in ("1", "true"):
        p.edit(call.start_byte, call.end_byte, "__activemask()", "device")
        return True
    if name in NON_SYNC:
        if args:
            p.edit(node.start_byte, node.end_byte, name + "_sync", "device")
            p.edit(args[0].start_byte, args[0].start_byte, FULL_MASK_32 + ", ")
        return True
    if args and mask_kind(p, args[0]) == ("full64", ""):
        p.edit(args[0].start_byte, args[0].end_byte, FULL_MASK_32, "device")
    return True


def reverse_by_name(p: RuleContext, name: str, start: int, end: int) -> bool:
    """A mask-less HIP warp call in code the parser could not read: the same ``_sync`` form and full
    mask as ``reverse`` gives, found from the text (the name, then its ``(`` and first argument)."""
    if name not in NON_SYNC:
        return False
    i = end
    while i < p.hi and p.src[i:i + 1] in (b" ", b"\t", b"\r", b"\n"):
        i += 1
    if p.src[i:i + 1] != b"(":
        return False
    arg = i + 1
    while arg < p.hi and p.src[arg:arg + 1] in (b" ", b"\t", b"\r", b"\n"):
        arg += 1
    if arg >= p.hi or p.src[arg:arg + 1] == b")":
        return False
    p.edit(start, end, name + "_sync", "device")
    p.edit(arg, arg, FULL_MASK_32 + ", ")
    return True


def _reverse_syncwarp(p: RuleContext, node: tree_sitter.Node) -> None:
    """The expression SYNCWARP_EXPR stands for (written by the forward direction) -> __syncwarp()."""
    expr = node.parent
    while expr is not None and expr.type != nodes.PARENTHESIZED:
        expr = expr.parent
    if expr is not None and p.inside(expr) and "".join(p.text(expr).split()) == "".join(SYNCWARP_EXPR.split()):
        p.edit(expr.start_byte, expr.end_byte, "__syncwarp()", "device")
