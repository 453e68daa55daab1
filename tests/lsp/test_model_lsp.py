"""The CASS model path end to end through the real server over stdio, with the tiny GGUF the
project generates, loaded by the real llama-cpp-python in the server's model worker process, and
compiled with the real clang-19; the worker killed by real signals mid-generation."""

from __future__ import annotations

import ast
import asyncio
import os
import signal
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

from cass_lsp.infer.tiny_model import write_tiny_model
from cass_lsp.server.convert import json_value
from tests.lsp.conftest import SERVER, apply_text_edits, open_document

CUDA = """#include <cuda_runtime.h>

__global__ void saxpy(int n, float a, const float* x, float* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

int main() {
  float *x, *y;
  cudaMalloc(&x, 1024 * sizeof(float));
  cudaMalloc(&y, 1024 * sizeof(float));
  saxpy<<<4, 256>>>(1024, 2.0f, x, y);
  cudaDeviceSynchronize();
  cudaFree(x);
  cudaFree(y);
  return 0;
}
"""
# An answer may take about twice the region's tokens: a kernel with a long note lets the endless
# model stream for seconds (about 3,000 tokens), long enough to cancel it or time it out.
LONG_NOTE = "  // " + "a long note on the kernel " * 100 + "\n"
LONG_CUDA = CUDA.replace("y[i] = a * x[i] + y[i];\n", "y[i] = a * x[i] + y[i];\n" + LONG_NOTE, 1)
HIP_KERNEL = """__global__ void saxpy(int n, float a, const float* x, float* y) {
  int i = hipBlockIdx_x * hipBlockDim_x + hipThreadIdx_x;
  if (i < n) y[i] = a * x[i] + y[i];
}"""
BROKEN_KERNEL = """__global__ void saxpy(int n, float a, const float* x, float* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y_undeclared[i];
}"""


def fenced(code: str) -> str:
    return f"```amd\n{code}\n```"


@pytest.fixture(scope="module")
def models(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("models")
    made = {
        "good": (fenced(HIP_KERNEL), False),
        "broken": (fenced(BROKEN_KERNEL), False),
        "endless": (fenced(HIP_KERNEL), True),
    }
    paths = {}
    for name, (answer, endless) in made.items():
        paths[name] = folder / f"cass-tiny-{name}.gguf"
        write_tiny_model(paths[name], answer, endless=endless)
    truncated = folder / "truncated.gguf"
    truncated.write_bytes(paths["good"].read_bytes()[:5000])
    paths["truncated"] = truncated
    paths["not-gguf"] = folder / "notes.gguf"
    paths["not-gguf"].write_text("this is not a model\n")
    return paths


def model_settings(path: Path, **extra: Any) -> dict[str, Any]:
    return {
        "target": {"arch": "gfx1100", "rocm": "5.2"},
        "asm": {"targets": ["gfx1100"], "compileOnOpen": False},
        "model": {"name": str(path), "nThreads": 1, "nCtx": 2048, "maxTokens": 400, **extra},
    }


@asynccontextmanager
async def session(
    tmp_path: Path, settings: dict[str, Any], extra_env: dict[str, str] | None = None
) -> AsyncIterator[LanguageClient]:
    env = {**os.environ, "CASS_LSP_CONFIG_DIR": str(tmp_path / "config"), "OMP_WAIT_POLICY": "PASSIVE", **(extra_env or {})}
    client = await ClientServerConfig(server_command=SERVER, server_env=env).start(devtools=None)
    client.applied = []  # type: ignore[attr-defined]
    client.texts = {}  # type: ignore[attr-defined]

    @client.feature(types.WORKSPACE_APPLY_EDIT)
    def apply_edit(params: types.ApplyWorkspaceEditParams) -> types.ApplyWorkspaceEditResult:
        client.applied.append(params)  # type: ignore[attr-defined]
        for change in params.edit.document_changes or []:
            assert isinstance(change, types.TextDocumentEdit)
            uri, version = change.text_document.uri, change.text_document.version
            text = apply_text_edits(client.texts[uri], list(change.edits))  # type: ignore[attr-defined]
            client.texts[uri] = text  # type: ignore[attr-defined]
            assert version is not None
            client.text_document_did_change(
                types.DidChangeTextDocumentParams(
                    text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version + 1),
                    content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)],
                )
            )
        return types.ApplyWorkspaceEditResult(applied=True)

    await client.initialize_session(
        types.InitializeParams(
            capabilities=client_capabilities("visual-studio-code"),
            # the model is a file's path: it applies only in a trusted workspace
            initialization_options={**settings, "workspaceTrusted": True},
        )
    )
    try:
        yield client
    finally:
        await client.shutdown_session()


