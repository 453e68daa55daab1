"""Whether the installed pygls still has the internals the server's changes to it were written for.

``CassProtocol`` (protocol.py) and ``CassServer._start_io_async`` (app.py) replace or extend pygls
methods that are not its public API: the message encoding, the handler runner, notification
dispatch, the text-sync handlers, the stdio loop. pyproject.toml pins the pygls minor they were
tested with, but an install can still bring another release. At start the source of every such
method, and of those they call, is hashed and compared with pygls 2.1.1's; when one differs (or
its source cannot be read) the server runs stock pygls (its protocol, reader and JSON encoding:
slower, without the answers to malformed requests) and logs one line saying so.
"""

from __future__ import annotations

import functools
import hashlib
import importlib
import inspect
import logging
from importlib.metadata import PackageNotFoundError, version

log = logging.getLogger(__name__)

TESTED = "2.1.1"
EXPECTED: dict[str, str] = {
    # replaced (protocol.py, app.py)
    "pygls.protocol.json_rpc:JsonRPCProtocol._send_data": "40e0a5bb70951777ded5be692256b90a8aed4a3a4438d4e25e5080f05ebc127e",
    "pygls.protocol.language_server:LanguageServerProtocol.lsp_text_document__did_open": "6771d1483cdf0338972ce4a8b221bff95a3363e6450b0fc1e3122c85596be49c",
    "pygls.protocol.language_server:LanguageServerProtocol.lsp_text_document__did_change": "81a0591b8fdf97937224dff2a85dca09cab96799bac3b8da4e7e81c8be8c9425",
    "pygls.protocol.language_server:LanguageServerProtocol.lsp_text_document__did_close": "1308de1125767d7876e6f63ddddfd9920ca6b3788bb195e38010fd2563d4aa89",
    "pygls.server:JsonRPCServer._start_io_async": "22f42491d202610a7e2bd08eb224e44f915eb29e8b0d0b713028ec0465478e1a",
    # extended through super(), or reimplemented in part (notification dispatch)
    "pygls.protocol.json_rpc:JsonRPCProtocol._serialize_message": "075c32e9ae36b6e8ce0a27d7d21666dc537e1ee2bc967145afa6a139401bbef5",
    "pygls.protocol.json_rpc:JsonRPCProtocol._execute_handler": "d08c9ac9995fc5714882d1b7afce760dce47ac58b78c960ed43a764212e761bd",
    "pygls.protocol.json_rpc:JsonRPCProtocol.structure_message": "ac66b961a32acb074d9eecf663252d557c4b74afb90bda741565d622f26b1c07",
    "pygls.protocol.json_rpc:JsonRPCProtocol.handle_message": "d46f22474082c0cf5d2ba69123c65711397aed14cd9cd0a505561a8ae7658834",
    # what the replacements call, or what must still call them
    "pygls.protocol.json_rpc:JsonRPCProtocol._handle_notification": "d116395477c57456949cc7d83e29791cbca73bdaa7e9db4b5d0dac4e37b2e7e2",
    "pygls.protocol.json_rpc:JsonRPCProtocol._send_response": "b799bb966ca7ebb1bd21b430cddf1d5335dfee340388c45eb7036b918b9fddbb",
    "pygls.protocol.json_rpc:JsonRPCProtocol.notify": "039d9533e9600faef2674b114f23c1148efed44b3af906a11295203b6c1a2db0",
    "pygls.protocol.json_rpc:JsonRPCProtocol.send_request": "0e4491683e0fa47990e4fd19f918e7a4e2b93d76b14d2ec8bb9144827da60201",
    "pygls.server:JsonRPCServer.start_io": "ebeccd50e33f753720c4dcfced08256e7ba8fc792d548839d599eae068ba0302",
    "pygls.io_:run_async": "f488270939ce916bdf05b64e1170d06ca8ba1a6543607a9e9252b286ca2c95de",
}  # fmt: skip


def source_hash(name: str) -> str | None:
    """SHA-256 of the source of ``module:Class.method``; None when it is gone or has no source."""
    module, _, path = name.partition(":")
    try:
        found: object = importlib.import_module(module)
        for part in path.split("."):
            found = getattr(found, part)
        return hashlib.sha256(inspect.getsource(found).encode()).hexdigest()  # type: ignore[arg-type]
    except (ImportError, AttributeError, OSError, TypeError):
        return None


def changed() -> list[str]:
    """The methods whose source is not the tested pygls's."""
    return [name for name, expected in EXPECTED.items() if source_hash(name) != expected]


@functools.cache
def verified() -> bool:
    """Whether the server may use its changes to pygls; logs one line, once, when it may not."""
    different = changed()
    if different:
        try:
            installed = version("pygls")
        except PackageNotFoundError:
            installed = "(unknown version)"
        names = ", ".join(name.rpartition(".")[2] for name in different)
        log.warning(
            "pygls %s is not the pygls %s cass-lsp was tested with (%s differ): running stock pygls,"
            " without cass-lsp's faster message encoding and stdin reader",
            installed,
            TESTED,
            names,
        )
    return not different
