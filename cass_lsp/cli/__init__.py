"""Layer 5 (adapter): ``cass-lsp`` and its verbs: parse arguments, call a service, print."""