async def diagnostics_where(
    client: LanguageClient, uri: str, wanted: Callable[[types.Diagnostic], bool]
) -> list[types.Diagnostic]:
    """The document's published diagnostics that ``wanted`` accepts, once there are some (10 s)."""
    found: list[types.Diagnostic] = []
    for _ in range(200):
        found = [d for d in client.diagnostics.get(uri, []) if wanted(d)]
        if found:
            break
        await asyncio.sleep(0.05)
    return found


def open_cuda(client: LanguageClient, tmp_path: Path, name: str = "saxpy.cu", text: str = CUDA) -> str:
    path = tmp_path / name
    path.write_text(text)
    uri = path.as_uri()
    client.texts[uri] = text  # type: ignore[attr-defined]
    open_document(client, uri, text)
    return uri


async def model_action(client: LanguageClient, uri: str, title: str) -> types.CodeAction | types.Command:
    """The action titled so; lsprotocol's client reads a CodeAction that carries a command as a
    Command (VS Code and Neovim read it as the CodeAction it is), so either comes back."""
    line = CUDA.splitlines().index("  if (i < n) y[i] = a * x[i] + y[i];")
    result = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            range=types.Range(start=types.Position(line, 4), end=types.Position(line, 4)),
            context=types.CodeActionContext(diagnostics=[]),
        )
    )
    found = [a for a in result or [] if a.title == title]
    assert found, [a.title for a in result or []]
    return found[0]


async def execute(client: LanguageClient, action: types.CodeAction | types.Command) -> dict[str, Any]:
    command: Any = action.command
    if isinstance(command, types.Command):
        name, arguments = command.command, command.arguments
    else:  # lsprotocol read the CodeAction as a Command whose `command` is the whole Command's repr
        spec = ast.literal_eval(command)
        name, arguments = spec["command"], spec["arguments"]
    reply = await client.workspace_execute_command_async(types.ExecuteCommandParams(command=name, arguments=arguments))
    result = json_value(reply)
    assert isinstance(result, dict)
    return result


async def test_translate_kernel_with_the_model_end_to_end(tmp_path: Path, models: dict[str, Path]) -> None:
    async with session(tmp_path, model_settings(models["good"])) as client:
        uri = open_cuda(client, tmp_path)
        action = await model_action(client, uri, "Translate kernel saxpy to HIP (CASS model)")
        result = await execute(client, action)
        assert result["applied"] is True and result["compiles"] is True, result
        # streamed: work-done progress with the text so far, then an end
        reports = [r for rs in client.progress_reports.values() for r in rs]
        streamed = [r for r in reports if isinstance(r, types.WorkDoneProgressReport) and "tokens:" in (r.message or "")]
        assert streamed, reports
        assert any(isinstance(r, types.WorkDoneProgressBegin) and "CASS model" in r.title for r in reports)
        # one WorkspaceEdit, its edit marked as needing confirmation and naming the model
        (params,) = client.applied  # type: ignore[attr-defined]
        annotations = params.edit.change_annotations
        assert annotations and all(a.needs_confirmation for a in annotations.values())
        assert "cass-tiny" in next(iter(annotations.values())).label
        text = client.texts[uri]  # type: ignore[attr-defined]
        assert text == CUDA.replace(CUDA[CUDA.index("__global__") : CUDA.index("\n\nint main")], HIP_KERNEL)


