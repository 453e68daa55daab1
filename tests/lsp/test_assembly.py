"""The assembly hover, `cass/assembly`, and compiler errors as diagnostics, through the real server
with the real nvcc and clang-19."""

from __future__ import annotations

import asyncio
import os
import sys
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

from cass_lsp.server.convert import json_value
from tests.lsp.conftest import SERVER, open_document

KERNEL = """#include <cuda_runtime.h>
__global__ void block_sum(const float* in, float* out, int n) {{
  __shared__ float tile[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  tile[threadIdx.x] = i < n ? in[i] : 0.0f;
  __syncthreads();
  if (threadIdx.x == 0) {{
    float s = 0.0f;
    for (int k = 0; k < 256; ++k) s += tile[k];
    atomicAdd(out, s);
  }}
}}
// {tag}
"""
BROKEN = """__global__ void broken(float* out) {
  out[0] = undefined_name + 1.0f;
}
"""
SYNC_LINE = 5  # 0-based line of __syncthreads()
LOAD_LINE = 4


@asynccontextmanager
async def session(
    settings: dict[str, Any], env: dict[str, str] | None = None, profile: str = "visual-studio-code"
) -> AsyncIterator[LanguageClient]:
    client = await ClientServerConfig(server_command=SERVER, server_env=env).start(devtools=None)
    await client.initialize_session(
        types.InitializeParams(capabilities=client_capabilities(profile), initialization_options=settings)
    )
    try:
        yield client
    finally:
        await client.shutdown_session()


async def hover_text(client: LanguageClient, uri: str, line: int, character: int) -> str:
    result = await client.text_document_hover_async(
        types.HoverParams(text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(line, character))
    )
    assert result is not None
    assert isinstance(result.contents, types.MarkupContent)
    return result.contents.value


async def hover_until(client: LanguageClient, uri: str, line: int, character: int, *needles: str) -> str:
    text = ""
    for _ in range(120):
        text = await hover_text(client, uri, line, character)
        if all(n in text for n in needles):
            return text
        await asyncio.sleep(0.5)
    raise AssertionError(f"hover never showed {needles}: {text}")


def write(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text)
    return path.as_uri()


@pytest.mark.parametrize("profile", ["visual-studio-code", "neovim@v0.7.0"])
async def test_line_hover_shows_sass_and_rdna3(tmp_path: Path, profile: str) -> None:
    uri = write(tmp_path, "sum.cu", KERNEL.format(tag=uuid.uuid4()))  # unique text: a cold cache
    settings = {"asm": {"targets": ["sm_90", "gfx1100"], "hoverWaitMs": 100}}
    async with session(settings, profile=profile) as client:
        open_document(client, uri, Path(uri.removeprefix("file://")).read_text())
        # cold: the first hover answers at once with what it has, and says the rest is compiling
        first = await hover_text(client, uri, SYNC_LINE, 4)
        assert "sm_90" in first and "gfx1100" in first
        warm = await hover_until(client, uri, SYNC_LINE, 4, "BAR", "s_barrier")
        assert "from the rule translation" in warm  # the AMD side of a .cu file is the translated text
        load = await hover_until(client, uri, LOAD_LINE, 24, "LDG", "global_load")
        assert "block_sum" in load
        # on the kernel's name: resources side by side
        table = await hover_until(client, uri, 1, 18, "| sm_90 | gfx1100 |")
        assert "VGPR" in table and "shared" in table.lower()


