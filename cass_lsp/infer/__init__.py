"""Model inference behind one protocol (:mod:`.backend`), free of LSP types.

- :mod:`.llama`: llama-cpp-python on a local GGUF file (the default; offline).
- :mod:`.openai`: an OpenAI-compatible HTTP endpoint (llama-server, vLLM, Ollama) a team shares.
- :mod:`.prompts`: the CASS prompt formats and fenced-answer extraction.
- :mod:`.manifest`: the known CASS models (``gguf/manifest.toml``) as msgspec Structs.
- :mod:`.gguf_file`: GGUF header reading and validation (``cass-lsp models check``).
- :mod:`.registry`: the models the user added (``cass-lsp models add``), in the user's config.

Generations run as jobs of kind ``generate`` (:mod:`cass_lsp.infer.jobs`): one at a time per
model, cancellable through the job's token, streaming text to a callback.
"""
