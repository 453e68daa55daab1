"""Issue 19's model budgets through the real server and llama-cpp-python with the tiny GGUF:
the declarations carried with a kernel count toward the context (a kernel that names a large
table was sent, and llama-cpp-python's ValueError came back as an internal error), and a
model that rambles stops at about twice the region's tokens instead of maxTokens."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import Any

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient

from cass_lsp.infer.tiny_model import write_tiny_model
from cass_lsp.server.convert import json_value
from cass_lsp.translate.model import answer_budget
from tests.lsp.conftest import open_document
from tests.lsp.test_model_lsp import CUDA, HIP_KERNEL, fenced, model_settings, session

KERNEL = CUDA[CUDA.index("__global__") : CUDA.index("\n\nint main")]


@pytest.fixture(scope="module")
def endless(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("models") / "cass-tiny-endless.gguf"
    write_tiny_model(path, fenced(HIP_KERNEL), endless=True)
    return path


async def translate(client: LanguageClient, tmp_path: Path, text: str, region: str) -> dict[str, Any]:
    path = tmp_path / "k.cu"
    path.write_text(text)
    uri = path.as_uri()
    client.texts[uri] = text  # type: ignore[attr-defined]
    open_document(client, uri, text)
    start = text.index(region)
    params = {"uri": uri, "version": 1, "start": start, "end": start + len(region), "scope": "kernel"}
    reply = client.protocol.send_request("cass/translateWithModel", params)
    result = json_value(await asyncio.wait_for(asyncio.wrap_future(reply), 120))
    assert isinstance(result, dict)
    return result


async def test_the_declarations_a_kernel_carries_count_toward_the_context(tmp_path: Path, endless: Path) -> None:
    table = "__constant__ float table[600] = {" + ", ".join(["0.5f"] * 600) + "};\n"
    kernel = KERNEL.replace("a * x[i]", "table[i % 600] * x[i]")
    text = CUDA.replace(KERNEL, table + kernel)
    async with session(tmp_path, model_settings(endless, nCtx=2048)) as client:
        result = await translate(client, tmp_path, text, kernel)
        assert result == {"applied": False, "reason": "too long"}
        (message,) = [m.message for m in client.messages if m.type == types.MessageType.Warning]
        assert re.search(r"this kernel is about \d+ tokens, more than the model's context leaves for it", message)


async def test_a_model_that_rambles_stops_at_twice_the_region(tmp_path: Path, endless: Path) -> None:
    settings = model_settings(endless, nCtx=8192, maxTokens=100000, timeoutSeconds=300)
    async with session(tmp_path, settings) as client:
        result = await translate(client, tmp_path, CUDA, KERNEL)
        assert result == {"applied": False, "reason": "length"}
        (message,) = [m.message for m in client.messages if "nothing applied" in m.message]
        found = re.search(r"\(length after (\d+) tokens\)", message)
        assert found is not None, message
        assert int(found.group(1)) <= answer_budget(KERNEL, 100000) < 1000
        assert "about twice the region's tokens" in message