async def test_a_model_translation_that_does_not_compile_offers_the_rules_instead(
    tmp_path: Path, models: dict[str, Path]
) -> None:
    async with session(tmp_path, model_settings(models["broken"])) as client:
        uri = open_cuda(client, tmp_path)
        result = await execute(client, await model_action(client, uri, "Translate kernel saxpy to HIP (CASS model)"))
        assert result["applied"] is True and result["compiles"] is False, result
        errors = await diagnostics_where(client, uri, lambda d: d.source == "cass-asm")
        text = client.texts[uri]  # type: ignore[attr-defined]
        bad_line = text.splitlines().index("  if (i < n) y[i] = a * x[i] + y_undeclared[i];")
        assert any(d.range.start.line == bad_line and "y_undeclared" in d.message for d in errors), errors
        fixes = await client.text_document_code_action_async(
            types.CodeActionParams(
                text_document=types.TextDocumentIdentifier(uri=uri),
                range=errors[0].range,
                context=types.CodeActionContext(diagnostics=errors),
            )
        )
        fallback = [a for a in fixes or [] if isinstance(a, types.CodeAction) and a.title == "Use rule translation instead"]
        assert fallback and fallback[0].edit is not None and fallback[0].edit.changes is not None
        restored = apply_text_edits(text, list(fallback[0].edit.changes[uri]))
        assert "y_undeclared" not in restored and "y[i] = a * x[i] + y[i];" in restored


async def test_cancel_mid_stream_applies_nothing_and_the_model_stays_usable(
    tmp_path: Path, models: dict[str, Path]
) -> None:
    async with session(tmp_path, model_settings(models["endless"], maxTokens=100000, nCtx=32768)) as client:
        uri = open_cuda(client, tmp_path, text=LONG_CUDA)
        action = await model_action(client, uri, "Translate kernel saxpy to HIP (CASS model)")
        running = asyncio.ensure_future(execute(client, action))
        token = None
        for _ in range(600):
            token = next(
                (t for t, rs in client.progress_reports.items() if any(isinstance(r, types.WorkDoneProgressReport) for r in rs)),
                None,
            )
            if token is not None:
                break
            await asyncio.sleep(0.05)
        assert token is not None, "no streamed progress"
        client.window_work_done_progress_cancel(types.WorkDoneProgressCancelParams(token=token))
        result = await asyncio.wait_for(running, 10)
        assert result == {"applied": False, "reason": "cancelled"}
        assert client.applied == []  # type: ignore[attr-defined]
        # the loaded model answers the next request: capped this time, so it stops by itself
        client.workspace_did_change_configuration(
            types.DidChangeConfigurationParams(settings={"cass": {"model": {"maxTokens": 30}}})
        )
        await asyncio.sleep(0.3)
        again = await execute(client, await model_action(client, uri, "Translate kernel saxpy to HIP (CASS model)"))
        assert again == {"applied": False, "reason": "length"}
        assert any("nothing applied" in m.message and "maxTokens" in m.message for m in client.messages)


async def test_the_hard_timeout_stops_a_generation(tmp_path: Path, models: dict[str, Path]) -> None:
    settings = model_settings(models["endless"], maxTokens=100000, nCtx=32768, timeoutSeconds=1.5)
    async with session(tmp_path, settings) as client:
        uri = open_cuda(client, tmp_path, text=LONG_CUDA)
        action = await model_action(client, uri, "Translate kernel saxpy to HIP (CASS model)")
        result = await asyncio.wait_for(execute(client, action), 60)
        assert result == {"applied": False, "reason": "timeout"}
        assert client.applied == []  # type: ignore[attr-defined]


@pytest.mark.parametrize("bad", ["truncated", "not-gguf"])
async def test_a_bad_model_file_is_a_clear_error_and_the_rules_still_work(
    tmp_path: Path, models: dict[str, Path], bad: str
) -> None:
    async with session(tmp_path, model_settings(models[bad])) as client:
        uri = open_cuda(client, tmp_path)
        result = await execute(client, await model_action(client, uri, "Translate file to HIP (CASS model)"))
        assert result["applied"] is False
        errors = [m.message for m in client.messages if m.type == types.MessageType.Error]
        assert errors and str(models[bad].name) in errors[0], errors
        assert ("truncated" in errors[0]) if bad == "truncated" else ("not a GGUF" in errors[0]), errors
        rules = await model_action(client, uri, "Translate file to HIP")
        assert isinstance(rules, types.CodeAction)
        resolved = await client.code_action_resolve_async(rules)
        assert resolved.edit is not None and resolved.edit.document_changes


