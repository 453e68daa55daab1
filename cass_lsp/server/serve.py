"""`cass-lsp serve`: the language server over stdio (default) or loopback TCP."""

from __future__ import annotations

import argparse
import os
import signal
from types import FrameType


def add_arguments(parser: argparse.ArgumentParser) -> None:
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--stdio", action="store_true", help="talk LSP over stdin/stdout (default)")
    mode.add_argument("--tcp", action="store_true", help="listen on a TCP socket instead")
    parser.add_argument("--host", default="127.0.0.1", help="TCP address (loopback by default)")
    parser.add_argument("--port", type=int, default=2087, help="TCP port")


SIGTERM_GRACE_S = 5.0
"""How long SIGTERM waits for jobs to kill their processes (proc.py gives each group 0.5 s)."""


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

    # SIGTERM (an editor stopping its server, a session logging out) must end running compiles
    # too: they run in process groups of their own, which Python's default death by signal would
    # leave behind. Unwinding the loop instead is no option: it waits for the thread blocked on
    # stdin. So: cancel every job (each job's thread kills its group), wait for those threads a
    # bounded time, and exit at once.
    def on_sigterm(signum: int, frame: FrameType | None) -> None:
        server.jobs.shutdown()
        server.jobs.join(SIGTERM_GRACE_S)
        os._exit(128 + signum)

    signal.signal(signal.SIGTERM, on_sigterm)
    if args.tcp:
        server.start_tcp(args.host, args.port)
    else:
        server.start_io()
    return 0
