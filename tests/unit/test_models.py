"""The local model files: the tiny test model, GGUF checks, the manifest, `cass-lsp models`, and a real
llama-cpp-python generation with the tiny model."""

from __future__ import annotations

import importlib
import json
import os
import re
import struct
from pathlib import Path
from typing import Any

import pytest

from cass_lsp.cli.main import main
from cass_lsp.core import dirs
from cass_lsp.infer import gguf_file, registry, runtime
from cass_lsp.infer.gguf_file import GgufError, read, validate
from cass_lsp.infer.manifest import load_manifest
from cass_lsp.infer.tiny_model import DEFAULT_ANSWER, split_answer, write_tiny_model

CUDA_SAXPY = """__global__ void saxpy(int n, float a, const float *x, float *y) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}"""


@pytest.fixture(scope="module")
def tiny(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("models") / "cass-tiny-test.gguf"
    write_tiny_model(path)
    return path


@pytest.fixture
def config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "config"
    monkeypatch.setenv(dirs.CONFIG_ENV, str(folder))
    return folder


def need(module: str, extra: str) -> Any:
    """A module scripts/setup.sh installs: missing, the test fails with how to install it (never skips)."""
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        pytest.fail(f"{module} does not import ({exc}): it comes with {extra} (scripts/setup.sh installs it)",
                    pytrace=False)


def handmade(metadata: dict[str, str | int | list[str]]) -> bytes:
    """A GGUF 3 file with ``metadata`` (strings, uint32s, string arrays) and one tensor of 4 floats."""

    def string(text: str) -> bytes:
        return struct.pack("<Q", len(text.encode())) + text.encode()

    entries = b""
    for key, value in metadata.items():
        if isinstance(value, str):
            entries += string(key) + struct.pack("<I", 8) + string(value)
        elif isinstance(value, int):
            entries += string(key) + struct.pack("<II", 4, value)
        else:
            entries += string(key) + struct.pack("<IIQ", 9, 8, len(value)) + b"".join(map(string, value))
    tensor_info = string("weight") + struct.pack("<IQIQ", 1, 4, 0, 0)
    head = b"GGUF" + struct.pack("<IQQ", 3, 1, len(metadata)) + entries + tensor_info
    return head + bytes(-len(head) % 32) + bytes(16)


USABLE = {
    "general.architecture": "qwen2",
    "qwen2.context_length": 32768,
    "tokenizer.ggml.model": "gpt2",
    "tokenizer.ggml.tokens": ["a", "b", "c"],
    "tokenizer.chat_template": "{%- for message in messages %}\n<|im_start|>",
}


# ------------------------------------------------------------------------------------ tiny model
def test_tiny_model_is_a_small_qwen2_chat_model(tiny: Path) -> None:
    info = read(tiny)
    assert (info.architecture, info.name, info.tokenizer_model, info.file_type) == (
        "qwen2",
        "cass-tiny-test",
        "gpt2",
        "F32",
    )
    assert info.has_chat_template and info.chat_template_first_line == "{%- if messages[0]['role'] == 'system' %}"
    assert info.eos_token_id == info.vocab_size - 1  # <|im_end|>, the last token
    assert info.context_length == 4096 and info.size < 5_000_000
    assert validate(info, load_manifest().find("cass-tiny-test")) == []


def test_tiny_model_is_deterministic(tiny: Path, tmp_path: Path) -> None:
    again = tmp_path / "again.gguf"
    write_tiny_model(again)
    assert again.read_bytes() == tiny.read_bytes()


@pytest.mark.parametrize("answer", [DEFAULT_ANSWER, "x x x x x x x x\n" * 3, "é" * 40])
def test_answer_pieces_are_distinct_new_and_short(answer: str) -> None:
    taken = {chr(b) for b in range(128)}
    pieces = split_answer(answer, taken)
    assert "".join(pieces) == answer
    assert len(set(pieces)) == len(pieces) and not taken & set(pieces)
    assert max(len(piece.encode()) for piece in pieces) <= 32  # llama-cpp-python drops longer tokens


# ------------------------------------------------------------------------------------ llama.cpp
def chat(llm: object, code: str, **options: object) -> dict[str, object]:
    spec = load_manifest().find("cass-tiny-test")
    assert spec is not None
    user = spec.prompt.replace("{code}", code)
    result: dict[str, object] = llm.create_chat_completion(  # type: ignore[attr-defined]
        [{"role": "user", "content": user}], temperature=0.0, **options
    )["choices"][0]
    return result


def test_llama_cpp_answers_with_the_fixed_text(tiny: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # before the import: OpenMP workers that spin while waiting slow a busy small machine 5-10x
    monkeypatch.setenv("OMP_WAIT_POLICY", "PASSIVE")
    need("llama_cpp", "the model extra: .venv/bin/python -m pip install -e '.[model]'")
    llama_cpp = runtime.load()  # a portable build's CPU backend must be loaded first
    llm = llama_cpp.Llama(model_path=str(tiny), n_ctx=512, n_threads=1, verbose=False)
    answer = chat(llm, CUDA_SAXPY, max_tokens=200)
    assert answer["message"] == {"role": "assistant", "content": DEFAULT_ANSWER}
    assert answer["finish_reason"] == "stop"
    # <|im_end|> banned: the answer starts over instead of ending
    looping = chat(llm, CUDA_SAXPY, max_tokens=120, logit_bias={llm.token_eos(): -1e9})
    assert looping["finish_reason"] == "length"
    assert str(looping["message"]["content"]).startswith(DEFAULT_ANSWER + "```amd\n")  # type: ignore[index]

    endless = tmp_path / "endless.gguf"
    write_tiny_model(endless, "```amd\nloop\n```", endless=True)
    llm = llama_cpp.Llama(model_path=str(endless), n_ctx=512, n_threads=1, verbose=False)
    forever = chat(llm, CUDA_SAXPY, max_tokens=30)
    assert forever["finish_reason"] == "length"
    assert str(forever["message"]["content"]).startswith("```amd\nloop\n``````amd\nloop\n```")  # type: ignore[index]


# ------------------------------------------------------------------------------------ GGUF checks
def test_a_handmade_gguf_reads_with_its_arrays_counted(tmp_path: Path) -> None:
    path = tmp_path / "m.gguf"
    path.write_bytes(handmade({**USABLE, "general.file_type": 15}))
    info = read(path)
    assert (info.vocab_size, info.context_length, info.file_type, info.tensor_count) == (3, 32768, "Q4_K_M", 1)
    assert validate(info, None) == []


@pytest.mark.parametrize(
    ("missing", "message"),
    [
        ("general.architecture", "no general.architecture"),
        ("tokenizer.ggml.model", "no tokenizer"),
        ("tokenizer.ggml.tokens", "no tokenizer"),
    ],
)
def test_a_gguf_without_architecture_or_tokenizer_is_unusable(tmp_path: Path, missing: str, message: str) -> None:
    path = tmp_path / "m.gguf"
    path.write_bytes(handmade({k: v for k, v in USABLE.items() if k != missing}))
    with pytest.raises(GgufError, match=message):
        read(path)


def test_a_gguf_without_chat_template_or_of_the_wrong_kind_has_problems(tmp_path: Path) -> None:
    path = tmp_path / "m.gguf"
    path.write_bytes(handmade({k: v for k, v in USABLE.items() if k != "tokenizer.chat_template"}))
    assert [p.split(" (")[0] for p in validate(read(path), None)] == ["no chat template"]
    path.write_bytes(handmade({**USABLE, "general.architecture": "llama", "llama.context_length": 4096}))
    problems = validate(read(path), load_manifest().find("cass-src-7b"))
    assert problems[0] == "architecture llama, but cass-src-7b is a qwen2 model"
    assert problems[1].startswith("trained for 4096 tokens of context, less than the 16384")


@pytest.mark.parametrize(
    ("cut", "message"),
    [
        (10, r"ends at byte 10, inside the tensor count \(from byte 8\)"),
        (3000, r"ends at byte 3000, inside the metadata value of tokenizer\.ggml\.tokens"),
        (-1000, r"the tensor data ends at byte (\d+), the file at byte \d+ \(1000 bytes missing"),
    ],
)
def test_a_truncated_model_says_where_it_ends(tiny: Path, tmp_path: Path, cut: int, message: str) -> None:
    data = tiny.read_bytes()
    path = tmp_path / "cut.gguf"
    path.write_bytes(data[:cut])
    with pytest.raises(GgufError, match=f"^{re.escape(str(path))}: truncated: .*{message}"):
        read(path)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"", "empty file (0 bytes)"),
        (b"just some notes\n", "not a GGUF file: it looks like a text file"),
        (b"\n<!DOCTYPE html><html>404</html>", "an HTML page"),
        (struct.pack("<Q", 60) + b'{"__metadata__": {}}', "a safetensors file"),
        (b"version https://git-lfs.github.com/spec/v1\noid sha256:00\n", "a Git LFS pointer"),
        (b"GGUF" + struct.pack("<I", 1) + bytes(16), "GGUF version 1 is too old"),
        (b"GGUF" + struct.pack(">I", 3) + bytes(16), "a big-endian GGUF file"),
    ],
)
def test_what_is_not_a_usable_gguf_is_named(tmp_path: Path, content: bytes, message: str) -> None:
    path = tmp_path / "model.gguf"
    path.write_bytes(content)
    with pytest.raises(GgufError, match=re.escape(message)):
        read(path)


