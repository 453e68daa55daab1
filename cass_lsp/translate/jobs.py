"""The ``translate`` job kind: its key and the rule translation both the server and the CLI run."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cass_lsp.core.jobs import JobKind, key, text_digest

if TYPE_CHECKING:
    from collections.abc import Sequence

    import tree_sitter

    from cass_lsp.core.cancel import CancelToken
    from cass_lsp.services.settings import ResolvedSettings
    from cass_lsp.translate import TranslationResult
    from cass_lsp.translate.rules import Outcome, Settings

# What a rule translation (and its findings) depends on.
TRANSLATION_FIELDS = ("arch", "rocm", "launch_style", "rewrite_opaque", "libraries", "cuda")
# Rule translation is pure Python holding the GIL: more workers than cores only slow each other.
TRANSLATE = JobKind("translate", concurrency=2, reads=TRANSLATION_FIELDS, memoize=True)


class Untranslatable(Exception):
    """The engine cannot take this text; the message is for the user, ``line`` (0-based) says where."""

    def __init__(self, message: str, line: int = 0) -> None:
        super().__init__(message)
        self.line = line



def translation_key(
    resolved: ResolvedSettings, text: str, *, reverse: bool, byte_range: tuple[int, int] | None
) -> str:
    from cass_lsp.translate.fingerprint import fingerprint

    return key(
        TRANSLATE.name,
        text_digest(text),
        reverse,
        byte_range,
        resolved.digest(TRANSLATE.reads),
        fingerprint(),
    )


def translate_bytes(
    settings: Settings,
    data: bytes,
    *,
    byte_range: tuple[int, int] | None = None,
    tree: tree_sitter.Tree | None = None,
    token: CancelToken | None = None,
    headers: Sequence[bytes] = (),
) -> Outcome:
    """Where the server and the CLI enter the rule engine: raw edits and findings in byte offsets of
    ``data`` (inside the engine, the model path's post-pass calls ``rules.run`` itself); ``headers``:
    the texts of the project headers whose macros the pre-pass reads."""
    from cass_lsp.translate import rules

    check = token.check if token is not None else None
    return rules.run(data, settings, byte_range=byte_range, tree=tree, check_cancelled=check, headers=headers)


def translate_text(
    resolved: ResolvedSettings,
    text: str,
    *,
    reverse: bool = False,
    byte_range: tuple[int, int] | None = None,
    tree: tree_sitter.Tree | None = None,
    token: CancelToken | None = None,
) -> TranslationResult:
    """The rule translation of ``text`` (bytes a file held, decoded with surrogateescape), as Structs."""
    from cass_lsp.translate import rules

    data = text.encode("utf-8", "surrogateescape")
    outcome = translate_bytes(resolved.engine(reverse), data, byte_range=byte_range, tree=tree, token=token)
    return rules.result_of(data, outcome)


def check_editor_text(text: str) -> None:
    """Raise :class:`Untranslatable` for editor text the engine's byte offsets would get wrong.

    The engine encodes with surrogateescape and documents with surrogatepass; they agree (and so
    do their byte offsets) exactly when the text has no lone surrogates."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as error:
        line = text.count("\n", 0, error.start)
        raise Untranslatable(f"line {line + 1} holds an unpaired UTF-16 surrogate; fix it to translate", line) from error

