"""Text and Markdown views of listings (pure: no I/O, no LSP types).

- :func:`line_hover`: the instructions one source line became on each target (first N, "+K more")
  with a one-line resource summary of the enclosing kernel;
- :func:`kernel_resources`: one kernel's resources on every target, side by side;
- :func:`render_listing` / :func:`render_results`: whole listings interleaved with source lines,
  for ``cass-lsp asm`` and the "show assembly" document.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence

from cass_lsp.asm.listing import (
    CompileFailure,
    CompilerDiagnostic,
    Function,
    Instruction,
    Listing,
    Resources,
    TargetResult,
    Unavailable,
    find_functions,
    instructions_at,
    user_location,
)

Shown = TargetResult | str
"""What a target shows: a result, or a plain message such as "compiling…"."""
SourceLines = Callable[[str, int], str]


def no_source(_file: str, _line: int) -> str:
    return ""


def _bytes(n: int) -> str:
    return f"{n} B" if n < 1024 or n % 1024 else f"{n // 1024} KiB"


def resource_line(res: Resources) -> str:
    """``10 regs · 1 KiB shared · 64 warps/SM (register-limited)``; AMD: VGPRs, SGPRs, LDS, …"""
    parts: list[str] = []
    if res.vgprs is not None:
        parts.append(f"{res.vgprs} VGPRs")
        if res.agprs:
            parts.append(f"{res.agprs} AGPRs")
        if res.sgprs is not None:
            parts.append(f"{res.sgprs} SGPRs")
    elif res.registers is not None:
        parts.append(f"{res.registers} regs")
    if res.shared_bytes:
        parts.append(f"{_bytes(res.shared_bytes)} {'LDS' if res.vgprs is not None else 'shared'}")
    if res.scratch_bytes:
        parts.append(f"{_bytes(res.scratch_bytes)} {'scratch' if res.vgprs is not None else 'stack'}")
    spills = _spills(res)
    if spills:
        parts.append(f"spills {spills}")
    if res.occupancy is not None:
        parts.append(f"{res.occupancy} {res.occupancy_unit}")
    return " · ".join(parts) if parts else "no resource figures"


def _spills(res: Resources) -> str:
    if res.spill_store_bytes or res.spill_load_bytes:
        return f"{res.spill_store_bytes or 0} B stored / {res.spill_load_bytes or 0} B loaded"
    if res.vgpr_spills or res.sgpr_spills:
        return f"{res.vgpr_spills or 0} VGPR / {res.sgpr_spills or 0} SGPR"
    return ""


def _why(result: Shown) -> str | None:
    """The one-line reason a target has no listing, or None when it has one."""
    if isinstance(result, str):
        return result
    if isinstance(result, Unavailable):
        return f"{result.message}" + (f" (install: `{result.hint}`)" if result.hint else "")
    if isinstance(result, CompileFailure):
        if result.timed_out:
            return f"compile {result.note}"
        error = next((d for d in result.diagnostics if d.severity == "error"), None)
        if error is None:
            return "does not compile (no message)"
        where = f" (line {error.line})" if error.line else ""
        origin = " — in the rule translation" if result.translated else ""
        return f"does not compile{origin}: `{error.message}`{where}"
    return None


def _fence(dialect: str) -> str:
    return "sass" if dialect == "sass" else "asm"


def line_hover(
    results: Mapping[str, Shown],
    file: str,
    line: int,
    *,
    kernel: str | None = None,
    max_instructions: int = 8,
) -> str:
    """Markdown: what ``file:line`` became on each target, and its kernel's resources."""
    blocks: list[str] = []
    for target, result in results.items():
        why = _why(result)
        if why is not None or not isinstance(result, Listing):
            blocks.append(f"**{target}** — {why}")
            continue
        found = instructions_at(result, file, line)
        origin = " · from the rule translation" if result.translated else ""
        if not found:
            blocks.append(f"**{target}**{origin} — no instructions for this line")
            continue
        names = list(dict.fromkeys(f.short_name for f, _ in found))
        where = names[0] if len(names) == 1 else f"{len(names)} functions: {', '.join(names)}"
        shown = found[:max_instructions]
        body = "\n".join(_instruction_text(ins, file) for _, ins in shown)
        more = len(found) - len(shown)
        summary_of = _resource_function(result, [f for f, _ in found], kernel)
        tail = [f"+{more} more"] if more else []
        if summary_of is not None:
            tail.append(f"{summary_of.short_name}: {resource_line(summary_of.resources)}")
        blocks.append(
            f"**{target}** · `{where}` · {len(found)} instruction{'s' if len(found) != 1 else ''}{origin}\n"
            f"```{_fence(result.dialect)}\n{body}\n```" + (f"\n{' · '.join(tail)}" if tail else "")
        )
    return "\n\n".join(blocks)


def _resource_function(listing: Listing, holders: list[Function], kernel: str | None) -> Function | None:
    """The kernel to summarize: the one named (the server knows the enclosing kernel), else the
    first kernel holding the line's instructions."""
    if kernel:
        named = [f for f in find_functions(listing, kernel) if f.kind == "kernel"]
        if named:
            return named[0]
    return next((f for f in holders if f.kind == "kernel"), None)


def _instruction_text(ins: Instruction, file: str) -> str:
    """The instruction, with the header line it came from when that is not ``file``."""
    if ins.file is not None and ins.line is not None and os.path.normpath(ins.file) != os.path.normpath(file):
        return f"{ins.text}  // {os.path.basename(ins.file)}:{ins.line}"
    return ins.text


