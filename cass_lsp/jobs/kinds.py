"""The job kinds, their keys, and the synchronous work each one does.

Both consumers run exactly this code: the server through the :class:`~.scheduler.Scheduler` (off
the event loop, shared, superseded), the CLI verbs by calling the work functions directly.

Kinds and what their keys hold (besides the kind's name):

- ``translate`` (memoized): the text, direction, byte range, the translation fields of
  ResolvedSettings and the engine's fingerprint. Lint diagnostics are the findings of the whole-file
  translation, so the diagnostics pass and "Translate file" share one run.
- ``asm``: per target; the scheduler key is the text, path, target and listing fields (sharing and
  supersede); the work then builds the full content key (local headers' contents, compile_commands
  flags, toolchain versions: :func:`cass_lsp.asm.compile.prepare`) and looks in the result cache.
- ``generate``: model generations, keyed by the model's settings and everything the prompt is made
  of (:func:`generation_key`).
- ``verify-compile`` / ``verify-run``: the stages of a verification (:mod:`cass_lsp.verify.engine`),
  keyed by the texts and headers they compile, flags, toolchain versions and runner settings.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    import tree_sitter

    from cass_lsp.asm.listing import TargetResult
    from cass_lsp.config import ModelSettings
    from cass_lsp.jobs.cache import ResultCache
    from cass_lsp.jobs.cancel import CancelToken
    from cass_lsp.jobs.resolved import ResolvedSettings
    from cass_lsp.translate import TranslationResult
    from cass_lsp.translate.rules import Outcome, Settings

# What a rule translation (and its findings) depends on.
TRANSLATION_FIELDS = ("arch", "rocm", "launch_style", "rewrite_opaque", "libraries", "cuda")
# What a listing depends on: an AMD listing of a CUDA file compiles its rule translation.
LISTING_FIELDS = (*TRANSLATION_FIELDS, "nvcc_args", "clang_args", "compile_commands", "compile_timeout_s")
# What a verification reads: the pair's rule translation and compiles, and its own settings.
VERIFICATION_FIELDS = (*LISTING_FIELDS, "wave_size", "verification")


class JobKind(NamedTuple):
    """A kind of job: its name (also its cache namespace), how many may run at once, which
    ResolvedSettings fields its results depend on, and whether results are kept by key."""

    name: str
    concurrency: int
    reads: tuple[str, ...]
    memoize: bool = False


# Rule translation is pure Python holding the GIL: more workers than cores only slow each other.
TRANSLATE = JobKind("translate", concurrency=2, reads=TRANSLATION_FIELDS, memoize=True)
# Compiles wait on subprocesses; two keep both vendors' listings moving on 2 cores.
LISTING = JobKind("asm", concurrency=2, reads=LISTING_FIELDS)
# One generation at a time (one worker for every model).
GENERATE = JobKind("generate", concurrency=1, reads=())
# Verification compiles (one nvcc, one clang per target) beside the listings; one run at a time, so
# two programs never compete for the cores (or the GPU) they are compared on. Their keys are made in
# cass_lsp.verify (stages and run), over every input and setting a stage reads.
VERIFY_COMPILE = JobKind("verify-compile", concurrency=2, reads=())
VERIFY_RUN = JobKind("verify-run", concurrency=1, reads=())
KINDS = (TRANSLATE, LISTING, GENERATE, VERIFY_COMPILE, VERIFY_RUN)
# How much lower background compiles run than the server (nice levels).
BACKGROUND_NICE = 10


class Untranslatable(Exception):
    """The engine cannot take this text; the message is for the user, ``line`` (0-based) says where."""

    def __init__(self, message: str, line: int = 0) -> None:
        super().__init__(message)
        self.line = line


# hashlib and json load on first use: the `translate` verb's cold start never needs them
def _key(*parts: object) -> str:
    import hashlib
    import json

    return hashlib.sha256(json.dumps(parts).encode()).hexdigest()


@functools.lru_cache(maxsize=32)
def text_digest(text: str) -> str:
    """Cached: hover and code actions ask for the same document text's key on every request (a
    str's own hash is kept on the object, so a repeated text is found without rehashing it)."""
    import hashlib

    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def generation_key(model: ModelSettings, *inputs: object) -> str:
    """The key of a `generate` job: the model's settings and everything the prompt is made of."""
    import msgspec

    return _key(GENERATE.name, msgspec.to_builtins(model), *inputs)


