"""Kernel launches: ``<<<...>>>`` <-> ``hipLaunchKernelGGL``.

Rewrites are made of small edits between the launch's own tokens, so names inside the kernel
arguments are still translated by the table pass.
"""

from __future__ import annotations

import re

import tree_sitter

from cass_lsp.syntax import nodes
from cass_lsp.translate import codes as fc
from cass_lsp.translate.context import RuleContext

_DIM3 = r"dim3\s*[({]"
_ZERO = frozenset({"0", "0u", "0U", "nullptr", "NULL"})


def forward(p: RuleContext, config_node: tree_sitter.Node) -> None:
    """A ``kernel<<<grid, block[, shmem[, stream]]>>>(args)`` call (config_node is the <<<...>>>)."""
    call = config_node.parent
    if call is None or call.type != nodes.CALL or not p.inside(call):
        return
    p.need_runtime()
    if p.in_device_function(call):
        p.find(fc.DYNAMIC_PARALLELISM, "error", "HIP cannot launch kernels from device code (CUDA dynamic "
               "parallelism)", call.start_byte, call.end_byte, family="runtime")
        return
    config = [c for c in config_node.named_children if c.type != nodes.COMMENT]
    braced = [_dimensions_in_braces(p, c) for c in config[:2]]
    if p.launch_style == "chevron":
        return
    func = call.child_by_field_name(nodes.Field.FUNCTION)
    arglist = call.child_by_field_name(nodes.Field.ARGUMENTS)
    if func is None or arglist is None or not 2 <= len(config) <= 4 or arglist.child_count < 2:
        p.find(fc.UNTRANSLATED, "warning", "this launch could not be rewritten to hipLaunchKernelGGL; "
               "the <<<>>> form is kept (valid HIP)", call.start_byte, call.end_byte, family="runtime")
        return
    template = func.type == nodes.TEMPLATE_FUNCTION or "<" in p.text(func)
    # hipLaunchKernelGGL is a macro: a template-id with commas must be wrapped in HIP_KERNEL_NAME.
    p.edit(call.start_byte, call.start_byte, "hipLaunchKernelGGL(" + ("HIP_KERNEL_NAME(" if template else ""),
           "launch")
    grid, block = (re.match(_DIM3, p.text(c)) is None and not was_braced for c, was_braced in zip(config[:2], braced, strict=True))
    p.edit(func.end_byte, config[0].start_byte, (")" if template else "") + ", " + ("dim3(" if grid else ""))
    p.edit(config[0].end_byte, config[1].start_byte, (")" if grid else "") + ", " + ("dim3(" if block else ""))
    close = ")" if block else ""
    tail = {2: close + ", 0, 0", 3: ", 0", 4: ""}[len(config)]
    if len(config) >= 3:
        p.edit(config[1].end_byte, config[2].start_byte, close + ", ")
    if len(config) == 4:
        p.edit(config[2].end_byte, config[3].start_byte, ", ")
    has_args = bool(p.arguments(call))
    open_paren = arglist.children[0]
    p.edit(config[-1].end_byte, open_paren.end_byte, tail + (", " if has_args else ""))


def _dimensions_in_braces(p: RuleContext, argument: tree_sitter.Node) -> bool:
    """A grid or block given as ``{x, y, 1}`` (nvcc initialises the dim3 from the list) becomes
    ``dim3(x, y, 1)``: clang parses a launch's configuration as expressions, where a braced list is
    none (clang-15: "expected expression"). True when it was one. Read from the text: the grammar
    takes the list for a parenthesised or compound-literal expression."""
    text = p.text(argument)
    if not (text.strip().startswith("{") and text.endswith("}")):
        return False
    opening = argument.start_byte + text.index("{")
    p.edit(opening, opening + 1, "dim3(", "launch")
    p.edit(argument.end_byte - 1, argument.end_byte, ")")
    return True


def unwrap(p: RuleContext, call: tree_sitter.Node, callee_text: str) -> tree_sitter.Node | None:
    """When ``call`` is ``callee_text(x)`` with one argument, edit it down to ``x`` and return x."""
    if call.type != nodes.CALL:
        return None
    callee = call.child_by_field_name(nodes.Field.FUNCTION)
    args = p.arguments(call)
    if callee is None or p.text(callee) != callee_text or len(args) != 1:
        return None
    p.edit(call.start_byte, args[0].start_byte, "")
    p.edit(args[0].end_byte, call.end_byte, "")
    return args[0]


def reverse(p: RuleContext, name_node: tree_sitter.Node) -> bool:
    """``hipLaunchKernelGGL(k, grid, block, shmem, stream, args...)`` -> ``k<<<...>>>(args...)``."""
    call = p.call_of(name_node)
    if call is None or not p.inside(call):
        return True
    args = p.arguments(call)
    arglist = call.child_by_field_name(nodes.Field.ARGUMENTS)
    if len(args) < 5 or arglist is None:
        p.find(fc.UNTRANSLATED, "warning", "hipLaunchKernelGGL needs at least 5 arguments; left unchanged",
               call.start_byte, call.end_byte, family="runtime")
        return True
    kernel, grid, block, shmem, stream, *rest = args
    close = arglist.children[-1]
    p.edit(call.start_byte, kernel.start_byte, "", "launch")
    unwrap(p, kernel, "HIP_KERNEL_NAME")
    p.edit(kernel.end_byte, grid.start_byte, "<<<")
    unwrap(p, grid, "dim3")
    p.edit(grid.end_byte, block.start_byte, ", ")
    unwrap(p, block, "dim3")
    after = rest[0].start_byte if rest else close.start_byte
    if p.text(shmem).strip() in _ZERO and p.text(stream).strip() in _ZERO:
        p.edit(block.end_byte, after, ">>>(")
    else:
        p.edit(block.end_byte, shmem.start_byte, ", ")
        p.edit(shmem.end_byte, stream.start_byte, ", ")
        p.edit(stream.end_byte, after, ">>>(")
    return True