_ROWS: tuple[tuple[str, Callable[[Resources], str]], ...] = (
    (
        "registers",
        lambda r: (
            (f"{r.vgprs} VGPR · {r.sgprs} SGPR" + (f" · {r.agprs} AGPR" if r.agprs else ""))
            if r.vgprs is not None
            else (str(r.registers) if r.registers is not None else "–")
        ),
    ),
    ("shared / LDS", lambda r: _bytes(r.shared_bytes) if r.shared_bytes is not None else "–"),
    ("stack / scratch", lambda r: _bytes(r.scratch_bytes) if r.scratch_bytes is not None else "–"),
    ("spills", lambda r: _spills(r) or "none"),
    ("wave size", lambda r: str(r.wave_size) if r.wave_size else "–"),
    ("occupancy", lambda r: f"{r.occupancy} {r.occupancy_unit}" if r.occupancy is not None else "–"),
)


def kernel_resources(results: Mapping[str, Shown], kernel: str) -> str:
    """Markdown table: ``kernel``'s resources on every target (one column per target)."""
    columns: list[tuple[str, Resources | str]] = []
    for target, result in results.items():
        why = _why(result)
        if why is not None or not isinstance(result, Listing):
            columns.append((target, why or ""))
            continue
        matches = [f for f in find_functions(result, kernel) if f.kind == "kernel"] or find_functions(result, kernel)
        columns.append((target, matches[0].resources if matches else "not in this listing"))
    header = f"**{kernel}**\n\n| | " + " | ".join(t for t, _ in columns) + " |\n|---|" + "---|" * len(columns)
    rows = []
    for label, cell in _ROWS:
        values = [cell(c) if isinstance(c, Resources) else "" for _, c in columns]
        rows.append(f"| {label} | " + " | ".join(values) + " |")
    notes = [f"{target}: {c}" for target, c in columns if isinstance(c, str) and c]
    return "\n".join([header, *rows]) + ("\n\n" + "\n".join(f"- {n}" for n in notes) if notes else "")


def render_listing(
    listing: Listing,
    source: SourceLines = no_source,
    *,
    kernel: str | None = None,
    line: int | None = None,
    limit: int | None = None,
) -> str:
    """Plain text: each function's instructions under the source lines they came from.

    ``kernel`` keeps the functions of that name, ``line`` the instructions of that line of the
    listed file, ``limit`` cuts each function after that many instructions ("+K more").
    """
    functions = find_functions(listing, kernel) if kernel else listing.functions
    wanted = {id(ins) for _, ins in instructions_at(listing, listing.source, line)} if line is not None else None
    out = [f"== {listing.target} · {os.path.basename(listing.source)} · {listing.toolchain} =="]
    if listing.note:
        out.append(f"   ({listing.note})")
    for function in functions:
        instructions = [i for i in function.instructions if wanted is None or id(i) in wanted]
        if wanted is not None and not instructions:
            continue
        out.append(f"-- {function.demangled}  [{function.kind}]  {resource_line(function.resources)}")
        out.extend(_function_lines(function, instructions, listing, source, limit))
    if len(out) == 1 + bool(listing.note):
        out.append("   (nothing matches)")
    return "\n".join(out)


def _function_lines(
    function: Function, instructions: Sequence[Instruction], listing: Listing, source: SourceLines, limit: int | None
) -> list[str]:
    labels: dict[int, list[str]] = {}
    for name, index in function.labels.items():
        labels.setdefault(index, []).append(name)
    lines: list[str] = []
    current: tuple[str, int] | bool | None = False
    shown = instructions if limit is None else instructions[:limit]
    for ins in shown:
        for name in labels.get(ins.index, []):
            lines.append(f"  {name}:")
        loc = user_location(ins, listing.source)
        if loc is None and ins.file is not None and ins.line is not None:
            key: tuple[str, int] | None = (ins.file, ins.line)
        else:
            key = (loc.file, loc.line) if loc else None
        if key != current:
            current = key
            if key is None:
                lines.append("     | (no source line)")
            else:
                name = "" if key[0] == listing.source else f"{os.path.basename(key[0])}:"
                lines.append(f"{name}{key[1]:>5} | {source(key[0], key[1]).rstrip()}")
        where = f"{ins.address:04x}" if ins.address is not None else f"{ins.index:4d}"
        note = f"  ; {os.path.basename(ins.file)}:{ins.line}" if ins.file and key and ins.file != key[0] else ""
        lines.append(f"        {where}  {ins.text}{note}")
    if limit is not None and len(instructions) > limit:
        lines.append(f"        … +{len(instructions) - limit} more instructions")
    return lines


def _diagnostic_line(diag: CompilerDiagnostic) -> str:
    where = ":".join(str(x) for x in (os.path.basename(diag.file) if diag.file else None, diag.line, diag.column) if x)
    return f"{diag.severity}: {where + ': ' if where else ''}{diag.message}"


def render_results(
    results: Mapping[str, TargetResult],
    source: SourceLines = no_source,
    *,
    kernel: str | None = None,
    line: int | None = None,
    limit: int | None = None,
) -> str:
    """Every target's listing (or why it has none), one after the other."""
    parts = []
    for target, result in results.items():
        if isinstance(result, Listing):
            parts.append(render_listing(result, source, kernel=kernel, line=line, limit=limit))
        else:
            parts.append(f"== {target} ==\n   {_why(result)}")
            if isinstance(result, CompileFailure):
                parts[-1] += "".join(f"\n   {_diagnostic_line(d)}" for d in result.diagnostics[:20])
    return "\n\n".join(parts)