async def test_a_finding_the_rules_cannot_fix_offers_the_model(tmp_path: Path, models: dict[str, Path]) -> None:
    ptx = CUDA.replace(
        "  if (i < n) y[i] = a * x[i] + y[i];",
        '  unsigned lane;\n  asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));\n  if (i < n) y[i] = a * x[i] + y[i] + lane;',
    )
    settings = {**model_settings(models["good"]), "diagnostics": {"debounceMs": 20}}
    async with session(tmp_path, settings) as client:
        path = tmp_path / "ptx.cu"
        path.write_text(ptx)
        uri = path.as_uri()
        client.texts[uri] = ptx  # type: ignore[attr-defined]
        open_document(client, uri, ptx)
        found = await diagnostics_where(client, uri, lambda d: d.code == "inline-ptx")
        assert found, client.diagnostics.get(uri)
        actions = await client.text_document_code_action_async(
            types.CodeActionParams(
                text_document=types.TextDocumentIdentifier(uri=uri),
                range=found[0].range,
                context=types.CodeActionContext(diagnostics=found),
            )
        )
        fix = [a for a in actions or [] if a.title == "Translate this with the CASS model"]
        assert len(fix) == 1, [a.title for a in actions or []]
        result = await execute(client, fix[0])
        assert result["applied"] is True and result["compiles"] is True, result
        text = client.texts[uri]  # type: ignore[attr-defined]
        assert "asm volatile" not in text and HIP_KERNEL in text  # the whole kernel went to the model


PREDICTED = """```hipasm
saxpy:
  s_load_dwordx4 s[0:3], s[4:5], 0x8
  v_lshl_add_u32 v0, s2, 8, v0
  s_waitcnt lgkmcnt(0)
  v_cmp_gt_i32_e32 vcc_lo, s0, v0
  s_and_saveexec_b32 s0, vcc_lo
  global_load_b32 v1, v0, s[2:3]
  v_fmac_f32_e32 v2, s1, v1
  global_store_b32 v0, v2, s[2:3]
  s_endpgm
```"""


async def test_assembly_prediction_next_to_the_compiled_listing(tmp_path: Path) -> None:
    model = tmp_path / "cass-tiny-asm.gguf"
    write_tiny_model(model, PREDICTED)
    settings = model_settings(tmp_path / "unused.gguf", assemblyName=str(model))
    async with session(tmp_path, settings) as client:
        uri = open_cuda(client, tmp_path)
        reply = json_value(
            await client.protocol.send_request_async(
                "cass/assembly", {"uri": uri, "kernel": "saxpy", "predict": True, "targets": ["gfx1100"]}
            )
        )
        prediction = reply["prediction"]
        assert prediction is not None, reply.get("predictionNote")
        assert prediction["label"] == "predicted" and prediction["sourceTarget"] == "sm_80"
        assert prediction["text"].startswith("saxpy:") and "global_load_b32" in prediction["text"]
        assert prediction["verifiedAgainst"] == "gfx1100" and 0.0 < prediction["agreement"] <= 1.0
        # without a prediction asked for, none is made
        plain = json_value(await client.protocol.send_request_async("cass/assembly", {"uri": uri}))
        assert "prediction" not in plain


async def test_without_the_amd_toolchain_the_prediction_is_marked_unverified(tmp_path: Path) -> None:
    from tests.lsp.test_assembly import _path_without_clang

    model = tmp_path / "cass-tiny-asm.gguf"
    write_tiny_model(model, PREDICTED)
    empty_llvm = tmp_path / "no-llvm"
    empty_llvm.mkdir()
    env = {"PATH": _path_without_clang(tmp_path), "CASS_LSP_LLVM_DIR": str(empty_llvm)}
    async with session(tmp_path, model_settings(tmp_path / "unused.gguf", assemblyName=str(model)), env) as client:
        uri = open_cuda(client, tmp_path)
        reply = json_value(
            await client.protocol.send_request_async(
                "cass/assembly", {"uri": uri, "kernel": "saxpy", "predict": True, "targets": ["gfx1100"]}
            )
        )
        prediction = reply["prediction"]
        assert prediction["label"] == "predicted, unverified" and prediction["agreement"] is None
        assert any(r["kind"] == "unavailable" for r in reply["results"])


