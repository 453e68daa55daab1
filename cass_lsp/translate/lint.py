"""Portability findings for a CUDA source without translating it (for diagnostics)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import tree_sitter

from cass_lsp.translate import rules

if TYPE_CHECKING:
    from cass_lsp.core.profile import TargetProfile
    from cass_lsp.translate.findings import Finding


def lint(source: str, profile: TargetProfile | None = None, *,
         tree: tree_sitter.Tree | None = None) -> list[Finding]:
    """Findings about a CUDA source for the target: unsupported APIs, warp-size assumptions, ..."""
    from cass_lsp.translate.findings import public_finding

    data = source.encode("utf-8", "surrogateescape")
    out = rules.run(data, rules.settings_of(profile, None, False), tree=tree)
    return [public_finding(f) for f in out.findings]
