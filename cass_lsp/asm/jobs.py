"""The ``asm`` job kind: listings per target, their key, and the work both the server and the CLI run."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cass_lsp.core.jobs import BACKGROUND_NICE, JobKind, key, text_digest
from cass_lsp.translate.jobs import TRANSLATION_FIELDS

if TYPE_CHECKING:
    from cass_lsp.asm.listing import TargetResult
    from cass_lsp.core.cache import ResultCache
    from cass_lsp.core.cancel import CancelToken
    from cass_lsp.services.settings import ResolvedSettings

# What a listing depends on: an AMD listing of a CUDA file compiles its rule translation.
LISTING_FIELDS = (*TRANSLATION_FIELDS, "nvcc_args", "clang_args", "compile_commands", "compile_timeout_s")
# Compiles wait on subprocesses; two keep both vendors' listings moving on 2 cores.
LISTING = JobKind("asm", concurrency=2, reads=LISTING_FIELDS)


def listing_key(resolved: ResolvedSettings, text: str, path: str, target: str) -> str:
    return key(LISTING.name, text_digest(text), path, target, resolved.digest(LISTING.reads))


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
    from cass_lsp.compile.scratch import UnsafeName
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
