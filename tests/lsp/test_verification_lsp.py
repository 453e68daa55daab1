"""Background verification through the real server over stdio, with the real nvcc and clang-19:
a saved broken translation gets a `cass-verify` diagnostic on the right line (fixing it clears it),
quick saves coalesce, files changed outside the editor are verified, a deleted translation leaves no
diagnostics, new settings verify known pairs again, a storm of changes stays bounded, a restarted
server answers from the cache, and an untrusted workspace runs nothing."""

from __future__ import annotations

import asyncio
import contextlib
import time
import uuid
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

from cass_lsp.server.convert import json_value
from tests.lsp.conftest import SERVER, open_document

ORIGINAL = """#include <cstdio>
#include <cuda_runtime.h>
// {tag}
__global__ void scale(float* data, float factor, int n) {{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] *= factor;
}}

int main() {{
  const int n = 256;
  float* device = nullptr;
  cudaMalloc(&device, n * sizeof(float));
  scale<<<(n + 127) / 128, 128>>>(device, 2.0f, n);
  cudaDeviceSynchronize();
  cudaFree(device);
  printf("done\\n");
  return 0;
}}
"""
GOOD = (
    ORIGINAL.replace("cuda_runtime.h", "hip/hip_runtime.h")
    .replace("cudaMalloc", "hipMalloc")
    .replace("cudaDeviceSynchronize", "hipDeviceSynchronize")
    .replace("cudaFree", "hipFree")
)
# line 14 (0-based 13): a CUDA call left in the translation
BROKEN = GOOD.replace("hipDeviceSynchronize();", "cudaDeviceSynchronize();")
BROKEN_LINE = 13
FAST = {"verification": {"debounceMs": 100}, "target": {"rocm": "7.1"}}
TERMINAL = {"passed", "failed", "unverified"}


@contextlib.asynccontextmanager
async def session(
    root: Path, settings: dict[str, Any], *, trusted: bool | None = None, env: dict[str, str] | None = None
) -> AsyncIterator[LanguageClient]:
    client = await ClientServerConfig(server_command=SERVER, server_env=env).start(devtools=None)
    client.statuses = []  # type: ignore[attr-defined]

    @client.feature("cass/verificationStatus")
    def status(params: Any) -> None:
        client.statuses.append(json_value(params))  # type: ignore[attr-defined]

    options: dict[str, Any] = {"cass": settings}
    if trusted is not None:
        options["workspaceTrusted"] = trusted
    await client.initialize_session(
        types.InitializeParams(
            capabilities=client_capabilities("visual-studio-code"),
            initialization_options=options,
            workspace_folders=[types.WorkspaceFolder(uri=root.as_uri(), name="w")],
            root_uri=root.as_uri(),
        )
    )
    try:
        yield client
    finally:
        await client.shutdown_session()


def pair(tmp_path: Path, translation: str) -> tuple[Path, Path, str]:
    tag = str(uuid.uuid4())  # unique text: the result cache has never seen it
    original = tmp_path / "scale.cu"
    original.write_text(ORIGINAL.format(tag=tag))
    hip = tmp_path / "scale.hip"
    hip.write_text(translation.format(tag=tag))
    return original, hip, tag


def save(client: LanguageClient, path: Path) -> None:
    client.text_document_did_save(
        types.DidSaveTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=path.as_uri()))
    )


def editor_writes(client: LanguageClient, path: Path, text: str, version: int) -> None:
    """What an editor does before a save: the new text on disk and in a didChange."""
    path.write_text(text)
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=path.as_uri(), version=version),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)],
        )
    )


def verify_diagnostics(client: LanguageClient, path: Path) -> list[types.Diagnostic]:
    return [d for d in client.diagnostics.get(path.as_uri(), []) if d.source == "cass-verify"]


async def final_status(client: LanguageClient, uri: str, after: int = 0, timeout: float = 120) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for status in client.statuses[after:]:  # type: ignore[attr-defined]
            if status["uri"] == uri and status["state"] in TERMINAL:
                return dict(status)
        await asyncio.sleep(0.1)
    raise AssertionError(f"no final verification status for {uri}: {client.statuses}")  # type: ignore[attr-defined]


def terminal_count(client: LanguageClient, uri: str, after: int = 0) -> int:
    return sum(1 for s in client.statuses[after:] if s["uri"] == uri and s["state"] in TERMINAL)  # type: ignore[attr-defined]