async def test_a_file_too_long_for_the_context_goes_kernel_by_kernel(tmp_path: Path, models: dict[str, Path]) -> None:
    second = CUDA[CUDA.index("__global__") : CUDA.index("\n\nint main")].replace("saxpy", "saxpy2")
    padding = "".join(f"// host notes {i}: the rules translate what is outside the kernels\n" for i in range(12))
    long = CUDA.replace("\nint main", f"\n{second}\n\n{padding}int main")
    async with session(tmp_path, model_settings(models["good"], nCtx=512)) as client:
        path = tmp_path / "long.cu"
        path.write_text(long)
        uri = path.as_uri()
        client.texts[uri] = long  # type: ignore[attr-defined]
        open_document(client, uri, long)
        result = await execute(client, await model_action(client, uri, "Translate file to HIP (CASS model)"))
        assert result["applied"] is True and result["regions"] == 2, result
        text = client.texts[uri]  # type: ignore[attr-defined]
        assert text.count(HIP_KERNEL) == 2 and "saxpy2" not in text.split("int main")[0]  # both kernels: the model's
        assert "hipMalloc(&x" in text and "#include <hip/hip_runtime.h>" in text  # the rest: the rules
        (params,) = client.applied  # type: ignore[attr-defined]
        (change,) = params.edit.document_changes
        annotated = [e for e in change.edits if isinstance(e, types.AnnotatedTextEdit)]
        assert len(annotated) == 2 and len(change.edits) > 2


async def test_cancel_request_stops_the_generation(tmp_path: Path, models: dict[str, Path]) -> None:
    async with session(tmp_path, model_settings(models["endless"], maxTokens=100000, nCtx=32768)) as client:
        uri = open_cuda(client, tmp_path, text=LONG_CUDA)
        start = LONG_CUDA.index("__global__")
        params = {"uri": uri, "version": 1, "start": start, "end": LONG_CUDA.index("\n\nint main"), "scope": "kernel"}
        reply = client.protocol.send_request("cass/translateWithModel", params, msg_id="model-1")
        for _ in range(600):
            if any(isinstance(r, types.WorkDoneProgressReport) for rs in client.progress_reports.values() for r in rs):
                break
            await asyncio.sleep(0.05)
        (token,) = client.progress_reports
        client.protocol.notify(types.CANCEL_REQUEST, types.CancelParams(id="model-1"))
        with pytest.raises(Exception, match=r"[Cc]ancel"):
            await asyncio.wait_for(asyncio.wrap_future(reply), 10)
        for _ in range(20):  # the generation stops too, within a second (it would stream for tens)
            if isinstance(client.progress_reports[token][-1], types.WorkDoneProgressEnd):
                break
            await asyncio.sleep(0.05)
        assert isinstance(client.progress_reports[token][-1], types.WorkDoneProgressEnd)
        assert client.applied == []  # type: ignore[attr-defined]


async def test_shutting_down_during_a_generation_is_prompt(tmp_path: Path, models: dict[str, Path]) -> None:
    env = {**os.environ, "CASS_LSP_CONFIG_DIR": str(tmp_path / "config"), "OMP_WAIT_POLICY": "PASSIVE"}
    client = await ClientServerConfig(server_command=SERVER, server_env=env).start(devtools=None)
    settings = model_settings(models["endless"], maxTokens=100000, nCtx=32768)
    await client.initialize_session(
        types.InitializeParams(
            capabilities=client_capabilities("visual-studio-code"),
            # the model is a file's path: it applies only in a trusted workspace
            initialization_options={**settings, "workspaceTrusted": True},
        )
    )
    client.texts = {}  # type: ignore[attr-defined]
    uri = open_cuda(client, tmp_path, text=LONG_CUDA)
    running = asyncio.ensure_future(execute(client, await model_action(client, uri, "Translate file to HIP (CASS model)")))
    for _ in range(600):
        if any(isinstance(r, types.WorkDoneProgressReport) for rs in client.progress_reports.values() for r in rs):
            break
        await asyncio.sleep(0.05)
    started = asyncio.get_running_loop().time()
    await asyncio.wait_for(client.shutdown_session(), 15)  # shutdown, exit, and the process ends
    assert asyncio.get_running_loop().time() - started < 5
    assert await asyncio.wait_for(running, 5) == {"applied": False, "reason": "cancelled"}


