"""The local model out of process: the real worker (``python -m cass_lsp.infer.worker``) running the
real llama-cpp-python on the tiny GGUF, killed by real signals; the extra buffer type decision and
its probe, whose crash is a real worker dying of SIGSEGV where it probes."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from cass_lsp.core.cancel import CancelToken
from cass_lsp.core.dirs import CACHE_ENV
from cass_lsp.infer import cpu
from cass_lsp.infer.backend import GenerationParams, ModelError
from cass_lsp.infer.process import ProcessBackend
from cass_lsp.infer.prompts import source_prompt
from cass_lsp.infer.tiny_model import DEFAULT_ANSWER, write_tiny_model
from cass_lsp.infer.worker import PROBE_FAULT_ENV

pytest.importorskip("llama_cpp")

KERNEL = "__global__ void add(float* a, const float* b) { a[threadIdx.x] += b[threadIdx.x]; }"
AMX_CPU = cpu.CpuInfo("Test Xeon with AMX", frozenset({"avx2", "amx_tile", "amx_int8", "amx_bf16"}))
PLAIN_CPU = cpu.CpuInfo("Test CPU", frozenset({"avx2", "fma"}))


@pytest.fixture(scope="module")
def models(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("models")
    paths = {"fixed": folder / "cass-tiny.gguf", "endless": folder / "cass-tiny-endless.gguf"}
    write_tiny_model(paths["fixed"])
    write_tiny_model(paths["endless"], "```amd\nloop\n```", endless=True)
    return paths


@pytest.fixture(autouse=True)
def private_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Each test's probe answers start empty (the worker inherits the variable)."""
    monkeypatch.setenv(CACHE_ENV, str(tmp_path / "cache"))
    return tmp_path / "cache"


@pytest.fixture
def opened() -> Iterator[list[ProcessBackend]]:
    """Backends a test opens, closed after it whatever happened, their workers checked gone."""
    backends: list[ProcessBackend] = []
    yield backends
    pids = [b.pid for b in backends if b.pid is not None]
    for backend in backends:
        backend.close()
    for pid in pids:
        assert not alive(pid), f"worker {pid} outlived close()"


def alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie is not running: its parent has yet to reap it)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[-1].split()[0] != "Z"
    except OSError:
        return False


def backend_for(opened: list[ProcessBackend], path: Path, **options: object) -> ProcessBackend:
    settings: dict[str, object] = {"n_threads": 1, "n_ctx": 4096, "idle_unload_s": 0, "this_cpu": PLAIN_CPU, **options}
    backend = ProcessBackend(str(path), name=path.stem, **settings)  # type: ignore[arg-type]
    opened.append(backend)
    return backend


def generate_until_streaming(
    backend: ProcessBackend, token: CancelToken, params: GenerationParams
) -> tuple[threading.Thread, list[object], list[str]]:
    """A generation on a thread of its own, returned once its first pieces came."""
    result: list[object] = []
    pieces: list[str] = []

    def run() -> None:
        try:
            result.append(backend.generate(source_prompt(KERNEL), params, pieces.append, token))
        except ModelError as error:
            result.append(error)

    thread = threading.Thread(target=run)
    thread.start()
    deadline = time.monotonic() + 60
    while len(pieces) < 5:
        assert time.monotonic() < deadline and thread.is_alive(), result
        time.sleep(0.01)
    return thread, result, pieces


# ------------------------------------------------------------------------------------ generation
def test_the_worker_streams_the_answer_and_stays_warm(models: dict[str, Path], opened: list[ProcessBackend]) -> None:
    backend = backend_for(opened, models["fixed"])
    assert backend.pid is None  # started on first use
    pieces: list[str] = []
    first = backend.generate(source_prompt(KERNEL), GenerationParams(max_tokens=400), pieces.append, CancelToken())
    assert first.text == DEFAULT_ANSWER and first.finish_reason == "stop" and "".join(pieces) == first.text
    assert first.tokens == len(pieces) and first.model == "cass-tiny"
    pid = backend.pid
    assert pid is not None and pid != os.getpid() and alive(pid)
    assert backend.last_load is not None and backend.last_load.backend.library.startswith("libggml-cpu")
    again = backend.generate(source_prompt(KERNEL), GenerationParams(max_tokens=400), lambda _: None, CancelToken())
    assert again.text == DEFAULT_ANSWER and backend.pid == pid  # the same worker, the model kept loaded
    backend.close()
    assert backend.pid is None and not alive(pid)


