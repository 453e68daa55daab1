"""Translation features as an editor sees them: portability diagnostics, translate code actions
(lazy through codeAction/resolve and computed inline), quick fixes, and API hover.

Three clients: VS Code and Neovim 0.7 (both resolve edits lazily; Neovim 0.7 advertises neither
documentChanges nor disabled actions), and a VS Code variant without resolve support, which must
get its edits inline.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable, Sequence
from pathlib import Path

import attrs
import pytest
import pytest_lsp
from lsprotocol import types
from pygls.exceptions import JsonRpcException
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

from cass_lsp import toolchains
from cass_lsp.core import proc
from cass_lsp.translate import TargetProfile, translate
from tests.lsp.conftest import PROFILES, SERVER, apply_text_edits, open_document

CLIENTS = ("vscode", "neovim", "no-resolve")
TARGET = {"arch": "gfx1100", "rocm": "5.2"}
# listings compiled on open would add their own diagnostics and load the machine for nothing here
SETTINGS = {"target": TARGET, "asm": {"compileOnOpen": False}}
SOURCE = "cass-lsp"
PROFILE = TargetProfile(arch="gfx1100", rocm="5.2")

# BOM, CRLF with one bare-LF line, non-ASCII text (2- and 4-byte UTF-8, a surrogate pair in UTF-16),
# CUDA names in a comment and a string (they stay), a macro wrapping API calls, a kernel launch.
SAMPLE = (
    "\ufeff#include <cuda_runtime.h>\r\n"
    "#include <cstdio>\r\n"
    "// Größe und Überblick: cudaMalloc in a comment stays 😀\r\n"
    '#define CHECK(call) do { cudaError_t e = (call); if (e != cudaSuccess) printf("%s\\n", cudaGetErrorString(e)); } while (0)\r\n'
    "\r\n"
    "__device__ float warp_sum(float v) {\r\n"
    "  for (int offset = 16; offset > 0; offset >>= 1) v += __shfl_down_sync(0xffffffff, v, offset);\r\n"
    "  return v;\r\n"
    "}\r\n"
    "\n"
    "__global__ void reduce(const float* x, float* out, int n) {\r\n"
    "  __shared__ float partial[32];\r\n"
    "  int i = blockIdx.x * blockDim.x + threadIdx.x;\r\n"
    "  float v = warp_sum(i < n ? x[i] : 0.0f);  // Σ über 😀\r\n"
    "  if (threadIdx.x % 32 == 0) partial[threadIdx.x / 32] = v;\r\n"
    "  __syncthreads();\r\n"
    "  if (threadIdx.x == 0) atomicAdd(out, partial[0]);\r\n"
    "}\r\n"
    "\r\n"
    "int main() {\r\n"
    "  float *x, *out;\r\n"
    '  const char* label = "cudaMalloc stays in strings";\r\n'
    "  CHECK(cudaMalloc(&x, 256 * sizeof(float)));\r\n"
    "  CHECK(cudaMalloc(&out, sizeof(float)));\r\n"
    "  cudaStream_t stream;\r\n"
    "  cudaStreamCreate(&stream);\r\n"
    "  reduce<<<1, 256, 0, stream>>>(x, out, 256);\r\n"
    "  cudaStreamSynchronize(stream);\r\n"
    "  cudaFree(x);\r\n"
    "  cudaFree(out);\r\n"
    '  printf("%s\\n", label);\r\n'
    "  return 0;\r\n"
    "}\r\n"
)

PORTABILITY = (
    "#include <cuda_runtime.h>\n"
    "__device__ int lane_id() {\n"
    "  register int lane = 0;\n"
    '  asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));\n'
    "  return lane;\n"
    "}\n"
    "void planes(cudaArray_t a, cudaArray_t* plane) {\n"
    "  cudaArrayGetPlane(plane, a, 0);\n"
    "}\n"
)

HIP_SAMPLE = (
    "#include <hip/hip_runtime.h>\n"
    "__global__ void fill(float* x, int n) {\n"
    "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "  if (i < n) x[i] = 1.0f;\n"
    "}\n"
    "int main() {\n"
    "  float* d;\n"
    "  hipMalloc(&d, 64 * sizeof(float));\n"
    "  hipLaunchKernelGGL(fill, dim3(1), dim3(64), 0, 0, d, 64);\n"
    "  hipDeviceSynchronize();\n"
    "  hipFree(d);\n"
    "}\n"
)


def capabilities(name: str) -> types.ClientCapabilities:
    if name != "no-resolve":
        return client_capabilities(PROFILES[name])
    caps = client_capabilities(PROFILES["vscode"])
    assert caps.text_document is not None and caps.text_document.code_action is not None
    code_action = attrs.evolve(caps.text_document.code_action, resolve_support=None)
    return attrs.evolve(caps, text_document=attrs.evolve(caps.text_document, code_action=code_action))


@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER), params=CLIENTS, scope="module")
async def client(lsp_client: LanguageClient, request: pytest.FixtureRequest) -> AsyncIterator[None]:
    lsp_client.set_configuration(SETTINGS, section="cass")
    lsp_client.profile = request.param  # type: ignore[attr-defined]
    lsp_client.initialize_result = await lsp_client.initialize_session(  # type: ignore[attr-defined]
        types.InitializeParams(
            capabilities=capabilities(request.param),
            root_uri="file:///workspace",
            initialization_options={**SETTINGS, "diagnostics": {"debounceMs": 30}},
        )
    )
    yield
    await lsp_client.shutdown_session()


# ---------------------------------------------------------------------- helpers


def profile(client: LanguageClient) -> str:
    return str(client.profile)  # type: ignore[attr-defined]


def lazy(client: LanguageClient) -> bool:
    return profile(client) != "no-resolve"


def versioned(client: LanguageClient) -> bool:
    """The client advertises documentChanges (Neovim 0.7 does not)."""
    return profile(client) != "neovim"


def td(uri: str) -> types.TextDocumentIdentifier:
    return types.TextDocumentIdentifier(uri=uri)


def at(text: str, needle: str, delta: int = 0) -> types.Position:
    """The LSP position (UTF-16) of `needle` in `text`, plus `delta` characters."""
    index = text.index(needle) + delta
    line = text.count("\n", 0, index)
    column = text[text.rfind("\n", 0, index) + 1 : index]
    return types.Position(line=line, character=len(column.encode("utf-16-le")) // 2)


def span(text: str, needle: str) -> types.Range:
    return types.Range(start=at(text, needle), end=at(text, needle, len(needle)))


def change(client: LanguageClient, uri: str, version: int, rng: types.Range, new_text: str) -> None:
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
            content_changes=[types.TextDocumentContentChangePartial(range=rng, text=new_text)],
        )
    )


def ours(diagnostics: Sequence[types.Diagnostic]) -> list[types.Diagnostic]:
    return [d for d in diagnostics if d.source == SOURCE]


async def wait_diagnostics(
    client: LanguageClient, uri: str, ready: Callable[[list[types.Diagnostic]], bool]
) -> list[types.Diagnostic]:
    for _ in range(600):
        found = client.diagnostics.get(uri)
        if found is not None and ready(ours(found)):
            return ours(found)
        await asyncio.sleep(0.02)
    raise AssertionError(f"diagnostics for {uri} never matched: {client.diagnostics.get(uri)}")


async def publication(client: LanguageClient, uri: str, version: int) -> types.PublishDiagnosticsParams:
    """The publication for `uri` at `version`; call before the change that triggers it."""
    while True:
        waiting = client.protocol.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        params: types.PublishDiagnosticsParams = await asyncio.wait_for(asyncio.wrap_future(waiting), 20)
        if params.uri == uri and params.version == version:
            return params


async def code_actions(
    client: LanguageClient,
    uri: str,
    rng: types.Range,
    only: list[types.CodeActionKind] | None = None,
    diagnostics: Sequence[types.Diagnostic] = (),
) -> list[types.CodeAction]:
    result = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=td(uri),
            range=rng,
            context=types.CodeActionContext(diagnostics=list(diagnostics), only=only),
        )
    )
    actions = [a for a in result or [] if isinstance(a, types.CodeAction)]
    for action in actions:
        if action.kind != types.CodeActionKind.QuickFix and action.disabled is None:
            # lazy clients get the edit from resolve, the others in the list itself
            assert (action.edit is None) == lazy(client), action
    return actions


async def know_file_translation(client: LanguageClient, uri: str) -> None:
    """Make the server compute the whole file's translation at its current version (as the
    diagnostics pass does after its debounce), by resolving "Translate file"."""
    start = types.Position(line=0, character=0)
    action = titled(await code_actions(client, uri, types.Range(start=start, end=start)), "Translate file to HIP")
    await resolved(client, action)


async def wait_message(client: LanguageClient, text: str) -> None:
    for _ in range(250):
        if any(text in m.message for m in client.messages):
            return
        await asyncio.sleep(0.02)
    raise AssertionError(f"no message {text!r} in {[m.message for m in client.messages]}")


def titled(actions: list[types.CodeAction], title: str) -> types.CodeAction:
    matching = [a for a in actions if a.title == title]
    assert matching, f"no action {title!r} in {[a.title for a in actions]}"
    return matching[0]


async def resolved(client: LanguageClient, action: types.CodeAction) -> types.WorkspaceEdit:
    if action.edit is None:
        action = await client.code_action_resolve_async(action)
    assert action.edit is not None
    return action.edit


def edits_of(client: LanguageClient, edit: types.WorkspaceEdit, uri: str, version: int | None) -> list[types.TextEdit]:
    """The text edits for `uri`, checking they are tied to `version` where the client can check."""
    if not versioned(client):
        assert edit.document_changes is None and edit.changes is not None
        return list(edit.changes[uri])
    assert edit.changes is None and edit.document_changes is not None
    found = [c for c in edit.document_changes if isinstance(c, types.TextDocumentEdit) and c.text_document.uri == uri]
    assert len(found) == 1
    assert found[0].text_document.version == version
    return [e for e in found[0].edits if isinstance(e, types.TextEdit)]


def unchanged_outside(original: str, edited: str, lo: int, hi: int) -> None:
    """`edited` keeps `original` byte for byte before `lo` and after `hi` (offsets into original)."""
    tail = len(original) - hi
    assert edited[:lo] == original[:lo]
    assert edited[len(edited) - tail :] == original[hi:]


# ---------------------------------------------------------------------- capabilities


async def test_server_advertises_actions_with_resolve_and_hover(client: LanguageClient) -> None:
    caps = client.initialize_result.capabilities  # type: ignore[attr-defined]
    provider = caps.code_action_provider
    assert isinstance(provider, types.CodeActionOptions) and provider.resolve_provider
    assert set(provider.code_action_kinds or []) == {"quickfix", "refactor.rewrite", "source"}
    assert caps.hover_provider


# ---------------------------------------------------------------------- diagnostics


async def test_diagnostics_for_unsupported_api_inline_ptx_and_nvcc_isms(client: LanguageClient) -> None:
    uri = "file:///workspace/portability.cu"
    published = asyncio.ensure_future(publication(client, uri, 7))
    await asyncio.sleep(0)
    open_document(client, uri, PORTABILITY, version=7)
    params = await published
    by_code = {d.code: d for d in ours(params.diagnostics)}
    assert set(by_code) == {"nvcc-ism", "inline-ptx", "unsupported-api"}

    unsupported = by_code["unsupported-api"]
    assert unsupported.severity == types.DiagnosticSeverity.Error
    assert unsupported.range == span(PORTABILITY, "cudaArrayGetPlane")
    assert "CUDA 11.2" in unsupported.message and "no HIP equivalent" in unsupported.message

    ptx = by_code["inline-ptx"]
    assert ptx.severity == types.DiagnosticSeverity.Warning
    assert ptx.range.start == at(PORTABILITY, "asm volatile")
    assert "model" in ptx.message

    assert by_code["nvcc-ism"].severity == types.DiagnosticSeverity.Information
    assert by_code["nvcc-ism"].range == span(PORTABILITY, "register")


async def test_quick_fix_applies_the_findings_fix(client: LanguageClient) -> None:
    uri = "file:///workspace/quickfix.cu"
    open_document(client, uri, PORTABILITY, version=3)
    found = await wait_diagnostics(client, uri, lambda ds: any(d.code == "nvcc-ism" for d in ds))
    register = next(d for d in found if d.code == "nvcc-ism")
    actions = await code_actions(
        client, uri, register.range, only=[types.CodeActionKind.QuickFix], diagnostics=[register]
    )
    assert [a.title for a in actions] == ["Remove `register`"]
    fix = actions[0]
    assert fix.kind == types.CodeActionKind.QuickFix and list(fix.diagnostics or []) == [register]
    assert fix.edit is not None
    text = apply_text_edits(PORTABILITY, edits_of(client, fix.edit, uri, 3))
    assert text == PORTABILITY.replace("register int lane", "int lane")

    # diagnostics without a fix get no quick fix; a diagnostic from another version gets none either
    ptx = next(d for d in found if d.code == "inline-ptx")
    assert await code_actions(client, uri, ptx.range, only=[types.CodeActionKind.QuickFix], diagnostics=[ptx]) == []
    change(client, uri, 4, types.Range(start=at(PORTABILITY, "void planes"), end=at(PORTABILITY, "void planes")), "\n")
    assert await code_actions(client, uri, register.range, [types.CodeActionKind.QuickFix], [register]) == []


async def test_warp_size_findings_follow_the_target_profile(client: LanguageClient) -> None:
    uri = "file:///workspace/warp.cu"
    open_document(client, uri, SAMPLE)
    found = await wait_diagnostics(client, uri, lambda ds: True)
    assert not [d for d in found if d.code == "warp-size-assumption"]  # gfx1100 is wave32

    wave64 = {**SETTINGS, "target": {"arch": "gfx942", "rocm": "5.2"}}
    client.set_configuration(wave64, section="cass")
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings={"cass": wave64}))
    found = await wait_diagnostics(client, uri, lambda ds: any(d.code == "warp-size-assumption" for d in ds))
    warp = [d for d in found if d.code == "warp-size-assumption"]
    assert all("gfx942" in d.message and d.severity == types.DiagnosticSeverity.Warning for d in warp)
    lines = {d.range.start.line for d in warp}
    assert lines == {at(SAMPLE, "offset = 16").line, at(SAMPLE, "threadIdx.x % 32").line}

    client.set_configuration(SETTINGS, section="cass")
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings={"cass": SETTINGS}))
    await wait_diagnostics(client, uri, lambda ds: not any(d.code == "warp-size-assumption" for d in ds))


async def test_diagnostics_follow_edits_and_clear_on_close(client: LanguageClient) -> None:
    uri = "file:///workspace/typing.cu"
    open_document(client, uri, PORTABILITY)
    await wait_diagnostics(client, uri, lambda ds: any(d.code == "unsupported-api" for d in ds))
    # a burst of edits: only the text after the last one counts
    for version in range(2, 12):
        change(
            client,
            uri,
            version,
            types.Range(start=at(PORTABILITY, "void planes"), end=at(PORTABILITY, "void planes")),
            " ",
        )
    line = at(PORTABILITY, "cudaArrayGetPlane")
    published = asyncio.ensure_future(publication(client, uri, 12))
    await asyncio.sleep(0)
    change(
        client,
        uri,
        12,
        types.Range(start=line, end=types.Position(line=line.line, character=line.character + 17)),
        "cudaDeviceReset",
    )
    params = await published
    assert {d.code for d in ours(params.diagnostics)} == {"nvcc-ism", "inline-ptx"}
    await asyncio.sleep(0.3)
    assert ours(client.diagnostics[uri]) == ours(params.diagnostics)  # no result for an older version came after it

    client.text_document_did_close(types.DidCloseTextDocumentParams(text_document=td(uri)))
    await wait_diagnostics(client, uri, lambda ds: len(ds) == 0)


# ---------------------------------------------------------------------- translate actions


async def test_translate_file_in_place_keeps_every_other_byte(client: LanguageClient) -> None:
    uri = "file:///workspace/inplace.cu"
    open_document(client, uri, SAMPLE, version=5)
    actions = await code_actions(client, uri, types.Range(start=at(SAMPLE, "int main"), end=at(SAMPLE, "int main")))
    assert [a.title for a in actions] == [
        "Translate file to HIP",
        "Create HIP translation inplace.hip",
    ]
    action = titled(actions, "Translate file to HIP")
    assert action.kind == types.CodeActionKind.Source
    edits = edits_of(client, await resolved(client, action), uri, 5)
    expected = translate(SAMPLE, PROFILE)
    assert len(edits) == len(expected.edits)  # token-sized edits, never the whole document
    text = apply_text_edits(SAMPLE, edits)
    assert text == expected.text
    assert text.startswith("\ufeff#include <hip/hip_runtime.h>\r\n")
    assert "// Größe und Überblick: cudaMalloc in a comment stays 😀\r\n" in text
    assert '"cudaMalloc stays in strings"' in text
    assert "CHECK(hipMalloc(&x, 256 * sizeof(float)));\r\n" in text
    assert "__shfl_down(v, offset)" in text  # ROCm 5.2 has no *_sync shuffles
    assert "}\r\n\n__global__" in text  # the bare-LF line stays bare
    assert text.count("\r\n") == SAMPLE.count("\r\n")


async def test_translate_kernel_changes_only_that_function(client: LanguageClient) -> None:
    uri = "file:///workspace/kernel.cu"
    open_document(client, uri, SAMPLE, version=2)
    cursor = at(SAMPLE, "__shfl_down_sync")
    actions = await code_actions(client, uri, types.Range(start=cursor, end=cursor))
    action = titled(actions, "Translate device function warp_sum to HIP")
    assert action.kind == types.CodeActionKind.RefactorRewrite
    text = apply_text_edits(SAMPLE, edits_of(client, await resolved(client, action), uri, 2))
    lo = SAMPLE.index("__device__ float warp_sum")
    hi = SAMPLE.index("}\r\n\n__global__") + 1
    unchanged_outside(SAMPLE, text, lo, hi)
    assert "v += __shfl_down(v, offset);" in text
    assert "cuda_runtime.h" in text and "cudaMalloc(&x" in text

    # reduce has nothing to translate: once the file's translation is known, it is not offered
    await know_file_translation(client, uri)
    cursor = at(SAMPLE, "__syncthreads")
    titles = [a.title for a in await code_actions(client, uri, types.Range(start=cursor, end=cursor))]
    assert "Translate kernel reduce to HIP" not in titles and "Translate file to HIP" in titles
    # host code offers no kernel action
    cursor = at(SAMPLE, "cudaStreamCreate")
    titles = [a.title for a in await code_actions(client, uri, types.Range(start=cursor, end=cursor))]
    assert not [t for t in titles if t.startswith("Translate kernel") or t.startswith("Translate device")]


async def test_translate_selection(client: LanguageClient) -> None:
    uri = "file:///workspace/selection.cu"
    open_document(client, uri, SAMPLE, version=9)
    selected = "  cudaStream_t stream;\r\n  cudaStreamCreate(&stream);\r\n"
    start = SAMPLE.index(selected)
    rng = types.Range(start=at(SAMPLE, selected), end=at(SAMPLE, selected, len(selected)))
    actions = await code_actions(client, uri, rng, only=[types.CodeActionKind.Refactor])
    assert [a.title for a in actions] == ["Translate selection to HIP"]
    text = apply_text_edits(SAMPLE, edits_of(client, await resolved(client, actions[0]), uri, 9))
    assert text == SAMPLE.replace(selected, "  hipStream_t stream;\r\n  hipStreamCreate(&stream);\r\n")
    unchanged_outside(SAMPLE, text, start, start + len(selected))

    # once the file's translation is known, a selection with nothing to translate is not offered
    # at all (an offered action must not fail)
    await know_file_translation(client, uri)
    plain = "  float *x, *out;\r\n"
    rng = types.Range(start=at(SAMPLE, plain), end=at(SAMPLE, plain, len(plain)))
    titles = [a.title for a in await code_actions(client, uri, rng)]
    assert "Translate selection to HIP" not in titles and "Translate file to HIP" in titles


async def test_context_only_filters_kinds(client: LanguageClient) -> None:
    uri = "file:///workspace/only.cu"
    open_document(client, uri, SAMPLE)
    cursor = at(SAMPLE, "__shfl_down_sync")
    rng = types.Range(start=cursor, end=cursor)
    source = await code_actions(client, uri, rng, only=[types.CodeActionKind.Source])
    assert {a.kind for a in source} == {types.CodeActionKind.Source} and len(source) == 2
    rewrite = await code_actions(client, uri, rng, only=[types.CodeActionKind.RefactorRewrite])
    assert [a.title for a in rewrite] == ["Translate device function warp_sum to HIP"]
    assert await code_actions(client, uri, rng, only=[types.CodeActionKind.RefactorExtract]) == []


async def test_stale_version_is_refused(client: LanguageClient) -> None:
    uri = "file:///workspace/stale.cu"
    open_document(client, uri, SAMPLE, version=1)
    rng = types.Range(start=at(SAMPLE, "int main"), end=at(SAMPLE, "int main"))
    action = titled(await code_actions(client, uri, rng), "Translate file to HIP")
    change(client, uri, 2, types.Range(start=at(SAMPLE, "int main"), end=at(SAMPLE, "int main")), "// edited\r\n")
    if action.edit is None:
        with pytest.raises(JsonRpcException, match="changed since this action was offered"):
            await client.code_action_resolve_async(action)
    else:
        # an inline edit is tied to the version it was made for, so the editor refuses it itself
        doc_edit = action.edit.document_changes[0]  # type: ignore[index]
        assert isinstance(doc_edit, types.TextDocumentEdit) and doc_edit.text_document.version == 1
    # asked again, the action is for the new text
    fresh = titled(await code_actions(client, uri, rng), "Translate file to HIP")
    edited = SAMPLE.replace("int main", "// edited\r\nint main", 1)
    assert (
        apply_text_edits(edited, edits_of(client, await resolved(client, fresh), uri, 2))
        == translate(edited, PROFILE).text
    )


async def test_create_translation_never_overwrites_an_existing_file(client: LanguageClient, tmp_path: Path) -> None:
    source = tmp_path / "saxpy.cu"
    source.write_text(SAMPLE, encoding="utf-8", newline="")
    uri = source.as_uri()
    target = tmp_path / "saxpy.hip"
    open_document(client, uri, SAMPLE)
    rng = types.Range(start=at(SAMPLE, "int main"), end=at(SAMPLE, "int main"))
    create = titled(await code_actions(client, uri, rng), "Create HIP translation saxpy.hip")
    edit = await resolved(client, create)
    expected = translate(SAMPLE, PROFILE).text
    if versioned(client):
        assert edit.document_changes is not None
        created, filled = edit.document_changes
        assert isinstance(created, types.CreateFile) and created.uri == target.as_uri()
        assert created.options is None  # fails on a file that appeared meanwhile; never ignoreIfExists
        assert isinstance(filled, types.TextDocumentEdit) and filled.text_document.uri == target.as_uri()
        inserted = filled.edits
    else:
        assert edit.changes is not None  # no CreateFile support: a new buffer for the missing file
        inserted = edit.changes[target.as_uri()]
    assert apply_text_edits("", [e for e in inserted if isinstance(e, types.TextEdit)]) == expected

    target.write_text("// someone's own HIP port\n", encoding="utf-8")
    actions = await code_actions(client, uri, rng)
    titles = [a.title for a in actions]
    assert "Create HIP translation saxpy.hip" not in titles
    if lazy(client):
        # the action offered before the file appeared is refused on resolve, not applied
        with pytest.raises(JsonRpcException, match=r"saxpy\.hip exists"):
            await client.code_action_resolve_async(create)
    if not versioned(client):
        assert not [t for t in titles if "saxpy.hip" in t]  # a client without CreateFile cannot overwrite
        return
    overwrite = titled(actions, "Overwrite saxpy.hip with HIP translation")
    assert overwrite.kind == types.CodeActionKind.Source
    edit = await resolved(client, overwrite)
    assert edit.document_changes is not None
    created, filled = edit.document_changes
    assert isinstance(created, types.CreateFile) and created.options is not None and created.options.overwrite
    assert isinstance(filled, types.TextDocumentEdit)
    assert apply_text_edits("", [e for e in filled.edits if isinstance(e, types.TextEdit)]) == expected
    assert target.read_text(encoding="utf-8") == "// someone's own HIP port\n"  # the server wrote nothing


async def test_a_linked_document_gets_no_new_file(client: LanguageClient, tmp_path: Path) -> None:
    """``saxpy.cu -> ~/.ssh/id_ed25519``: the editor sends the key's text; no action writes it into a
    new regular file (which the user would commit), as ``cass-lsp translate`` leaves links alone."""
    secret = tmp_path / "elsewhere" / "id_ed25519"
    secret.parent.mkdir()
    secret.write_text(SAMPLE, encoding="utf-8", newline="")
    (tmp_path / "saxpy.cu").symlink_to(secret)
    uri = (tmp_path / "saxpy.cu").as_uri()
    open_document(client, uri, SAMPLE)
    rng = types.Range(start=at(SAMPLE, "int main"), end=at(SAMPLE, "int main"))
    titles = [a.title for a in await code_actions(client, uri, rng)]
    assert "Translate file to HIP" in titles  # the document itself, through the editor
    assert not [t for t in titles if "saxpy.hip" in t], titles
    assert not (tmp_path / "saxpy.hip").exists()


async def test_hip_documents_translate_back_to_cuda(client: LanguageClient, tmp_path: Path) -> None:
    uri = (tmp_path / "fill.hip").as_uri()
    open_document(client, uri, HIP_SAMPLE, language_id="hip", version=4)
    # nothing says yet whether the kernel has anything to translate back: offered, and resolving it
    # answers an empty edit and a message, never an error popup
    cursor = at(HIP_SAMPLE, "threadIdx")
    kernel = titled(await code_actions(client, uri, types.Range(start=cursor, end=cursor)), "Translate kernel fill to CUDA")
    assert edits_of(client, await resolved(client, kernel), uri, 4) == []
    await wait_message(client, "nothing to translate in this function")
    # once the file's translation is known, the kernel is not offered any more
    cursor = at(HIP_SAMPLE, "hipMalloc")
    actions = await code_actions(client, uri, types.Range(start=cursor, end=cursor))
    assert [a.title for a in actions] == ["Translate file to CUDA", "Create CUDA translation fill.cu"]
    text = apply_text_edits(HIP_SAMPLE, edits_of(client, await resolved(client, actions[0]), uri, 4))
    assert text == translate(HIP_SAMPLE, PROFILE, reverse=True).text
    assert "#include <cuda_runtime.h>" in text and "fill<<<1, 64>>>(d, 64);" in text
    assert "cudaMalloc(&d" in text and "hip" not in text.replace("HIP", "")

    cursor = at(HIP_SAMPLE, "threadIdx")
    actions = await code_actions(client, uri, types.Range(start=cursor, end=cursor))
    assert "Translate kernel fill to CUDA" not in [a.title for a in actions]


async def test_translated_file_compiles_with_clang_for_gfx1100(client: LanguageClient, tmp_path: Path) -> None:
    uri = "file:///workspace/compile.cu"
    open_document(client, uri, SAMPLE, version=1)
    rng = types.Range(start=at(SAMPLE, "int main"), end=at(SAMPLE, "int main"))
    action = titled(await code_actions(client, uri, rng), "Translate file to HIP")
    text = apply_text_edits(SAMPLE, edits_of(client, await resolved(client, action), uri, 1))
    path = tmp_path / "compile.hip"
    path.write_bytes(text.encode("utf-8"))
    hip = toolchains.hip_invocation("gfx1100", rocm="5.2")
    result = await asyncio.to_thread(proc.run, [*hip.argv, "-fsyntax-only", str(path)], env=hip.env, timeout=300)
    assert result.ok, result.text()
    # the original is not HIP: the same compiler rejects it, so the check above means something
    original = tmp_path / "original.hip"
    original.write_bytes(SAMPLE.encode("utf-8"))
    rejected = await asyncio.to_thread(proc.run, [*hip.argv, "-fsyntax-only", str(original)], env=hip.env, timeout=300)
    assert not rejected.ok and "cuda_runtime.h" in rejected.text()


async def test_text_the_engine_cannot_take_is_refused_not_mangled(client: LanguageClient) -> None:
    uri = "file:///workspace/surrogate.cu"
    text = "// a lone surrogate from a broken paste: \ud800\nvoid f() { cudaDeviceReset(); }\n"
    open_document(client, uri, text)
    cursor = at(text, "cudaDeviceReset")
    actions = await code_actions(client, uri, types.Range(start=cursor, end=cursor))
    if lazy(client):
        action = titled(actions, "Translate file to HIP")
        with pytest.raises(JsonRpcException, match="unpaired UTF-16 surrogate"):
            await client.code_action_resolve_async(action)
    else:
        # an inline client that shows disabled actions learns why; none of them carries an edit
        assert actions and all(a.edit is None and a.disabled is not None for a in actions)
        assert "unpaired UTF-16 surrogate" in titled(actions, "Translate file to HIP").disabled.reason  # type: ignore[union-attr]


# ---------------------------------------------------------------------- hover


async def hover_text(client: LanguageClient, uri: str, position: types.Position) -> str | None:
    result = await client.text_document_hover_async(types.HoverParams(text_document=td(uri), position=position))
    if result is None:
        return None
    assert isinstance(result.contents, types.MarkupContent)
    assert result.contents.kind == types.MarkupKind.Markdown
    return result.contents.value


async def test_hover_shows_hip_equivalents_and_support(client: LanguageClient) -> None:
    uri = "file:///workspace/hover.cu"
    text = (
        "#include <cublas_v2.h>\n"
        "#include <cudnn.h>\n"
        "// cudaMalloc in a comment\n"
        "void f(cublasHandle_t h, cudnnHandle_t dnn, int count) {\n"
        "  float* p;\n"
        "  cudaMalloc(&p, count);\n"
        "  cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 1, 1, 1, 0, p, 1, p, 1, 0, p, 1);\n"
        "  cudnnConvolutionForward(dnn, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);\n"
        "  cudaArrayGetPlane(0, 0, 0);\n"
        "  cudaGraphInstantiateWithParams(0, 0, 0);\n"
        "}\n"
    )
    open_document(client, uri, text)
    malloc = await hover_text(client, uri, at(text, "cudaMalloc(&p", 3))
    assert malloc is not None and "`hipMalloc`" in malloc and "supported on the target (ROCm 5.2, gfx1100)" in malloc
    assert "since 1.5.0" in malloc
    result = await client.text_document_hover_async(
        types.HoverParams(text_document=td(uri), position=at(text, "cudaMalloc(&p", 3))
    )
    assert result is not None
    assert result.range == types.Range(start=at(text, "cudaMalloc(&p"), end=at(text, "cudaMalloc(&p", 10))

    sgemm = await hover_text(client, uri, at(text, "cublasSgemm"))
    assert sgemm is not None and "`hipblasSgemm`" in sgemm and "**rocBLAS** `rocblas_sgemm`" in sgemm
    dnn = await hover_text(client, uri, at(text, "cudnnConvolutionForward"))
    assert dnn is not None and "**not supported**" in dnn and "**MIOpen** `miopenConvolutionForward`" in dnn
    plane = await hover_text(client, uri, at(text, "cudaArrayGetPlane"))
    assert plane is not None and "HIP has no equivalent" in plane and "since 11.2" in plane

    graph = await hover_text(client, uri, at(text, "cudaGraphInstantiateWithParams"))
    assert graph is not None and "**not available** on the target (ROCm 5.2, gfx1100); since 6.2.0" in graph

    assert await hover_text(client, uri, at(text, "count);")) is None  # a user's name
    assert await hover_text(client, uri, at(text, "cudaMalloc in a comment")) is None
    assert await hover_text(client, uri, at(text, "float* p")) is None


async def test_hover_on_hip_names_names_the_cuda_original(client: LanguageClient) -> None:
    uri = "file:///workspace/hover.hip"
    open_document(client, uri, HIP_SAMPLE, language_id="hip")
    text = await hover_text(client, uri, at(HIP_SAMPLE, "hipDeviceSynchronize"))
    assert text is not None and text.startswith("**`hipDeviceSynchronize`** ← CUDA **`cudaDeviceSynchronize`**")
