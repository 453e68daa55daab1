"""`cass-lsp serve`: the language server over stdio (default), or over TCP or a Unix socket for a
client that sends the server's secret (server/transport.py)."""

from __future__ import annotations

import argparse
import os
import signal
import sys
from pathlib import Path
from types import FrameType

from cass_lsp.server import transport


def add_arguments(parser: argparse.ArgumentParser) -> None:
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--stdio", action="store_true", help="talk LSP over stdin/stdout (default)")
    mode.add_argument(
        "--tcp", action="store_true", help="listen on a TCP socket; clients must send the token the server writes"
    )
    mode.add_argument(
        "--socket",
        nargs="?",
        const="",
        metavar="PATH",
        help="listen on a Unix socket (0600; default: cass-lsp.sock in the user's runtime folder); "
        "clients must send the token the server writes",
    )
    parser.add_argument("--host", default="127.0.0.1", help="TCP address (loopback by default)")
    parser.add_argument("--port", type=int, default=2087, help="TCP port (0: any free port, printed)")
    parser.add_argument(
        "--allow-remote",
        action="store_true",
        help="allow a --host that is not loopback (the token is then the only protection, sent in clear text)",
    )


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
    from cass_lsp.server import create_server

    listener = None
    if args.tcp or args.socket is not None:
        try:
            listener = _socket_server(args)
        except transport.TransportError as error:
            print(f"cass-lsp: {error}", file=sys.stderr)
            return 2

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
        if listener is not None:
            listener.remove_files()
        server.jobs.shutdown()
        server.jobs.join(SIGTERM_GRACE_S)
        os._exit(128 + signum)

    signal.signal(signal.SIGTERM, on_sigterm)
    if listener is None:
        server.start_io()
        return 0
    try:
        listener.serve(server, lambda line: print(line, file=sys.stderr, flush=True))
    except transport.TransportError as error:
        print(f"cass-lsp: {error}", file=sys.stderr)
        return 2
    return 0


def _socket_server(args: argparse.Namespace) -> transport.SocketServer:
    """The socket to serve on, checked before the server is built: a non-loopback --host needs
    --allow-remote (and is warned about)."""
    if args.socket is not None:
        path = Path(args.socket) if args.socket else transport.runtime_dir() / "cass-lsp.sock"
        return transport.SocketServer(unix=path.absolute())
    if not transport.is_loopback(args.host):
        if not args.allow_remote:
            raise transport.TransportError(
                f"--host {args.host} is not a loopback address: anyone who can reach it could drive the "
                "server, with only the token between them and your account; pass --allow-remote to do it anyway"
            )
        print(
            f"cass-lsp: warning: listening on {args.host}, which is not loopback: the token travels in clear "
            "text; use it only on a network you trust (an SSH tunnel to 127.0.0.1 is safer)",
            file=sys.stderr,
        )
    return transport.SocketServer(tcp=(args.host, args.port))
