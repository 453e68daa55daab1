#!/usr/bin/env python3
"""Write the tiny test model: ``python gguf/make_tiny_model.py OUT.gguf [--answer-file F]``.

The generator is :mod:`cass_lsp.infer.tiny_model` (``python -m cass_lsp.infer.tiny_model`` is the
same); this script only makes it runnable by path from a checkout, installed or not.

This folder is run by path, never imported: it has no ``__init__.py`` on purpose, since a package
named ``gguf`` would shadow the PyPI ``gguf`` package the generator imports (as a plain folder it
cannot: Python prefers a regular package to a namespace folder of the same name).
"""

import sys
from pathlib import Path

# sys.path[0] is this folder; the repository root instead makes `cass_lsp` importable uninstalled
sys.path[0] = str(Path(__file__).resolve().parent.parent)

from cass_lsp.infer.tiny_model import main  # noqa: E402

sys.exit(main())
