"""`cass-lsp`: the language server (default verb) and the batch verbs.

Each verb lives in its own module with `add_arguments(parser)` and `run(args) -> int`, imported only
when chosen, so `cass-lsp translate` starts without loading the server.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from cass_lsp import __version__

VERBS: dict[str, tuple[str, str]] = {
    "serve": ("cass_lsp.server.serve", "run the language server (the default verb)"),
    "translate": ("cass_lsp.cli.translate", "translate CUDA files to HIP (or back with --reverse)"),
    "asm": ("cass_lsp.cli.asm", "show SASS / AMDGPU listings of a file, line by line"),
    "verify": ("cass_lsp.cli.verify", "compile (and optionally run and compare) CUDA originals and HIP translations"),
    "models": ("cass_lsp.cli.models", "list, check, add and remove the CASS models (GGUF files)"),
    "doctor": ("cass_lsp.cli.doctor", "report the toolchains, packages and models found, with install hints"),
    "setup": ("cass_lsp.cli.setup", "prepare the user cache (device libraries, HIP headers); no root"),
    "demo": ("cass_lsp.cli.demo", "walk through the shipped CUDA example"),
    "schema": ("cass_lsp.cli.schema", "print the JSON Schema of the settings"),
}


def _chosen_verb(argv: Sequence[str]) -> str | None:
    for arg in argv:
        if arg in VERBS:
            return arg
        if arg in ("-h", "--help", "--version"):
            return None
    return "serve"


def build_parser(verb: str | None) -> tuple[argparse.ArgumentParser, argparse.ArgumentParser | None]:
    parser = argparse.ArgumentParser(prog="cass-lsp", description="CUDA to HIP language server and tools.")
    parser.add_argument("--version", action="version", version=f"cass-lsp {__version__}")
    parser.add_argument("--log-file", help="write logs here instead of stderr")
    parser.add_argument("--log-level", default="warning", choices=["error", "warning", "info", "debug"])
    verbs = parser.add_subparsers(dest="verb", metavar="VERB")
    chosen = None
    for name, (module, summary) in VERBS.items():
        # with a verb chosen only its parser is built: each one costs start-up time
        if verb is not None and name != verb:
            continue
        sub = verbs.add_parser(name, help=summary, description=summary)
        if name == verb:
            importlib.import_module(module).add_arguments(sub)
            chosen = sub
    return parser, chosen


def _configure_logging(level: str, log_file: str | None) -> None:
    import logging  # here, not at the top: batch verbs that log nothing start faster without it

    # stdout is the LSP channel: logs go to stderr or a file, never stdout
    handler: logging.Handler = logging.FileHandler(log_file) if log_file else logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    logging.basicConfig(level=level.upper(), handlers=[handler], force=True)


def main(argv: Sequence[str] | None = None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    verb = _chosen_verb(args_list)
    if verb == "serve" and "serve" not in args_list:
        # `cass-lsp --stdio`: global options may come first, the serve options after them
        args_list = _insert_serve(args_list)
    parser, _ = build_parser(verb)
    args = parser.parse_args(args_list)
    if args.verb == "serve" or args.log_file or args.log_level != "warning":
        _configure_logging(args.log_level, args.log_file)
    if args.verb is None:
        parser.print_help()
        return 2
    module = importlib.import_module(VERBS[args.verb][0])
    code: int = module.run(args)
    return code


def _insert_serve(args: list[str]) -> list[str]:
    global_with_value = {"--log-file", "--log-level"}
    index = 0
    while index < len(args):
        arg = args[index]
        if arg in global_with_value:
            index += 2
        elif arg.split("=", 1)[0] in global_with_value:
            index += 1
        else:
            break
    return [*args[:index], "serve", *args[index:]]


if __name__ == "__main__":
    sys.exit(main())