def test_cancel_reaches_the_running_generation_and_the_worker_stays(
    models: dict[str, Path], opened: list[ProcessBackend]
) -> None:
    backend = backend_for(opened, models["endless"])
    token = CancelToken()
    thread, result, _ = generate_until_streaming(backend, token, GenerationParams(max_tokens=100000))
    pid = backend.pid
    cancelled_at = time.monotonic()
    token.cancel()
    thread.join(10)
    assert time.monotonic() - cancelled_at < 1.0
    (generation,) = result
    assert getattr(generation, "finish_reason", None) == "cancelled", generation
    assert backend.pid == pid and pid is not None and alive(pid)
    capped = backend.generate(source_prompt(KERNEL), GenerationParams(max_tokens=12), lambda _: None, CancelToken())
    assert capped.finish_reason == "length" and capped.tokens == 12


def test_the_deadline_stops_a_generation(models: dict[str, Path], opened: list[ProcessBackend]) -> None:
    backend = backend_for(opened, models["endless"])
    # loaded first: the deadline counts the load too, which on a busy machine may take it all
    backend.generate(source_prompt(KERNEL), GenerationParams(max_tokens=1), lambda _: None, CancelToken())
    started = time.monotonic()
    generation = backend.generate(
        source_prompt(KERNEL), GenerationParams(max_tokens=100000, timeout_s=1.5), lambda _: None, CancelToken()
    )
    assert generation.finish_reason == "timeout" and generation.tokens > 0
    assert time.monotonic() - started < 1.5 + 1.0


@pytest.mark.parametrize(
    ("sig", "said"),
    [(signal.SIGSEGV, "a crash inside llama.cpp"), (signal.SIGKILL, "out-of-memory killer"), (signal.SIGILL, "instruction this CPU lacks")],
)
def test_a_worker_killed_mid_generation_is_a_model_error_and_the_next_request_starts_afresh(
    models: dict[str, Path], opened: list[ProcessBackend], sig: signal.Signals, said: str
) -> None:
    backend = backend_for(opened, models["endless"])
    thread, result, _ = generate_until_streaming(backend, CancelToken(), GenerationParams(max_tokens=100000))
    pid = backend.pid
    assert pid is not None
    os.kill(pid, sig)
    thread.join(10)
    (error,) = result
    assert isinstance(error, ModelError), error
    message = str(error)
    assert f"died of {sig.name}" in message and "while generating" in message and said in message, message
    assert "the next request starts a fresh worker" in message
    if sig != signal.SIGKILL:  # the worker's fault handler said where it was
        assert "(in Python: File " in message, message
    assert backend.pid is None and not alive(pid)
    answer = backend.generate(source_prompt(KERNEL), GenerationParams(max_tokens=8), lambda _: None, CancelToken())
    assert answer.finish_reason == "length" and backend.pid not in (None, pid)


def test_a_bad_model_file_is_the_workers_clear_error(tmp_path: Path, opened: list[ProcessBackend]) -> None:
    bad = tmp_path / "notes.gguf"
    bad.write_text("this is not a model\n")
    backend = backend_for(opened, bad)
    with pytest.raises(ModelError, match=r"notes\.gguf.*not a GGUF"):
        backend.generate(source_prompt(KERNEL), GenerationParams(), lambda _: None, CancelToken())
    assert backend.pid is None


def test_the_worker_exits_when_idle(models: dict[str, Path], opened: list[ProcessBackend]) -> None:
    backend = backend_for(opened, models["fixed"], idle_unload_s=0.5)
    backend.generate(source_prompt(KERNEL), GenerationParams(max_tokens=400), lambda _: None, CancelToken())
    pid = backend.pid
    assert pid is not None
    deadline = time.monotonic() + 10
    while alive(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not alive(pid) and backend.pid is None
    answer = backend.generate(source_prompt(KERNEL), GenerationParams(max_tokens=400), lambda _: None, CancelToken())
    assert answer.text == DEFAULT_ANSWER  # loaded again in a new worker


def test_closing_mid_generation_ends_it_as_cancelled(models: dict[str, Path], opened: list[ProcessBackend]) -> None:
    backend = backend_for(opened, models["endless"])
    thread, result, _ = generate_until_streaming(backend, CancelToken(), GenerationParams(max_tokens=100000))
    pid = backend.pid
    backend.close()  # the server shutting down
    thread.join(10)
    (generation,) = result
    assert getattr(generation, "finish_reason", None) == "cancelled", generation
    assert pid is not None and not alive(pid)


SERVER_LIKE = """
import sys, threading
from cass_lsp.infer.backend import GenerationParams
from cass_lsp.infer.process import ProcessBackend
from cass_lsp.infer.prompts import source_prompt
from cass_lsp.core.cancel import CancelToken

backend = ProcessBackend(sys.argv[1], name="endless", n_threads=1, n_ctx=4096, idle_unload_s=0)
def report(piece):
    print(backend.pid, flush=True)
backend.generate(source_prompt("__global__ void k() {}"), GenerationParams(max_tokens=100000), report, CancelToken())
"""


def test_the_worker_dies_with_its_parent(models: dict[str, Path], tmp_path: Path) -> None:
    """A server killed outright (no shutdown, no cleanup) takes its worker along."""
    parent = subprocess.Popen(
        [sys.executable, "-c", SERVER_LIKE, str(models["endless"])],
        stdout=subprocess.PIPE,
        env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])},
        start_new_session=True,
    )
    try:
        assert parent.stdout is not None
        worker = int(parent.stdout.readline())  # printed once it streams
        assert alive(worker)
        parent.kill()
        parent.wait(10)
        deadline = time.monotonic() + 10
        while alive(worker) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not alive(worker)
    finally:
        if parent.poll() is None:
            parent.kill()
            parent.wait()


