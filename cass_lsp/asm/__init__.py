"""Exact assembly listings from real compilers: NVIDIA SASS and AMDGPU (RDNA/CDNA), line by line.

Engine API (pure and synchronous; run it off the event loop)::

    from cass_lsp.asm.compile import build_listing, cached_listing
    from cass_lsp.asm.cache import ListingCache

    cache = ListingCache()                               # XDG cache dir, bounded, survives restarts
    result = build_listing(text, path, "gfx1100", rocm="auto", extra_args=[...],
                           compile_commands=None, timeout=60, cache=cache, cancel=event)
    # -> Listing | CompileFailure; raises toolchains.ToolchainMissing (.hint) or ValueError (bad target)
    warm = cached_listing(text, path, "sm_90", cache=cache)   # -> Listing | CompileFailure | None, never compiles

Queries and views (:mod:`.listing`, :mod:`.view`): ``instructions_at(listing, file, line)``,
``find_functions(listing, name)``, ``view.line_hover(...)``, ``view.kernel_resources(...)``,
``view.render_results(...)``. The CLI verb is :mod:`.cli` (``cass-lsp asm``).
"""
