"""Layer 1: the tree-sitter CUDA language (parsing), node names, the macro-aware pre-pass and the document buffer."""
