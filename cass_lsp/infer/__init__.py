"""Model inference behind one protocol (:mod:`.backend`), free of LSP types.

- :mod:`.process`: a local GGUF file (the default; offline), through :mod:`.llama` (llama-cpp-python)
  in a worker process per model (:mod:`.worker`), so native crashes never reach the server;
  :mod:`.runtime` loads llama.cpp's CPU backend, :mod:`.cpu` decides its extra buffer types.
- :mod:`.openai`: an OpenAI-compatible HTTP endpoint (llama-server, vLLM, Ollama) a team shares.
- :mod:`.prompts`: the CASS prompt formats and fenced-answer extraction.
- :mod:`.manifest`: the known CASS models (``gguf/manifest.toml``) as msgspec Structs.
- :mod:`.gguf_file`: GGUF header reading and validation (``cass-lsp models check``).
- :mod:`.registry`: the models the user added (``cass-lsp models add``), in the user's config.

Generations run as jobs of kind ``generate`` (:mod:`cass_lsp.infer.jobs`): one at a time per
model, cancellable through the job's token, streaming text to a callback.
"""
