"""The job layer through the real server over stdio: hover never waits for a compile, settings
changes reach listings and translations, superseded compiles die, unreadable text clears findings."""

from __future__ import annotations

import asyncio
import os
import time
import uuid
from pathlib import Path

from lsprotocol import types
from pytest_lsp import LanguageClient

from cass_lsp.server.convert import json_value
from tests.lsp.conftest import open_document
from tests.lsp.test_assembly import KERNEL, SYNC_LINE, hover_text, hover_until, session, write

WARP = """#include <cuda_runtime.h>
#define FULL_MASK 0xffffffff
__global__ void warp_reduce(float* out) {{
  float v = threadIdx.x;
  for (int offset = 16; offset > 0; offset >>= 1) v += __shfl_down_sync(FULL_MASK, v, offset);
  if (threadIdx.x == 0) out[blockIdx.x] = v;
}}
// {tag}
"""
SHUFFLE_LINE = 4


def compilers_of(name: str) -> set[int]:
    """PIDs of running processes whose command line names the file ``name`` (compiles of it)."""
    found = set()
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as f:
                cmdline = f.read()
        except OSError:
            continue
        if name.encode() in cmdline and b"pytest" not in cmdline:
            found.add(int(entry))
    return found


def alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(")")[-1].split()[0] != "Z"
    except OSError:
        return False


def edit(client: LanguageClient, uri: str, version: int, line: int, text: str) -> None:
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
            content_changes=[
                types.TextDocumentContentChangePartial(
                    range=types.Range(start=types.Position(line, 0), end=types.Position(line, 0)), text=text
                )
            ],
        )
    )


async def assembly(client: LanguageClient, uri: str) -> dict[str, object]:
    reply = json_value(await client.protocol.send_request_async("cass/assembly", {"uri": uri}))
    assert isinstance(reply, dict)
    return reply


async def test_hover_right_after_an_edit_answers_at_once_with_the_previous_listing(tmp_path: Path) -> None:
    uri = write(tmp_path, "hot.cu", KERNEL.format(tag=uuid.uuid4()))
    text = Path(uri.removeprefix("file://")).read_text()
    async with session({"asm": {"targets": ["sm_90"]}}) as client:
        open_document(client, uri, text)
        await hover_until(client, uri, SYNC_LINE, 4, "BAR")
        # an edit far below the kernel: a new compile starts, the kernel's lines did not move
        edit(client, uri, 2, text.count("\n"), "// edited\n")
        start = time.perf_counter()
        stale = await hover_text(client, uri, SYNC_LINE, 4)
        elapsed = time.perf_counter() - start
        assert elapsed < 1.0, f"hover took {elapsed:.3f} s"  # measured figure: benchmarks/bench_hover.py
        assert "BAR" in stale and "previous version" in stale
        # an edit above the line moves it: the previous listing is found through the shift
        edit(client, uri, 3, 0, "// a new first line\n")
        moved = await hover_text(client, uri, SYNC_LINE + 1, 4)
        assert "BAR" in moved or "compiling" in moved
        fresh = await hover_until(client, uri, SYNC_LINE + 1, 4, "BAR")
        for _ in range(100):
            if "previous version" not in fresh:
                break
            await asyncio.sleep(0.2)
            fresh = await hover_text(client, uri, SYNC_LINE + 1, 4)
        assert "previous version" not in fresh


async def test_a_settings_change_reaches_listings_and_translations_without_a_text_change(tmp_path: Path) -> None:
    uri = write(tmp_path, "warp.cu", WARP.format(tag=uuid.uuid4()))
    text = Path(uri.removeprefix("file://")).read_text()
    settings = {"target": {"arch": "gfx1100", "rocm": "5.2"}, "asm": {"targets": ["gfx1100"]}}
    async with session(settings) as client:
        open_document(client, uri, text)
        before = await assembly(client, uri)
        assert "ROCm 5.2" in str(before["results"])
        await hover_until(client, uri, SHUFFLE_LINE, 60, "gfx1100", "v_")
        file_action = await translate_file(client, uri)
        assert "__shfl_down(v, offset)" in file_action

        client.workspace_did_change_configuration(
            types.DidChangeConfigurationParams(settings={"cass": {"target": {"rocm": "7.1"}}})
        )
        after = await assembly(client, uri)
        assert "ROCm 7.1" in str(after["results"]) and after["version"] == before["version"]
        translated = await translate_file(client, uri)
        assert "__shfl_down_sync(FULL_MASK, v, offset)" in translated
        assert "#define FULL_MASK 0xffffffffffffffffull" in translated