async def test_assembly_request_returns_structured_listings(tmp_path: Path) -> None:
    uri = write(tmp_path, "sum.cu", KERNEL.format(tag=uuid.uuid4()))
    async with session({"asm": {"targets": ["sm_90", "gfx1100"]}}) as client:
        open_document(client, uri, Path(uri.removeprefix("file://")).read_text())
        reply = json_value(await client.protocol.send_request_async("cass/assembly", {"uri": uri, "line": SYNC_LINE}))
        results = {r["target"]: r for r in reply["results"]}
        assert results["sm_90"]["kind"] == "listing" and results["gfx1100"]["kind"] == "listing"
        assert results["gfx1100"]["translated"] is True
        lines = {i.get("line") for f in results["sm_90"]["functions"] for i in f["instructions"]}
        assert SYNC_LINE + 1 in lines
        assert "BAR" in reply["text"] and "s_barrier" in reply["text"]
        assert "barrier" in reply["opcodes"]["gfx1100"]["s_barrier"]
        described = json_value(
            await client.protocol.send_request_async("cass/describeOpcode", {"opcode": "LDG.E", "target": "sm_90"})
        )
        assert described["description"] == "load from global memory"
        shown = json_value(await client.workspace_execute_command_async(
            types.ExecuteCommandParams(command="cass.showAssembly", arguments=[uri, SYNC_LINE])
        ))
        assert "s_barrier" in shown["text"]


async def test_opening_a_file_named_like_a_command_lists_it_and_runs_nothing(tmp_path: Path) -> None:
    """nvcc runs its sub-tools through sh with the unit's name on the line: opening ``j$(touch $M).cu``
    (defaults, workspace untrusted) ran ``touch``. ``$M`` is the marker's path (a name holds no /)."""
    marker = tmp_path / "shell-ran"
    path = tmp_path / "j$(touch $M).cu"
    path.write_text(KERNEL.format(tag=uuid.uuid4()))
    async with session({"asm": {"targets": ["sm_90"]}}, env={**os.environ, "M": str(marker)}) as client:
        open_document(client, path.as_uri(), path.read_text())
        reply = json_value(await client.protocol.send_request_async("cass/assembly", {"uri": path.as_uri(), "line": SYNC_LINE}))
        assert not marker.exists()
        listing = next(r for r in reply["results"] if r["target"] == "sm_90")
        assert listing["kind"] == "listing", listing
        assert {i.get("file") for f in listing["functions"] for i in f["instructions"]} >= {str(path)}


async def test_compile_errors_become_diagnostics_on_their_line(tmp_path: Path) -> None:
    uri = write(tmp_path, "broken.cu", BROKEN)
    async with session({"asm": {"targets": ["sm_90", "gfx1100"]}}) as client:
        open_document(client, uri, BROKEN)
        for _ in range(240):
            asm = [d for d in client.diagnostics.get(uri, []) if d.source == "cass-asm"]
            if {d.message.split(":")[0].split(" ")[0] for d in asm} >= {"sm_90", "gfx1100"}:
                break
            await asyncio.sleep(0.25)
        assert asm, client.diagnostics.get(uri)
        assert all(d.range.start.line == 1 for d in asm)
        assert any("undefined_name" in d.message for d in asm)
        text = await hover_text(client, uri, 1, 4)
        assert "does not compile" in text


def _path_without_clang(tmp_path: Path) -> str:
    """A PATH with every tool of /usr/bin except LLVM's: what a machine without clang-19 looks like."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for tool in os.listdir("/usr/bin"):
        if not tool.startswith(("clang", "llvm", "ld.lld", "lld")):
            (bin_dir / tool).symlink_to(f"/usr/bin/{tool}")
    return f"{Path(sys.executable).parent}:{bin_dir}"


async def test_missing_toolchain_is_one_message_and_the_other_side_still_shows(tmp_path: Path) -> None:
    uri = write(tmp_path, "sum.cu", KERNEL.format(tag=uuid.uuid4()))
    empty_llvm = tmp_path / "no-llvm"
    empty_llvm.mkdir()
    env = {**os.environ, "PATH": _path_without_clang(tmp_path), "CASS_LSP_LLVM_DIR": str(empty_llvm)}
    async with session({"asm": {"targets": ["sm_90", "gfx1100"]}}, env=env) as client:
        open_document(client, uri, Path(uri.removeprefix("file://")).read_text())
        text = await hover_until(client, uri, SYNC_LINE, 4, "BAR", "clang")
        assert "apt-get install" in text  # the install hint
        for _ in range(40):
            if any("gfx1100" in m.message for m in client.messages):
                break
            await asyncio.sleep(0.25)
        notes = [m.message for m in client.messages if "gfx1100" in m.message]
        assert len(notes) == 1 and "apt-get install" in notes[0]
