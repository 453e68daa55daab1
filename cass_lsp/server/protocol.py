"""pygls's LSP protocol with outgoing messages written by msgspec.

pygls turns every outgoing message into JSON with ``json.dumps(message, default=...)``: a ~250 kB
outline of a 5k-line file takes ~5 ms there, more than the outline itself costs after an edit.
msgspec writes the same JSON values in well under a millisecond. The message is still made JSON
values by pygls's own converter (``_serialize_message``: lsprotocol's camelCase names, ``None``
fields left out), so only the last step changes; tests/lsp/test_encoding.py checks that both paths
decode to the same values on real replies.

What differs in the bytes, not in the values: no spaces after separators, and non-ASCII characters
written as UTF-8 rather than ``\\u`` escapes (Content-Length counts bytes, as LSP says). What msgspec
cannot write (a string with a lone surrogate, which document text may hold) falls back to pygls's
encoding, so no message is lost that pygls would have sent. Parts of a message may already be JSON
(``msgspec.Raw``: the outline's symbols, see symbols.py); msgspec copies them, and the fallback
decodes them first.

pygls has no public hook for the encoding: every outgoing message (response, notification, request)
goes through ``JsonRPCProtocol._send_data``, which this class replaces. Written against pygls 2.1.1
(``pygls~=2.1.1`` in pyproject.toml); the server uses this class only when the pygls methods it
replaces, extends or calls are that release's (server/patches.py checks at start), and stock
pygls's protocol otherwise, so another pygls cannot silently bypass or break it.
"""

from __future__ import annotations

import asyncio
import contextvars
import inspect
import json
import logging
from typing import Any

import attrs
import cattrs
import msgspec
from lsprotocol import types
from pygls.exceptions import JsonRpcException, JsonRpcInternalError, JsonRpcInvalidParams, JsonRpcInvalidRequest
from pygls.protocol import LanguageServerProtocol, lsp_method

log = logging.getLogger(__name__)

_ANSWERED = object()
"""What ``structure_message`` hands pygls for a request it already answered with an error."""


def _request_id(data: Any) -> int | str | None:
    """The id of a JSON-RPC request (a dict with a method and an int or string id), else None."""
    if not isinstance(data, dict) or not isinstance(data.get("method"), str):
        return None
    msg_id = data.get("id")
    return msg_id if isinstance(msg_id, int | str) and not isinstance(msg_id, bool) else None


