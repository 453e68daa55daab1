"""Layer 4: one use case per flow; the only place the CLI and the server both call."""