async def test_saving_a_broken_translation_marks_the_line_and_fixing_it_clears(tmp_path: Path) -> None:
    original, hip, tag = pair(tmp_path, BROKEN)
    async with session(tmp_path, FAST) as client:
        open_document(client, hip.as_uri(), hip.read_text(), language_id="hip")
        started = time.monotonic()
        save(client, hip)
        status = await final_status(client, hip.as_uri())
        assert status["state"] == "failed", status
        found = verify_diagnostics(client, hip)
        assert found, client.diagnostics
        diagnostic = found[0]
        assert diagnostic.range.start.line == BROKEN_LINE
        assert "cudaDeviceSynchronize" in diagnostic.message and "clang-19" in diagnostic.message
        assert diagnostic.severity == types.DiagnosticSeverity.Error
        related = diagnostic.related_information
        assert related and related[0].location.uri == original.as_uri()
        assert related[0].location.range.start.line == BROKEN_LINE  # the same call in the original
        elapsed = time.monotonic() - started
        assert elapsed < 60, elapsed  # the compile (a few s) plus the debounce, generously
        # the editor writes the fixed text and saves
        fixed = GOOD.format(tag=tag)
        editor_writes(client, hip, fixed, version=2)
        seen = len(client.statuses)  # type: ignore[attr-defined]
        save(client, hip)
        status = await final_status(client, hip.as_uri(), after=seen)
        assert status["state"] == "passed", status
        assert [s["name"] for s in status["stages"]] == ["original", "translation"]
        assert verify_diagnostics(client, hip) == []


async def test_two_quick_saves_give_one_result(tmp_path: Path) -> None:
    _, hip, tag = pair(tmp_path, BROKEN)
    settings = {**FAST, "verification": {"debounceMs": 300, "watch": False}}  # only the editor's saves
    async with session(tmp_path, settings) as client:
        open_document(client, hip.as_uri(), hip.read_text(), language_id="hip")
        save(client, hip)
        await asyncio.sleep(0.02)
        fixed = GOOD.format(tag=tag)
        editor_writes(client, hip, fixed, version=2)
        save(client, hip)
        status = await final_status(client, hip.as_uri())
        assert status["state"] == "passed", status
        await asyncio.sleep(2.0)  # a second result would have arrived by now
        assert terminal_count(client, hip.as_uri()) == 1, client.statuses  # type: ignore[attr-defined]


async def test_a_file_changed_outside_the_editor_is_verified(tmp_path: Path) -> None:
    _, hip, tag = pair(tmp_path, GOOD)
    async with session(tmp_path, FAST) as client:
        await asyncio.sleep(0.5)  # the watcher starts after `initialized`
        hip.write_text(BROKEN.format(tag=tag))  # e.g. `git checkout` of an older version
        status = await final_status(client, hip.as_uri())
        assert status["state"] == "failed"
        for _ in range(50):
            if verify_diagnostics(client, hip):
                break
            await asyncio.sleep(0.1)
        assert [d.range.start.line for d in verify_diagnostics(client, hip)] == [BROKEN_LINE]


async def wait_for_diagnostics(client: LanguageClient, path: Path, present: bool) -> list[types.Diagnostic]:
    for _ in range(100):
        if bool(verify_diagnostics(client, path)) == present:
            break
        await asyncio.sleep(0.1)
    return verify_diagnostics(client, path)


async def test_deleting_a_translation_clears_its_diagnostics(tmp_path: Path) -> None:
    """A deleted translation file keeps no errors in the editor: its original is verified against
    its rule translation when it is open, and otherwise the pair ends."""
    original, hip, tag = pair(tmp_path, GOOD)
    async with session(tmp_path, FAST) as client:
        await asyncio.sleep(0.5)  # the watcher starts after `initialized`
        hip.write_text(BROKEN.format(tag=tag))
        assert (await final_status(client, hip.as_uri()))["state"] == "failed"
        assert await wait_for_diagnostics(client, hip, present=True)
        seen = len(client.statuses)  # type: ignore[attr-defined]
        hip.unlink()
        assert await wait_for_diagnostics(client, hip, present=False) == []
        ended = [s for s in client.statuses[seen:] if s["uri"] == original.as_uri()]  # type: ignore[attr-defined]
        assert ended and ended[-1]["state"] == "off" and "was deleted" in ended[-1]["summary"], ended

        # again with the original open: it is verified against its rule translation instead
        hip.write_text(BROKEN.format(tag=tag))
        open_document(client, original.as_uri(), original.read_text())
        seen = len(client.statuses)  # type: ignore[attr-defined]
        assert (await final_status(client, hip.as_uri(), after=seen))["state"] == "failed"
        assert await wait_for_diagnostics(client, hip, present=True)
        seen = len(client.statuses)  # type: ignore[attr-defined]
        hip.unlink()
        status = await final_status(client, original.as_uri(), after=seen)
        assert status["state"] == "passed" and "rule translation" in status["summary"], status
        assert await wait_for_diagnostics(client, hip, present=False) == []


