"""Rule-based CUDA <-> HIP translation (pure, synchronous, no LSP types).

Public API::

    translate(source, profile, options, *, reverse=False, byte_range=None, tree=None,
              check_cancelled=None) -> TranslationResult
    lint(source, profile, *, tree=None) -> list[Finding]
    lookup(name) -> ApiEntry | None

Names resolve lazily (PEP 562): importing a submodule, as the CLI does, must not pull in the whole
package (msgspec alone costs a noticeable share of a cold ``cass-lsp translate``).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from cass_lsp.core.profile import TargetProfile, TranslateOptions
    from cass_lsp.translate.codes import Severity
    from cass_lsp.translate.entries import ApiEntry, lookup
    from cass_lsp.translate.findings import Edit, Finding, TranslationResult
    from cass_lsp.translate.lint import lint
    from cass_lsp.translate.rules import translate

_EXPORTS = {
    "ApiEntry": "entries",
    "lookup": "entries",
    "Edit": "findings",
    "Finding": "findings",
    "TranslationResult": "findings",
    "Severity": "codes",
    "lint": "lint",
    "TargetProfile": "cass_lsp.core.profile",
    "TranslateOptions": "cass_lsp.core.profile",
    "translate": "rules",
}

__all__ = ["ApiEntry", "Edit", "Finding", "Severity", "TargetProfile", "TranslateOptions", "TranslationResult",
           "lint", "lookup", "translate"]


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(module if "." in module else f"{__name__}.{module}"), name)
    globals()[name] = value
    return value
