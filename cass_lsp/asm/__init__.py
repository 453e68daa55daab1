"""Exact assembly listings from real compilers: NVIDIA SASS and AMDGPU (RDNA/CDNA), line by line.

Engine API (pure and synchronous; run it off the event loop)::

    from cass_lsp.asm import compile

    job = compile.prepare(text, path, "gfx1100", rocm="5.2", extra_args=[...], compile_commands=None,
                          translate_options=options)   # tools, flags, content key; no compiling
    result = compile.run(job, timeout=60, cancel=event)  # -> Listing | CompileFailure
    # prepare raises toolchains.ToolchainMissing (.hint) or ValueError (bad target)

Consumers go through the job layer (:func:`cass_lsp.asm.jobs.build_listing`), which adds the
result cache and turns a missing tool into an ``Unavailable`` result.

Queries and views (:mod:`.listing`, :mod:`.view`): ``instructions_at(listing, file, line)``,
``find_functions(listing, name)``, ``view.line_hover(...)``, ``view.kernel_resources(...)``,
``view.render_results(...)``. The CLI verb is :mod:`.cli` (``cass-lsp asm``).
"""