async def test_a_settings_change_verifies_known_pairs_again(tmp_path: Path) -> None:
    """Verdicts for one AMD target say nothing about another: a new target re-verifies what was
    verified, with no file touched; turning verification off clears its diagnostics."""
    _, hip, tag = pair(tmp_path, GOOD)
    async with session(tmp_path, FAST) as client:
        await asyncio.sleep(0.5)  # the watcher starts after `initialized`
        hip.write_text(BROKEN.format(tag=tag))
        first = await final_status(client, hip.as_uri())
        assert first["state"] == "failed" and {s["target"] for s in first["stages"]} >= {"gfx1100"}, first
        seen = len(client.statuses)  # type: ignore[attr-defined]
        client.workspace_did_change_configuration(
            types.DidChangeConfigurationParams(settings={"cass": {**FAST, "verification": {"debounceMs": 100, "arches": ["gfx942"]}}})
        )
        again = await final_status(client, hip.as_uri(), after=seen)
        assert again["state"] == "failed", again
        assert "gfx942" in {s["target"] for s in again["stages"]} and "gfx1100" not in {s["target"] for s in again["stages"]}
        assert await wait_for_diagnostics(client, hip, present=True)
        client.workspace_did_change_configuration(
            types.DidChangeConfigurationParams(settings={"cass": {**FAST, "verification": {"enabled": False}}})
        )
        assert await wait_for_diagnostics(client, hip, present=False) == []


async def test_a_thousand_files_touched_at_once_stay_bounded(tmp_path: Path) -> None:
    tag = str(uuid.uuid4())
    settings = {"verification": {"debounceMs": 200, "maxQueued": 3}, "target": {"rocm": "7.1"}}
    async with session(tmp_path, settings) as client:
        await asyncio.sleep(0.5)
        for index in range(500):  # 500 pairs: 1,000 files
            (tmp_path / f"k{index}.cu").write_text(ORIGINAL.format(tag=f"{tag} {index}"))
            (tmp_path / f"k{index}.hip").write_text(GOOD.format(tag=f"{tag} {index}"))
        await asyncio.sleep(3.0)
        # the server still answers at once while it works through what it kept
        probe = tmp_path / "probe.cu"
        open_document(client, probe.as_uri(), ORIGINAL.format(tag=tag))
        started = time.monotonic()
        symbols = await client.text_document_document_symbol_async(
            types.DocumentSymbolParams(text_document=types.TextDocumentIdentifier(uri=probe.as_uri()))
        )
        assert symbols and time.monotonic() - started < 2.0
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            finished = {s["uri"] for s in client.statuses if s["state"] in TERMINAL}  # type: ignore[attr-defined]
            if len(finished) >= 6:  # 3 pairs, 2 files each
                break
            await asyncio.sleep(0.2)
        await asyncio.sleep(2.0)
        finished_pairs = {s["uri"].rsplit(".", 1)[0] for s in client.statuses if s["state"] in TERMINAL}  # type: ignore[attr-defined]
        assert 1 <= len(finished_pairs) <= 3 + 1, len(finished_pairs)  # the queue's bound (+ one already running)
        queued = [s for s in client.statuses if s["state"] == "queued"]  # type: ignore[attr-defined]
        assert len(queued) < 100, len(queued)  # told only for the pairs the queue kept, not 1,000 files


async def test_a_restarted_server_answers_from_the_cache(tmp_path: Path) -> None:
    _, hip, _ = pair(tmp_path, GOOD)
    async with session(tmp_path, FAST) as client:
        open_document(client, hip.as_uri(), hip.read_text(), language_id="hip")
        save(client, hip)
        first = await final_status(client, hip.as_uri())
        assert first["state"] == "passed" and not any(s["cached"] for s in first["stages"])
    async with session(tmp_path, FAST) as client:
        open_document(client, hip.as_uri(), hip.read_text(), language_id="hip")
        save(client, hip)
        again = await final_status(client, hip.as_uri())
        assert again["state"] == "passed"
        assert all(s["cached"] for s in again["stages"]), again


async def test_an_untrusted_workspace_compiles_but_never_runs(tmp_path: Path) -> None:
    _, hip, _ = pair(tmp_path, GOOD)
    settings = {**FAST, "verification": {"debounceMs": 100, "run": True, "runner": "cpu"}}
    async with session(tmp_path, settings, trusted=False) as client:
        open_document(client, hip.as_uri(), hip.read_text(), language_id="hip")
        save(client, hip)
        status = await final_status(client, hip.as_uri())
        # asked to run and not run: never "passed", whatever the compilers said
        assert status["state"] == "unverified"
        assert "could not verify" in status["summary"] and "untrusted" in status["summary"]
        assert all(s["name"] != "run" for s in status["stages"])


async def test_verify_now_answers_the_verdict(tmp_path: Path) -> None:
    _, hip, _ = pair(tmp_path, BROKEN)
    async with session(tmp_path, FAST) as client:
        reply = json_value(
            await client.workspace_execute_command_async(
                types.ExecuteCommandParams(command="cass.verify", arguments=[hip.as_uri()])
            )
        )
        assert reply["verdict"] == "failed" and "cudaDeviceSynchronize" in reply["summary"]
        with pytest.raises(Exception, match="no such file") as refusal:
            await client.workspace_execute_command_async(
                types.ExecuteCommandParams(command="cass.verify", arguments=[(tmp_path / "gone.cu").as_uri()])
            )
        assert getattr(refusal.value, "code", None) == types.LSPErrorCodes.RequestFailed, refusal.value  # not -32603
