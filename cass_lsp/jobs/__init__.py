"""The job layer: the one scheduler and cache under the server and the CLI, free of LSP types.

- :mod:`.resolved`: ``ResolvedSettings``, computed once per settings change (ROCm "auto" resolved
  in one place); every job reads it, never the raw settings.
- :mod:`.kinds`: the job kinds (translate, asm listings; generate and verify slots for the model and
  verification), their keys, and the synchronous work both consumers run.
- :mod:`.scheduler`: shared runs by key, supersede/cancel by slot, bounded concurrency per kind.
- :mod:`.cache`: memory LRU over an on-disk msgpack store, bounded in bytes, corruption-tolerant.
- :mod:`.cancel`, :mod:`.progress`: cancellation tokens and the progress interface ($/progress in
  the server, a stderr bar in the CLI).
"""