async def test_the_openai_backend_serves_the_same_flow(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A team's shared server: cass.model.backend "openai" against an OpenAI-compatible endpoint
    (a small streaming server on 127.0.0.1 written in the tests), the key from a named variable."""
    from tests.toolchain.test_openai_backend import DONE, event, serving, streams

    answer = ["```amd\n", *(line + "\n" for line in HIP_KERNEL.splitlines()), "```"]
    with serving(streams(*(event(piece) for piece in answer), event(finish="stop"), DONE, delay_s=0.01)) as server:
        settings = model_settings(tmp_path / "unused.gguf")
        settings["model"] = {"backend": "openai", "endpoint": server.url, "name": "cass-src-7b", "apiKeyEnv": "CASS_TEST_KEY"}
        async with session(tmp_path, settings, {"CASS_TEST_KEY": "sk-test-123"}) as client:
            uri = open_cuda(client, tmp_path)
            result = await execute(client, await model_action(client, uri, "Translate kernel saxpy to HIP (CASS model)"))
            assert result["applied"] is True and result["compiles"] is True, result
            assert "cass-src-7b" in result["model"]
        (request,) = server.requests
        method, path, headers, body = request
        assert (method, path) == ("POST", "/v1/chat/completions")
        assert headers.get("Authorization") == "Bearer sk-test-123"
        assert body["model"] == "cass-src-7b" and body["stream"] is True
        assert "Convert the following CUDA code to AMD GPU code" in body["messages"][-1]["content"]
    assert client.texts[uri].count(HIP_KERNEL) == 1  # type: ignore[attr-defined]


def model_workers(tmp_path: Path) -> list[int]:
    """The model worker processes of the session's server (they inherit its config folder)."""
    from tests.fuzz.wire import processes_marked

    marker = str(tmp_path / "config")
    found = processes_marked(marker, marker, exclude={os.getpid()})
    return [int(line.split()[0]) for line in found if "cass_lsp.infer.worker" in line]


@pytest.mark.parametrize("sig", [signal.SIGSEGV, signal.SIGKILL])
async def test_a_crash_of_the_model_is_one_error_and_the_server_answers_on(
    tmp_path: Path, models: dict[str, Path], sig: signal.Signals
) -> None:
    """The model runs in a worker process: it dying mid-generation (a segfault in llama.cpp, the
    out-of-memory killer) ends that request with an error naming the signal, and nothing else."""
    async with session(tmp_path, model_settings(models["endless"], maxTokens=100000, nCtx=32768)) as client:
        uri = open_cuda(client, tmp_path, text=LONG_CUDA)
        action = await model_action(client, uri, "Translate kernel saxpy to HIP (CASS model)")
        running = asyncio.ensure_future(execute(client, action))
        for _ in range(600):
            if any(isinstance(r, types.WorkDoneProgressReport) for rs in client.progress_reports.values() for r in rs):
                break
            await asyncio.sleep(0.05)
        (worker,) = model_workers(tmp_path)
        os.kill(worker, sig)
        result = await asyncio.wait_for(running, 10)
        assert result["applied"] is False and f"died of {sig.name}" in result["reason"], result
        errors = [m.message for m in client.messages if m.type == types.MessageType.Error]
        assert len(errors) == 1 and f"died of {sig.name} while generating" in errors[0], errors
        assert "the next request starts a fresh worker" in errors[0]
        assert client.applied == []  # type: ignore[attr-defined]
        # the server answered on: the rules' action, and the model again, in a fresh worker
        rules = await model_action(client, uri, "Translate file to HIP")
        assert isinstance(rules, types.CodeAction)
        client.workspace_did_change_configuration(
            types.DidChangeConfigurationParams(settings={"cass": {"model": {"maxTokens": 30}}})
        )
        await asyncio.sleep(0.3)
        again = await execute(client, await model_action(client, uri, "Translate kernel saxpy to HIP (CASS model)"))
        assert again == {"applied": False, "reason": "length"}
        assert model_workers(tmp_path) not in ([], [worker])
        assert len([m for m in client.messages if m.type == types.MessageType.Error]) == 1
    for _ in range(100):  # the shutdown ended the worker too
        if not model_workers(tmp_path):
            break
        await asyncio.sleep(0.05)
    assert model_workers(tmp_path) == []