async def translate_file(client: LanguageClient, uri: str) -> str:
    result = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            range=types.Range(start=types.Position(0, 0), end=types.Position(0, 0)),
            context=types.CodeActionContext(diagnostics=[], only=[types.CodeActionKind.Source]),
        )
    )
    action = next(a for a in result or [] if isinstance(a, types.CodeAction) and a.title.startswith("Translate file"))
    if action.edit is None:
        action = await client.code_action_resolve_async(action)
    assert action.edit is not None and action.edit.document_changes is not None
    change = action.edit.document_changes[0]
    assert isinstance(change, types.TextDocumentEdit)
    from tests.lsp.conftest import apply_text_edits

    document = Path(uri.removeprefix("file://")).read_text()
    return apply_text_edits(document, [e for e in change.edits if isinstance(e, types.TextEdit)])


async def test_two_quick_edits_during_a_compile_leave_one_compile_and_no_process(tmp_path: Path) -> None:
    name = f"slow_{uuid.uuid4().hex[:8]}.cu"
    uri = write(tmp_path, name, KERNEL.format(tag=uuid.uuid4()))
    text = Path(uri.removeprefix("file://")).read_text()
    async with session({"asm": {"targets": ["sm_90"], "compileOnOpen": True}}) as client:
        open_document(client, uri, text)
        first: set[int] = set()
        for _ in range(200):
            first = compilers_of(name)
            if first:
                break
            await asyncio.sleep(0.05)
        assert first, "the compile on open never started"
        for version in (2, 3):
            edit(client, uri, version, 0, f"// edit {version}\n")
            await hover_text(client, uri, SYNC_LINE + version - 1, 4)  # asks for the new version's listing
        for _ in range(100):
            if not any(alive(pid) for pid in first):
                break
            await asyncio.sleep(0.05)
        assert not any(alive(pid) for pid in first), "the superseded compile is still running"
        reply = await assembly(client, uri)
        assert reply["version"] == 3
        results = reply["results"]
        assert isinstance(results, list) and results[0]["kind"] == "listing"
    assert not compilers_of(name)


async def test_text_the_engine_cannot_take_replaces_the_previous_findings(tmp_path: Path) -> None:
    uri = (tmp_path / "surrogate.cu").as_uri()
    text = "void f() { cudaThreadSynchronize(); }\n"
    async with session({"diagnostics": {"debounceMs": 20}, "asm": {"compileOnOpen": False}}) as client:
        open_document(client, uri, text)
        for _ in range(250):
            if client.diagnostics.get(uri):
                break
            await asyncio.sleep(0.02)
        assert [d.code for d in client.diagnostics[uri] if d.source == "cass-lsp"] == ["deprecated-api"]
        edit(client, uri, 2, 1, "// \ud800 a lone surrogate\n")
        for _ in range(250):
            codes = [d.code for d in client.diagnostics.get(uri, []) if d.source == "cass-lsp"]
            if codes != ["deprecated-api"]:
                break
            await asyncio.sleep(0.02)
        found = [d for d in client.diagnostics[uri] if d.source == "cass-lsp"]
        assert [d.code for d in found] == ["untranslatable"] and found[0].range.start.line == 1
        assert "surrogate" in found[0].message


async def test_compiles_report_progress_and_a_cancel_from_the_editor_kills_them(tmp_path: Path) -> None:
    name = f"progress_{uuid.uuid4().hex[:8]}.cu"
    uri = write(tmp_path, name, KERNEL.format(tag=uuid.uuid4()))
    async with session({"asm": {"targets": ["sm_90"]}}) as client:
        open_document(client, uri, Path(uri.removeprefix("file://")).read_text())
        token = None
        for _ in range(200):
            token = next((t for t, reports in client.progress_reports.items() if reports), None)
            if token is not None and compilers_of(name):
                break
            await asyncio.sleep(0.05)
        assert token is not None, client.progress_reports
        begin = client.progress_reports[token][0]
        assert isinstance(begin, types.WorkDoneProgressBegin)
        assert begin.title == f"Compiling {name} for sm_90" and begin.cancellable
        running = compilers_of(name)
        assert running
        client.window_work_done_progress_cancel(types.WorkDoneProgressCancelParams(token=token))
        for _ in range(100):
            if not any(alive(pid) for pid in running):
                break
            await asyncio.sleep(0.05)
        assert not any(alive(pid) for pid in running), "the cancelled compile is still running"
        for _ in range(100):
            if isinstance(client.progress_reports[token][-1], types.WorkDoneProgressEnd):
                break
            await asyncio.sleep(0.05)
        assert isinstance(client.progress_reports[token][-1], types.WorkDoneProgressEnd)