# ------------------------------------------------------------------------------------ extra buffer types
@pytest.mark.parametrize(
    ("setting", "this", "probed", "on", "probe"),
    [
        ("on", AMX_CPU, None, True, False),
        ("off", PLAIN_CPU, None, False, False),
        ("auto", PLAIN_CPU, None, True, False),
        ("auto", AMX_CPU, None, True, True),
        ("auto", AMX_CPU, True, True, False),
        ("auto", AMX_CPU, False, False, False),
    ],
)
def test_the_extra_buffer_type_decision(
    setting: cpu.ExtraBufferTypes, this: cpu.CpuInfo, probed: bool | None, on: bool, probe: bool
) -> None:
    choice = cpu.choose(setting, this, probed)
    assert (choice.on, choice.probe) == (on, probe), choice.reason


def test_this_cpu_is_read_from_proc_cpuinfo() -> None:
    this = cpu.this_cpu()
    flags_line = next(line for line in Path("/proc/cpuinfo").read_text().splitlines() if line.startswith("flags"))
    assert this.flags == frozenset(flags_line.partition(":")[2].split())
    assert this.has_amx == any(flag.startswith("amx") for flag in this.flags)


def test_a_probe_that_crashes_turns_them_off_for_good_and_the_request_is_answered(
    models: dict[str, Path], opened: list[ProcessBackend], private_cache: Path
) -> None:
    crashing = {PROBE_FAULT_ENV: "SIGSEGV"}  # where llama.cpp's AMX path dies on a multi-token batch
    backend = backend_for(opened, models["fixed"], this_cpu=AMX_CPU, env=crashing)
    answer = backend.generate(source_prompt(KERNEL), GenerationParams(max_tokens=400), lambda _: None, CancelToken())
    assert answer.text == DEFAULT_ANSWER
    assert backend.last_load is not None and backend.last_load.extra_buffer_types is False
    key = cpu.probe_key(AMX_CPU, "F32")
    assert cpu.probed(key) is False and (private_cache / "model" / "extra-buffer-types.json").is_file()
    # the answer is kept: a new worker for this CPU and model type loads without them, unprobed
    # (the probe would die again, as the fault is still set)
    second = backend_for(opened, models["endless"], this_cpu=AMX_CPU, env=crashing)
    capped = second.generate(source_prompt(KERNEL), GenerationParams(max_tokens=8), lambda _: None, CancelToken())
    assert capped.finish_reason == "length"
    assert second.last_load is not None and second.last_load.extra_buffer_types is False


def test_a_probe_that_passes_keeps_them_on(models: dict[str, Path], opened: list[ProcessBackend]) -> None:
    backend = backend_for(opened, models["fixed"], this_cpu=AMX_CPU)
    answer = backend.generate(source_prompt(KERNEL), GenerationParams(max_tokens=400), lambda _: None, CancelToken())
    assert answer.text == DEFAULT_ANSWER
    assert backend.last_load is not None and backend.last_load.extra_buffer_types is True
    assert cpu.probed(cpu.probe_key(AMX_CPU, "F32")) is True


@pytest.mark.parametrize("setting", ["on", "off"])
def test_the_setting_is_what_llama_cpp_loads_with(
    models: dict[str, Path], opened: list[ProcessBackend], setting: cpu.ExtraBufferTypes
) -> None:
    backend = backend_for(opened, models["fixed"], extra_buffer_types=setting, this_cpu=AMX_CPU)
    backend.generate(source_prompt(KERNEL), GenerationParams(max_tokens=400), lambda _: None, CancelToken())
    assert backend.last_load is not None and backend.last_load.extra_buffer_types is (setting == "on")
    assert cpu.probed(cpu.probe_key(AMX_CPU, "F32")) is None  # an explicit setting probes nothing


def test_doctor_reports_the_cpu_backend_and_the_buffer_types() -> None:
    from cass_lsp.cli import doctor

    backend, buffers = doctor.model_runtime_status()
    assert backend.found and backend.version is not None and backend.version.startswith("libggml-cpu"), backend
    assert ("portable build" in backend.version) == backend.version.startswith("libggml-cpu-")
    assert buffers.found and buffers.version is not None
    if not cpu.this_cpu().has_amx:
        assert buffers.version.endswith("; auto: no AMX on this CPU: on"), buffers