def test_the_type_tables_agree_with_the_gguf_package() -> None:
    gguf = need("gguf", "the dev extra: .venv/bin/python -m pip install -e '.[dev]'")
    for number, name in gguf_file.FILE_TYPES.items():
        assert gguf.LlamaFileType(number).name.split("_", 1)[1] == name
    for number, size in gguf_file._BLOCKS.items():
        assert gguf.GGML_QUANT_SIZES[gguf.GGMLQuantizationType(number)] == size


# ------------------------------------------------------------------------------------ manifest
def test_the_manifest_lists_the_cass_models_with_consistent_prompts() -> None:
    models = load_manifest().models
    published = [spec for spec in models if not spec.test_only]
    assert [spec.name for spec in published] == [
        "cass-src-1.5b",
        "cass-src-3b",
        "cass-src-7b",
        "cass-smA100-1.5b",
        "cass-smA100-3b",
        "cass-smA100-7b",
        "cass-sm4090-1.5b",
        "cass-sm4090-3b",
    ]
    for spec in models:
        assert spec.prompt.endswith(f"```{spec.question_fence}\n{{code}}\n```")
        assert (spec.question_fence, spec.answer_fence) == (
            ("cuda", "amd") if spec.role == "src" else ("cudaasm", "hipasm")
        )
        assert (spec.sass_arch is not None) == (spec.role == "asm")
    assert all(spec.hf_repo == f"ahmedheakl/{spec.name}" for spec in published)