class CassProtocol(LanguageServerProtocol):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # whatever the converter leaves unencodable goes through pygls's own fallback, as with
        # json.dumps(default=...)
        self._encoder = msgspec.json.Encoder(enc_hook=self._serialize_message)
        self._writes: set[asyncio.Future[Any]] = set()
        # set when `shutdown` arrives, not when its handler (which lets jobs settle) returns: a
        # request sent after it is refused, whenever it is read
        self._shutdown_requested = False

    # pygls keeps a copy of every open document in its Workspace, re-joining the whole text on each
    # didChange (~0.5 ms a keystroke on a 5k-line file). cass-lsp keeps its own CudaDocument per file
    # (server.documents) and reads nothing from that copy, so these builtin handlers only call the
    # server's own. ``workspace.get_text_document`` is therefore not the editor's text here.
    @lsp_method(types.TEXT_DOCUMENT_DID_OPEN)
    def lsp_text_document__did_open(self, params: types.DidOpenTextDocumentParams) -> None:
        self._user_handler(types.TEXT_DOCUMENT_DID_OPEN, params)

    @lsp_method(types.TEXT_DOCUMENT_DID_CHANGE)
    def lsp_text_document__did_change(self, params: types.DidChangeTextDocumentParams) -> None:
        self._user_handler(types.TEXT_DOCUMENT_DID_CHANGE, params)

    @lsp_method(types.TEXT_DOCUMENT_DID_CLOSE)
    def lsp_text_document__did_close(self, params: types.DidCloseTextDocumentParams) -> None:
        self._user_handler(types.TEXT_DOCUMENT_DID_CLOSE, params)

    def _user_handler(self, method: str, params: Any) -> None:
        # Called, not yielded to pygls's generator runner (a uuid, two futures and their callbacks
        # per keystroke): the server's text-sync handlers are synchronous (server/documents.py).
        if (handler := self.fm.features.get(method)) is not None:
            handler(params)

    # ------------------------------------------------------------------ malformed requests
    # pygls structures each message inside ``json.loads``; when a request's params do not fit its
    # type (a position that is a string, a negative line), the exception ends in its reader loop's
    # log and the request is never answered: the editor waits forever. Every request with a usable
    # id gets an answer here instead: InvalidParams, or InvalidRequest when it is not JSON-RPC 2.0
    # or comes after `shutdown` (LSP: "requests after shutdown are answered with InvalidRequest").
    # A notification has no answer: its error names the method and what did not fit, for the log
    # and the one message the server shows (CassServer.report_server_error).
    def structure_message(self, data: dict[str, Any]) -> Any:
        try:
            return super().structure_message(data)
        except JsonRpcException as error:
            msg_id = _request_id(data)
            cause = error.__cause__
            detail = "; ".join(cattrs.transform_error(cause)) if isinstance(cause, cattrs.ClassValidationError) else ""
            if msg_id is None:
                method = data.get("method")
                if not isinstance(method, str):
                    raise
                raise JsonRpcInvalidParams(
                    message=f"ignored a {method} notification that does not fit its type: {detail or cause or error}"
                ) from error
            # pygls says InternalError when structuring fails other than by validation (params
            # missing altogether): either way the client's message does not fit the method
            answer: JsonRpcException = JsonRpcInvalidParams(
                message=f"{JsonRpcInvalidParams.MESSAGE}: {data['method']}: {detail or cause or error}"
            )
            if self._shutdown or self._shutdown_requested:
                answer = JsonRpcInvalidRequest(
                    message=f"Invalid Request: {data['method']}: the server is shutting down"
                )
            self._send_response(msg_id, None, answer.to_response_error())
            return _ANSWERED

    def handle_message(self, message: Any) -> None:
        if message is _ANSWERED:
            return
        msg_id = _request_id(message) if isinstance(message, dict) else None
        method = getattr(message, "method", None)
        if msg_id is None and isinstance(method, str) and hasattr(message, "id"):
            msg_id = message.id
        if msg_id is not None:
            version = message.get("jsonrpc") if isinstance(message, dict) else getattr(message, "jsonrpc", None)
            why = None
            if isinstance(message, dict) or version != self.VERSION:
                why = 'not a JSON-RPC 2.0 request (no "jsonrpc": "2.0")'
            elif (self._shutdown or self._shutdown_requested) and method != types.EXIT:
                why = f"{method}: the server is shutting down"
            if why is not None:
                self._send_response(
                    msg_id, None, JsonRpcInvalidRequest(message=f"Invalid Request: {why}").to_response_error()
                )
                return
            self._shutdown_requested = method == types.SHUTDOWN
        if not attrs.has(type(message)):
            # a body that is JSON but no message (an array, a number, an object without "jsonrpc")
            log.warning("ignoring a message that is not JSON-RPC: %.200r", message)
            return
        is_notification = not hasattr(message, "id")
        if isinstance(method, str) and is_notification and message.jsonrpc == self.VERSION and not self._shutdown:
            # a notification: what pygls's handle_message does with one, without its isinstance
            # checks against typing Protocols (~0.08 ms each; an editor sends a didChange a keystroke)
            contextvars.copy_context().run(self._handle_notification, method, message.params)
            return
        super().handle_message(message)

    # pygls keeps the future of every handler it runs in ``_request_futures`` (so a $/cancelRequest can
    # find it), under a fresh uuid for notifications and generator steps; only a request's reply
    # removes its entry. Every async notification handler (didChangeConfiguration, didSave's
    # followers) and every generator step left one entry behind for good: over a long session, an
    # unbounded dict.
    def _execute_handler(
        self, msg_id: Any, handler: Any, callback: Any, args: Any = None, kwargs: Any = None
    ) -> None:
        super()._execute_handler(msg_id, handler, callback, args, kwargs)
        future = self._request_futures.get(msg_id)
        if future is not None and future.done():  # it ran to its end already, on this thread
            del self._request_futures[msg_id]
        elif future is not None:
            # later, on the loop: a concurrent future runs its callbacks in the thread that completes
            # or cancels it, and pygls's shutdown cancels them while iterating over the dict
            try:
                loop = asyncio.get_running_loop()
            except RuntimeError:  # a step run from a worker thread: pygls keeps the entry, as before
                return
            future.add_done_callback(lambda done: loop.call_soon_threadsafe(self._forget_future, msg_id, done))

    def _forget_future(self, msg_id: Any, future: Any) -> None:
        if self._request_futures.get(msg_id) is future:
            del self._request_futures[msg_id]

    def _serialize_message(self, data: Any) -> Any:
        # JSON kept as msgspec.Raw (symbols.py): msgspec copies it; json.dumps needs its values
        if isinstance(data, msgspec.Raw):
            return msgspec.json.decode(data)
        return super()._serialize_message(data)

    def encode_message(self, data: Any) -> bytes:
        """The JSON body of one outgoing message: the values pygls's ``json.dumps`` would write."""
        # the top level is unstructured first: msgspec would otherwise write an attrs message
        # itself, with Python field names and None fields included
        values = self._serialize_message(data) if attrs.has(type(data)) else data
        try:
            return self._encoder.encode(values)
        except UnicodeEncodeError:  # a lone surrogate: only json.dumps's \u escapes can carry it
            return json.dumps(values, default=self._serialize_message).encode(self.CHARSET)

    def _send_data(self, data: Any) -> None:
        # pygls 2.1's JsonRPCProtocol._send_data, with the body from encode_message
        if not data:
            return
        if self.writer is None:
            log.error("Unable to send data, no available transport!")
            return
        try:
            body = self.encode_message(data)
            if log.isEnabledFor(logging.INFO):  # bodies can be hundreds of kB: decode only to log them
                log.info("Sending data: %s", body.decode(self.CHARSET, "replace"))
            if self._include_headers:
                header = (
                    f"Content-Length: {len(body)}\r\nContent-Type: {self.CONTENT_TYPE}; charset={self.CHARSET}\r\n\r\n"
                ).encode("ascii")
                body = header + body
            written = self.writer.write(body)
            if inspect.isawaitable(written):  # a websocket's send: kept referenced until it is done
                pending = asyncio.ensure_future(written)
                self._writes.add(pending)
                pending.add_done_callback(self._writes.discard)
        except BrokenPipeError:
            log.exception("Error sending data. BrokenPipeError", exc_info=True)
            raise
        except Exception as error:
            log.exception("Error sending data", exc_info=True)
            self._server._report_server_error(error, JsonRpcInternalError)
