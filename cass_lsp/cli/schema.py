"""`cass-lsp schema`: the settings' JSON Schema (the VS Code extension generates its configuration from it)."""

from __future__ import annotations

import argparse
import json


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--indent", type=int, default=2)


def run(args: argparse.Namespace) -> int:
    from cass_lsp.core.settings import json_schema

    print(json.dumps(json_schema(), indent=args.indent, sort_keys=True))
    return 0
