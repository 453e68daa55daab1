"""CMake and Make files in the editor: the port's findings as diagnostics (source cass-lsp-build),
"Translate file to HIP" and "Create HIP translation", through the real server over stdio."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from lsprotocol import types
from pygls import uris
from pytest_lsp import LanguageClient

from tests.lsp.conftest import apply_text_edits, open_document

SOURCE = "cass-lsp-build"
CMAKE = """cmake_minimum_required(VERSION 3.18)
project(p LANGUAGES CXX CUDA)
add_executable(app main.cu)
target_link_libraries(app PRIVATE CUDA::cudart "é😀" CUDA::nvml)
find_package(CUDAToolkit REQUIRED)
"""
MAKEFILE = "NVCC ?= nvcc\nk.o: k.cu\n\t$(NVCC) -arch=sm_80 -maxrregcount=32 -c k.cu -o k.o\n"
EVERYTHING = types.Range(types.Position(0, 0), types.Position(99, 0))


async def _diagnostics(client: LanguageClient, uri: str) -> list[types.Diagnostic]:
    for _ in range(500):
        ours = [d for d in client.diagnostics.get(uri, []) if d.source == SOURCE]
        if ours:
            return ours
        await asyncio.sleep(0.02)
    raise AssertionError(f"no build diagnostics for {uri}: {client.diagnostics.get(uri)}")


async def _actions(client: LanguageClient, uri: str) -> list[types.CodeAction]:
    result = await client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=uri), range=EVERYTHING,
        context=types.CodeActionContext(diagnostics=[])))
    return [a for a in result or [] if isinstance(a, types.CodeAction)]


def _edits(action: types.CodeAction) -> list[types.TextEdit]:
    assert action.edit is not None
    if action.edit.document_changes:
        return [e for c in action.edit.document_changes if isinstance(c, types.TextDocumentEdit)
                for e in c.edits if isinstance(e, types.TextEdit)]
    return [e for edits in (action.edit.changes or {}).values() for e in edits]


async def test_cmake_findings_and_translate_file(client: LanguageClient, tmp_path: Path) -> None:
    (tmp_path / "fft.cu").write_text("#include <cufft.h>\nvoid plan(cufftHandle* p) { cufftPlan1d(p, 8, CUFFT_C2C, 1); }\n")
    uri = uris.from_fs_path(str(tmp_path / "CMakeLists.txt")) or ""
    open_document(client, uri, CMAKE, language_id="cmake")
    diagnostics = await _diagnostics(client, uri)
    errors = [d for d in diagnostics if d.severity == types.DiagnosticSeverity.Error]
    assert [d.range.start.line for d in errors] == [3] and "NVML" in errors[0].message
    line = CMAKE.splitlines()[3]
    utf16 = len(line[: line.index("CUDA::nvml")].encode("utf-16-le")) // 2  # the emoji is two code units
    assert errors[0].range.start.character == utf16
    actions = await _actions(client, uri)
    titles = [a.title for a in actions]
    assert titles[0] == "Translate file to HIP" and "Create HIP translation CMakeLists.hip.txt" in titles
    ported = apply_text_edits(CMAKE, _edits(actions[0]))
    assert "project(p LANGUAGES CXX HIP)" in ported and "hip::host" in ported
    assert "find_package(hipfft REQUIRED)" in ported  # the library the sources beside it use
    assert "set_source_files_properties(main.cu PROPERTIES LANGUAGE HIP)" in ported  # sources keep their names


async def test_makefile_edits_update_the_findings_and_close_clears_them(
    client: LanguageClient, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    # the workspace's cass.target.arch where the client answers workspace/configuration (VS Code's
    # profile), the default target otherwise
    arch = "gfx942" if request.node.callspec.params["client"] == "vscode" else "gfx1100"
    uri = uris.from_fs_path(str(tmp_path / "Makefile")) or ""
    open_document(client, uri, MAKEFILE, language_id="make")
    first = await _diagnostics(client, uri)
    assert any("__launch_bounds__" in d.message and d.range.start.line == 2 for d in first)
    # an incremental edit drops the register cap: its warning goes
    line = MAKEFILE.splitlines()[2]
    start = line.index(" -maxrregcount=32")
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=2),
        content_changes=[types.TextDocumentContentChangePartial(
            range=types.Range(types.Position(2, start), types.Position(2, start + len(" -maxrregcount=32"))),
            text="")]))
    for _ in range(500):
        current = [d for d in client.diagnostics.get(uri, []) if d.source == SOURCE]
        if current and not any("__launch_bounds__" in d.message for d in current):
            break
        await asyncio.sleep(0.02)
    else:
        raise AssertionError(f"the edit did not reach the build findings: {client.diagnostics.get(uri)}")
    actions = await _actions(client, uri)
    ported = apply_text_edits(MAKEFILE.replace(" -maxrregcount=32", ""), _edits(actions[0]))
    assert ported == (f"NVCC ?= hipcc\nexport HIP_PLATFORM ?= amd\nexport HCC_AMDGPU_TARGET ?= {arch}\nk.o: k.cu\n"
                      f"\t$(NVCC) --offload-arch={arch} -c k.cu -o k.o\n")
    client.text_document_did_close(types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri)))
    for _ in range(500):
        if not [d for d in client.diagnostics.get(uri, []) if d.source == SOURCE]:
            break
        await asyncio.sleep(0.02)
    else:
        raise AssertionError("closing the Makefile left its diagnostics")
    assert await _actions(client, uri) == []


async def test_a_subdirectory_file_relies_on_the_top_level_finding_the_toolkit(
    client: LanguageClient, tmp_path: Path
) -> None:
    sub = "add_library(v STATIC v.cu)\ntarget_link_libraries(v PUBLIC CUDA::cublas)\n"
    (tmp_path / "src").mkdir()
    alone = uris.from_fs_path(str(tmp_path / "src" / "CMakeLists.txt")) or ""
    open_document(client, alone, sub, language_id="cmake")
    ported = apply_text_edits(sub, _edits((await _actions(client, alone))[0]))
    assert "find_package(hipblas REQUIRED)" in ported  # nothing around it finds the toolkit
    (tmp_path / "CMakeLists.txt").write_text("project(p LANGUAGES CXX CUDA)\nfind_package(CUDAToolkit REQUIRED)\n"
                                             "add_subdirectory(src)\n")
    ported = apply_text_edits(sub, _edits((await _actions(client, alone))[0]))
    assert "find_package" not in ported and "roc::hipblas" in ported
