"""Messages the fuzzer found that the server failed on, kept as fixed cases: each must now get a
clear answer (a result, InvalidParams, InvalidRequest or RequestFailed), never silence and never an
internal error."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.fuzz.wire import INTERNAL_ERROR, INVALID_PARAMS, INVALID_REQUEST, WireServer, frame

REQUEST_FAILED = -32803
SETTINGS = {
    "asm": {"compileOnOpen": False, "targets": []},
    "verification": {"watch": False},
    "model": {"name": "/nonexistent/model.gguf"},  # configured, so model requests reach their checks
}


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[WireServer, str]]:
    work = tmp_path_factory.mktemp("found")
    root = work / "workspace"
    root.mkdir()
    server = WireServer(work, settings=SETTINGS)
    server.initialize({"cass": SETTINGS, "workspaceTrusted": True}, root=root)  # the model path applies
    uri = (root / "k.cu").as_uri()
    text = "__global__ void k(float* x) { x[0] = 1.0f; } // é\n"  # bytes 48..50: "é"
    server.notify(
        "textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "cuda", "version": 1, "text": text}}
    )
    yield server, uri
    assert server.close() == 0
    assert server.leftovers() == []


def position(line: Any, character: Any) -> dict[str, Any]:
    return {"line": line, "character": character}


CASES: dict[str, tuple[str, Any, int | tuple[int, ...] | None]] = {
    # (method, params with "URI" for the open document, expected error code or None for a result)
    "a position of the wrong type went unanswered": (
        "textDocument/hover",
        {"textDocument": {"uri": "URI"}, "position": "0:0"},
        INVALID_PARAMS,
    ),
    "a negative character went unanswered": (
        "textDocument/hover",
        {"textDocument": {"uri": "URI"}, "position": position(0, -5)},
        INVALID_PARAMS,
    ),
    "params of the wrong type went unanswered": ("textDocument/codeAction", [1, 2], INVALID_PARAMS),
    "no targets made cass/assembly fail": ("cass/assembly", {"uri": "URI"}, None),
    "a lone surrogate in a URI made cass/assembly fail": (
        "cass/assembly",
        {"uri": "\ud800"},
        (INVALID_PARAMS, REQUEST_FAILED),
    ),
    "a lone surrogate made codeAction/resolve fail": (
        "codeAction/resolve",
        {
            "title": "t",
            "data": {"uri": "URI", "version": 1, "action": "\ud800", "reverse": False, "start": 0, "end": 1},
        },
        INVALID_PARAMS,
    ),
    "a document that is not open made cass/assembly fail": (
        "cass/assembly",
        {"uri": "file:///not/open.cu"},
        REQUEST_FAILED,
    ),
    "an object as the URI of cass.showAssembly failed": (
        "workspace/executeCommand",
        {"command": "cass.showAssembly", "arguments": [{"a": None}, None]},
        REQUEST_FAILED,
    ),
    "a path outside the workspace was verified": (
        "workspace/executeCommand",
        {"command": "cass.verify", "arguments": ["file:///etc/passwd.cu"]},
        REQUEST_FAILED,
    ),
    "bad cass/describeOpcode params failed": ("cass/describeOpcode", None, INVALID_PARAMS),
    "a range cutting a UTF-8 character made cass/translateWithModel fail": (
        "cass/translateWithModel",
        {"uri": "URI", "version": 1, "start": 0, "end": 49, "scope": "selection"},
        INVALID_PARAMS,
    ),
}


@pytest.mark.parametrize("case", list(CASES))
def test_found_case_gets_a_clear_answer(served: tuple[WireServer, str], case: str) -> None:
    server, uri = served
    method, params, expected = CASES[case]
    params = json.loads(json.dumps(params, ensure_ascii=True).replace('"URI"', json.dumps(uri)))
    reply = server.call(method, params, timeout=60)
    error = reply.get("error")
    if expected is None:
        assert error is None, reply
    else:
        assert error is not None and error["code"] in (expected if isinstance(expected, tuple) else (expected,)), reply
        assert error["code"] != INTERNAL_ERROR and error["message"]


def test_a_request_without_jsonrpc_is_answered(served: tuple[WireServer, str]) -> None:
    server, _ = served
    server.send_bytes(frame(json.dumps({"id": 4242, "method": "textDocument/hover", "params": {}}).encode()))
    assert server.wait_for([4242], 30) == []
    assert server.responses[4242]["error"]["code"] == INVALID_REQUEST


def test_garbage_bodies_leave_the_server_answering(served: tuple[WireServer, str]) -> None:
    server, uri = served
    for body in (b"{not json", b"[1, 2]", b"42", b"null", b'{"jsonrpc": "2.0", "id": {"a": 1}, "method": "x"}'):
        server.send_bytes(frame(body))
    reply = server.call("textDocument/documentSymbol", {"textDocument": {"uri": uri}})
    assert reply["result"][0]["name"] == "k"


def test_the_trust_flag_beside_flat_settings_is_no_unknown_setting(tmp_path: Path) -> None:
    server = WireServer(tmp_path)
    try:
        server.initialize({"asm": {"compileOnOpen": False}, "workspaceTrusted": False})
        server.call("textDocument/documentSymbol", {"textDocument": {"uri": "file:///x.cu"}})
        shown = [n["params"]["message"] for n in server.notifications_of("window/showMessage")]
        assert not any("workspaceTrusted" in m for m in shown), shown
    finally:
        assert server.close() == 0


def test_broken_notifications_are_shown_once_not_once_each(served: tuple[WireServer, str]) -> None:
    """pygls shows "Error in server" for every notification it cannot read, and logs two tracebacks
    of ~40 lines each: a client stuck in a loop of bad didChange would open a popup per keystroke
    and fill the log. Shown once per kind, logged each time in one line."""
    server, uri = served  # shared: earlier tests of this module sent broken messages too
    for version in range(2, 22):
        server.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version}, "contentChanges": 7})
        server.send_bytes(frame(b"{not json"))
    reply = server.call("textDocument/documentSymbol", {"textDocument": {"uri": uri}})
    assert reply["result"][0]["name"] == "k"
    shown = [n["params"]["message"] for n in server.notifications_of("window/showMessage")]
    errors = [m for m in shown if "errors like it are only logged" in m]
    # one per kind over the whole session: params that do not fit, a body that is not JSON
    assert len(errors) == 2, shown
    assert any("notification that does not fit its type" in m for m in errors), errors
    assert any("not JSON" in m for m in errors), errors
    log = server.stderr()
    assert log.count("notification that does not fit its type") >= 20  # each one is logged, in a line
    assert "Traceback" not in log, log  # not with pygls's tracebacks: the client's fault is no crash
