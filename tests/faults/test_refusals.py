"""What the server refuses, through the real server over stdio (docs/THREAT_MODEL.md): reading,
compiling or running files named by a request outside the workspace, running anything in an
untrusted workspace, and listening on anything but loopback unless told."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

import pytest

from cass_lsp.server import serve
from tests.fuzz.wire import INVALID_PARAMS, WireServer

REQUEST_FAILED = -32803
ORIGINAL = '#include <cstdio>\nint main() { printf("%d\\n", 42); return 0; }\n'


def verify(server: WireServer, argument: Any) -> dict[str, Any]:
    reply: dict[str, Any] = server.call(
        "workspace/executeCommand", {"command": "cass.verify", "arguments": [argument]}, timeout=300
    )
    return reply


@pytest.fixture
def served(tmp_path: Path) -> Any:
    root = tmp_path / "workspace"
    root.mkdir()
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.cu").write_text(ORIGINAL)
    (root / "link.cu").symlink_to(outside / "secret.cu")
    settings = {"asm": {"compileOnOpen": False}, "verification": {"watch": False, "run": True, "runner": "cpu"}}
    server = WireServer(tmp_path / "server", settings=settings)
    server.initialize({"cass": settings, "workspaceTrusted": False}, root=root)
    yield server, root, outside
    assert server.close() == 0
    assert server.leftovers() == []


@pytest.mark.parametrize(
    "where",
    ["outside", "dot-dot", "symlink", "not a file uri", "no uri"],
)
def test_verify_refuses_what_is_not_a_workspace_file(served: Any, where: str) -> None:
    server, root, outside = served
    argument: Any = {
        "outside": (outside / "secret.cu").as_uri(),
        "dot-dot": f"{root.as_uri()}/../outside/secret.cu",
        "symlink": (root / "link.cu").as_uri(),
        "not a file uri": "untitled:secret.cu",
        "no uri": {"uri": (outside / "secret.cu").as_uri()},
    }[where]
    reply = verify(server, argument)
    error = reply.get("error")
    assert error is not None, reply
    # pygls turns a command's object argument into its text for a `str` parameter: refused as a
    # URI of no file, or as invalid params
    assert error["code"] in ((REQUEST_FAILED, INVALID_PARAMS) if where == "no uri" else (REQUEST_FAILED,)), error
    assert (
        "outside the workspace" in error["message"] or "not a file" in error["message"] or "Invalid" in error["message"]
    )
    assert not any("secret" in p for p in server.leftovers(0))  # nothing was compiled


def test_an_untrusted_workspace_compiles_but_never_runs(served: Any) -> None:
    server, root, _ = served
    (root / "main.cu").write_text(ORIGINAL)
    reply = verify(server, (root / "main.cu").as_uri())
    assert "result" in reply, reply
    statuses = [n["params"] for n in server.notifications_of("cass/verificationStatus")]
    final = [s for s in statuses if s["state"] not in ("queued", "running")]
    assert final and "not run: running is refused: the editor marks this workspace untrusted" in final[-1]["summary"], (
        statuses
    )
    assert not any(stage["name"] == "run" and stage["outcome"] == "passed" for s in final for stage in s["stages"])


def test_tcp_listens_on_loopback_unless_told_otherwise() -> None:
    parser = argparse.ArgumentParser()
    serve.add_arguments(parser)
    assert parser.parse_args(["--tcp"]).host == "127.0.0.1"
    assert parser.parse_args(["--tcp", "--host", "0.0.0.0"]).host == "0.0.0.0"


# The modules that start processes themselves, each with an argv list: proc.run (every program that
# runs to its end), and the model's worker, a process that lives as long as its model, on a pipe.
SPAWNERS = {Path("core/proc.py"), Path("infer/process.py")}


def test_the_server_runs_nothing_through_a_shell() -> None:
    """Every outside program goes through cass_lsp/core/proc.py as an argv list, except the model's
    long-lived worker (infer/process.py); nothing runs through a shell."""
    package = Path(__file__).resolve().parents[2] / "cass_lsp"
    offenders = []
    for source in package.rglob("*.py"):
        text = source.read_text()
        for needle in ("shell=True", "os.system(", "os.popen(", "subprocess.call(", "subprocess.run(", "subprocess.Popen("):
            if needle in text and (needle in ("shell=True", "os.system(", "os.popen(") or source.relative_to(package) not in SPAWNERS):
                offenders.append(f"{source.relative_to(package)}: {needle}")
    assert offenders == [], offenders
    assert all((package / spawner).is_file() for spawner in SPAWNERS)


def test_an_edit_computed_for_an_older_version_is_refused(served: Any) -> None:
    """Data safety: a code action resolved after the text moved on is refused, never applied to
    text it was not computed for."""
    server, root, _ = served
    uri = (root / "stale.cu").as_uri()
    text = "void f() { cudaDeviceSynchronize(); }\n"
    server.notify(
        "textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "cuda", "version": 1, "text": text}}
    )
    origin = {"line": 0, "character": 0}
    params = {
        "textDocument": {"uri": uri},
        "range": {"start": origin, "end": origin},
        "context": {"diagnostics": [], "only": ["source"]},
    }
    actions = server.call("textDocument/codeAction", params)["result"]
    action = next(a for a in actions if a["title"].startswith("Translate file"))
    change = {"range": {"start": origin, "end": origin}, "text": "// typed meanwhile\n"}
    server.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 2}, "contentChanges": [change]})
    reply = server.call("codeAction/resolve", action)
    assert "error" in reply and "changed" in reply["error"]["message"], reply