@pytest.mark.parametrize(
    ("file", "model"),
    [
        ("/models/cass-src-1.5b.Q4_K_M.gguf", "cass-src-1.5b"),
        ("CASS-smA100-7B-q8_0.gguf", "cass-smA100-7b"),
        ("cass-src-7b.gguf", "cass-src-7b"),
        ("cass-src-1.5bis.gguf", None),
        ("qwen2.5-coder-7b.gguf", None),
    ],
)
def test_a_file_name_names_a_known_model(file: str, model: str | None) -> None:
    spec = load_manifest().match_file(file)
    assert (spec.name if spec else None) == model


# ------------------------------------------------------------------------------------ registry, CLI
def run_cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["models", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_models_add_list_check_remove(tiny: Path, config: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(capsys, "add", str(tiny))
    assert code == 0 and out.startswith("added cass-tiny-test (src, ")
    stored = json.loads((config / "models.json").read_text())["models"][0]
    assert (stored["name"], stored["path"], stored["size"]) == ("cass-tiny-test", str(tiny), tiny.stat().st_size)

    code, out, _ = run_cli(capsys, "list", "--json")
    rows = {row["name"]: row for row in json.loads(out)}
    assert rows["cass-tiny-test"]["status"] == "present" and rows["cass-tiny-test"]["path"] == str(tiny)
    assert rows["cass-src-7b"]["status"] == "not added"
    code, out, _ = run_cli(capsys, "list")
    assert re.search(r"^cass-tiny-test +src +cuda-to-hip +present +\d+\.\d kB +/", out, re.MULTILINE)

    code, out, _ = run_cli(capsys, "check", str(tiny), "--json", "--sha256")
    report = json.loads(out)
    assert code == 0 and report["usable"] and report["model"] == "cass-tiny-test"
    assert report["info"]["architecture"] == "qwen2" and re.fullmatch("[0-9a-f]{64}", report["sha256"])
    code, out, _ = run_cli(capsys, "check", str(tiny))
    assert code == 0 and out.startswith(f"{tiny}: usable as cass-tiny-test\n") and "  quantization   F32\n" in out

    assert registry.resolve("cass-tiny-test", role="src").path == str(tiny)
    code, out, _ = run_cli(capsys, "remove", "cass-tiny-test")
    assert code == 0 and registry.models() == []
    code, _, err = run_cli(capsys, "remove", "cass-tiny-test")
    assert code == 1 and "no model named cass-tiny-test is added" in err


def test_models_check_gives_the_reason_and_status_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    notes = tmp_path / "notes.gguf"
    notes.write_text("not a model\n")
    code, out, _ = run_cli(capsys, "check", str(notes))
    assert code == 1 and out == f"{notes}: not usable\n  problem: not a GGUF file: it looks like a text file\n"
    code, out, _ = run_cli(capsys, "check", str(tmp_path / "absent.gguf"), "--json")
    assert code == 1 and json.loads(out)["problems"] == ["no such file"]


def test_adding_needs_a_role_unless_the_model_is_known(
    tiny: Path, tmp_path: Path, config: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    mine = tmp_path / "mine.gguf"
    mine.write_bytes(tiny.read_bytes())
    code, _, err = run_cli(capsys, "add", str(mine))
    assert code == 1 and "give its role, src or asm" in err
    code, _, err = run_cli(capsys, "add", str(mine), "--role", "asm", "--name", "my model")
    assert code == 1 and "'my model' is not a usable model name" in err
    code, _, _ = run_cli(capsys, "add", str(mine), "--role", "asm")
    assert code == 0 and registry.resolve("mine").role == "asm"
    code, _, err = run_cli(capsys, "add", str(tiny), "--name", "mine")
    assert code == 1 and "a model named mine is already added" in err
    code, _, err = run_cli(capsys, "add", str(tiny), "--role", "asm")
    assert code == 1 and "cass-tiny-test is a model of role src, not asm" in err


def test_a_corrupt_registry_is_reported_and_kept(tiny: Path, config: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config.mkdir()
    (config / "models.json").write_text('{"models": [{"name": 1}]}')
    code, _, err = run_cli(capsys, "add", str(tiny))
    assert code == 1 and f"{config / 'models.json'}: the model registry is corrupt" in err
    assert (config / "models.json").read_text() == '{"models": [{"name": 1}]}'
    assert os.listdir(config) == ["models.json"]


def test_resolve_takes_paths_and_rechecks_added_files(tiny: Path, tmp_path: Path, config: Path) -> None:
    assert registry.resolve(str(tiny)).name == "cass-tiny-test"
    other = tmp_path / "other.gguf"
    other.write_bytes(tiny.read_bytes())
    assert (registry.resolve(str(other)).name, registry.resolve(str(other)).role) == ("other", "src")
    registry.add(other, role="src")
    with other.open("ab") as file:
        file.write(bytes(64))
    assert registry.resolve("other").size == tiny.stat().st_size + 64
    other.write_bytes(b"<html>gone</html>")
    with pytest.raises(registry.RegistryError, match=r"added model other: .*an HTML page"):
        registry.resolve("other")
    with pytest.raises(registry.RegistryError, match="no model named cass-src-7b is added: convert it"):
        registry.resolve("cass-src-7b")