# ---------------------------------------------------------------------- translate


def translation_key(
    resolved: ResolvedSettings, text: str, *, reverse: bool, byte_range: tuple[int, int] | None
) -> str:
    from cass_lsp.translate.fingerprint import fingerprint

    return _key(
        TRANSLATE.name,
        text_digest(text),
        reverse,
        byte_range,
        resolved.digest(TRANSLATE.reads),
        fingerprint(),
    )


def engine_settings(arch: str, rocm: str, launch_style: str, rewrite_opaque: bool, reverse: bool,
                    libraries: str = "hip", cuda: str = "auto") -> Settings:
    """The engine's settings, built in this one place (ValueError for a bad arch, ROCm or CUDA)."""
    from cass_lsp.translate import rules, targets

    return rules.Settings(targets.resolve(arch, rocm, cuda), launch_style, rewrite_opaque, reverse, libraries)


def translate_bytes(
    settings: Settings,
    data: bytes,
    *,
    byte_range: tuple[int, int] | None = None,
    tree: tree_sitter.Tree | None = None,
    token: CancelToken | None = None,
) -> Outcome:
    """Where the server and the CLI enter the rule engine: raw edits and findings in byte offsets of
    ``data`` (inside the engine, the model path's post-pass calls ``rules.run`` itself)."""
    from cass_lsp.translate import rules

    check = token.check if token is not None else None
    return rules.run(data, settings, byte_range=byte_range, tree=tree, check_cancelled=check)


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


# ---------------------------------------------------------------------- listings


def listing_key(resolved: ResolvedSettings, text: str, path: str, target: str) -> str:
    return _key(LISTING.name, text_digest(text), path, target, resolved.digest(LISTING.reads))


def register_listings(cache: ResultCache) -> None:
    from cass_lsp.asm.listing import CompileFailure, Listing

    cache.register(LISTING.name, Listing | CompileFailure)


def build_listing(
    resolved: ResolvedSettings,
    text: str,
    path: str,
    target: str,
    *,
    cache: ResultCache | None = None,
    token: CancelToken | None = None,
    use_cache: bool = True,
    background: bool = False,
) -> TargetResult:
    """The listing of ``text`` (the buffer of ``path``) for ``target``, from the cache when there.

    A missing tool or an unusable target becomes an ``Unavailable`` result with the reason.
    ``background`` compiles at a lower CPU priority, so the process that asked stays responsive."""
    from cass_lsp.asm import compile as asm_compile
    from cass_lsp.asm.listing import CompileFailure, Unavailable
    from cass_lsp.asm.scratch import UnsafeName
    from cass_lsp.toolchains import ToolchainMissing

    try:
        vendor = asm_compile.vendor_of(target)
        job = asm_compile.prepare(
            text,
            path,
            target,
            extra_args=resolved.extra_args(vendor),
            compile_commands=resolved.compile_commands,
            rocm=resolved.rocm,
            translate_options=resolved.options,
        )
    except ToolchainMissing as missing:
        return Unavailable(target=target, message=f"{missing.what} not found", hint=missing.hint)
    except ValueError as error:
        return Unavailable(target=target, message=str(error))
    if cache is not None:
        register_listings(cache)
        if use_cache:
            hit = cache.get(LISTING.name, job.key)
            if hit is not None:
                result: TargetResult = hit
                return result
    try:
        result = asm_compile.run(
            job,
            timeout=resolved.compile_timeout_s,
            cancel=token.event if token else None,
            nice=BACKGROUND_NICE if background else 0,
            limits=resolved.compiler_limits,
        )
    except UnsafeName as error:
        # nothing ran: the temp dir's name is this machine's, not the file's (not cached)
        return Unavailable(target=target, message=f"not compiled: {error}")
    except (OSError, ValueError) as error:
        # a compiler that exits 0 without writing its listing, or writes one that cannot be read:
        # a failure of the tool, said as such (not a job that failed, which the editor would
        # show as "compiling…" for ever); not cached, the tool may be fixed
        return CompileFailure(
            target=target,
            source=path,
            diagnostics=[],
            output="",
            note=f"the compiler ran but its listing could not be read: {error}",
        )
    # a timeout or a bound says more about this machine and the settings than about the code
    kept = not (isinstance(result, CompileFailure) and (result.timed_out or result.cancelled or result.bounded))
    if cache is not None and kept:
        cache.put(LISTING.name, job.key, result)
    return result
