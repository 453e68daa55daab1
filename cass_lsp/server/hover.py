"""Hover, composed from sections that several providers contribute.

A provider is an async function `(server, document, byte offset) -> HoverSection | None`; register
one on the `HoverProviders` that `register(server)` returns. On each hover every provider runs concurrently, and the
sections that come back are joined in registration order with a rule between them. A provider that
needs slow work (a compile for the assembly hover) bounds its own wait; one that raises is logged and
left out, so it never takes the other sections down. The hover's range is the first section's span.

This module registers the API provider: a CUDA (or HIP) name in code → its HIP, ROC library or
MIOpen equivalent, support status and versions, judged against the target profile.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, NamedTuple

from lsprotocol import types

from cass_lsp.server.app import CassServer
from cass_lsp.server.convert import offset, span_range
from cass_lsp.syntax import parsing as syntax
from cass_lsp.syntax.document import CudaDocument, Span

if TYPE_CHECKING:
    from cass_lsp.translate import ApiEntry, TargetProfile

log = logging.getLogger(__name__)


class HoverSection(NamedTuple):
    markdown: str
    span: Span | None = None  # the text the section is about


HoverProvider = Callable[[CassServer, CudaDocument, int], Awaitable[HoverSection | None]]

SEPARATOR = "\n\n---\n\n"


class HoverProviders(list[HoverProvider]):
    """The hover's providers, in the order their sections appear."""


async def _section(provider: HoverProvider, ls: CassServer, doc: CudaDocument, at: int) -> HoverSection | None:
    try:
        return await provider(ls, doc, at)
    except Exception:
        log.exception("hover provider %s failed", getattr(provider, "__qualname__", provider))
        return None


def _markup_kind(ls: CassServer) -> types.MarkupKind:
    text_document = ls.client_capabilities.text_document
    hover = text_document.hover if text_document else None
    formats = hover.content_format if hover else None
    if formats and types.MarkupKind.Markdown not in formats:
        return types.MarkupKind.PlainText
    return types.MarkupKind.Markdown


async def compose(ls: CassServer, providers: HoverProviders, doc: CudaDocument, at: int) -> types.Hover | None:
    version = doc.version
    found = await asyncio.gather(*(_section(p, ls, doc, at) for p in providers))
    sections = [s for s in found if s is not None]
    if not sections or ls.document(doc.uri) is not doc or doc.version != version:
        return None  # nothing to say, or the text moved on while a provider waited
    span = next((s.span for s in sections if s.span is not None), None)
    return types.Hover(
        contents=types.MarkupContent(kind=_markup_kind(ls), value=SEPARATOR.join(s.markdown for s in sections)),
        range=span_range(doc, span) if span is not None else None,
    )


# ---------------------------------------------------------------------- the API section

_FAMILY = {
    "runtime": "CUDA runtime API",
    "driver": "CUDA driver API",
    "device": "CUDA device function",
    "rtc": "NVRTC",
    "complex": "cuComplex",
    "blas": "cuBLAS",
    "rand": "cuRAND",
    "fft": "cuFFT",
    "sparse": "cuSPARSE",
    "solver": "cuSOLVER",
    "dnn": "cuDNN",
    "cub": "CUB",
}


def _in_code(doc: CudaDocument, span: Span) -> bool:
    """A name in code or in a #define body, not in a comment or a string."""
    if doc.tree is None:
        return False
    caps = syntax.captures("server_hover", doc.tree.root_node, (span.start, span.end))
    if any(n.start_byte == span.start and n.end_byte == span.end for n in caps.get("hover.name", [])):
        return True
    return any(n.start_byte <= span.start and span.end <= n.end_byte for n in caps.get("hover.macro_body", []))


def _lifecycle(added: str, deprecated: str, changed: str, removed: str, experimental: str = "") -> str:
    parts = [
        f"{label} {version}"
        for label, version in (
            ("since", added),
            ("changed in", changed),
            ("deprecated in", deprecated),
            ("removed in", removed),
            ("experimental in", experimental),
        )
        if version
    ]
    return ", ".join(parts)


def _hip_status(entry: ApiEntry, profile: TargetProfile) -> str:
    from cass_lsp.translate.tables import version_tuple

    rocm = profile.rocm_version()
    target = f"ROCm {rocm[0]}.{rocm[1]}, {profile.arch}"
    if not entry.hip:
        return "**not supported**: HIP has no equivalent"
    if not entry.hip_added:
        return f"**not supported**: named by HIPIFY but not implemented in HIP ({target})"
    if entry.hip_removed and version_tuple(entry.hip_removed) <= rocm:
        return f"**removed** in HIP {entry.hip_removed} (target {target})"
    if version_tuple(entry.hip_added) > rocm:
        return f"**not available** on the target ({target})"
    if entry.hip_deprecated and version_tuple(entry.hip_deprecated) <= rocm:
        return f"supported but **deprecated** (target {target})"
    return f"supported on the target ({target})"


def render(entry: ApiEntry, name: str, profile: TargetProfile) -> str:
    """Markdown facts for `name`, a CUDA name or the HIP name of `entry`."""
    from cass_lsp.translate.libraries import LIBRARY

    family = _FAMILY.get(entry.family, entry.family)
    if name == entry.cuda:
        arrow = "same name in HIP" if entry.hip == entry.cuda else f"→ HIP **`{entry.hip}`**" if entry.hip else ""
        title = f"**`{entry.cuda}`** {arrow}".rstrip()
    else:
        title = f"**`{name}`** ← CUDA **`{entry.cuda}`**"
    lines = [title, "", f"{family} · {entry.section}", ""]
    hip_versions = _lifecycle(
        entry.hip_added, entry.hip_deprecated, entry.hip_changed, entry.hip_removed, entry.hip_experimental
    )
    hip_name = f" `{entry.hip}`" if entry.hip else ""
    lines.append(f"- **HIP**{hip_name}: {_hip_status(entry, profile)}" + (f"; {hip_versions}" if hip_versions else ""))
    if entry.alt:
        library = LIBRARY.get(entry.family, "ROC library")
        alt_versions = _lifecycle(
            entry.alt_added, entry.alt_deprecated, entry.alt_changed, entry.alt_removed, entry.alt_experimental
        )
        lines.append(f"- **{library}** `{entry.alt}`" + (f": {alt_versions}" if alt_versions else ""))
    cuda_versions = _lifecycle(entry.cuda_added, entry.cuda_deprecated, entry.cuda_changed, entry.cuda_removed)
    if cuda_versions:
        lines.append(f"- **CUDA**: {cuda_versions}")
    if entry.note:
        lines += ["", entry.note]
    return "\n".join(lines)


async def api_section(ls: CassServer, doc: CudaDocument, at: int) -> HoverSection | None:
    from cass_lsp.translate import lookup

    word = doc.word_at(at)
    if word is None:
        return None
    name, span = word
    entry = lookup(name)
    if entry is None or not _in_code(doc, span):
        return None
    return HoverSection(render(entry, name, ls.resolved.profile), span)


def register(server: CassServer) -> HoverProviders:
    providers = HoverProviders([api_section])

    @server.feature(types.TEXT_DOCUMENT_HOVER)
    async def hover(ls: CassServer, params: types.HoverParams) -> types.Hover | None:
        doc = ls.document(params.text_document.uri)
        if doc is None or doc.too_large:
            return None
        return await compose(ls, providers, doc, offset(doc, params.position))

    return providers
