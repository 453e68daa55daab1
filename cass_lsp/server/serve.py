"""`cass-lsp serve`: the language server over stdio (default) or loopback TCP."""

from __future__ import annotations

import argparse


def add_arguments(parser: argparse.ArgumentParser) -> None:
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--stdio", action="store_true", help="talk LSP over stdin/stdout (default)")
    mode.add_argument("--tcp", action="store_true", help="listen on a TCP socket instead")
    parser.add_argument("--host", default="127.0.0.1", help="TCP address (loopback by default)")
    parser.add_argument("--port", type=int, default=2087, help="TCP port")


def _freeze_long_lived() -> None:
    """Load the API tables now and move everything alive into the garbage collector's permanent
    generation: full collections then skip the tables and modules (tens of milliseconds each, which
    otherwise land inside random requests)."""
    import gc

    from cass_lsp.translate import rules

    rules.warm_up(False)
    rules.warm_up(True)
    gc.collect()
    gc.freeze()


def run(args: argparse.Namespace) -> int:
    import sys

    from cass_lsp.server import create_server

    # Engine threads (translations) hold the GIL in long pure-Python stretches; a shorter switch
    # interval lets the event loop answer hover and code actions in between.
    sys.setswitchinterval(0.001)
    _freeze_long_lived()

    server = create_server()
    if args.tcp:
        server.start_tcp(args.host, args.port)
    else:
        server.start_io()
    return 0
