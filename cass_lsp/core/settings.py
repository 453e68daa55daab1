"""Every setting of cass-lsp, in one fully-defaulted msgspec Struct tree (camelCase on the wire).

A client may send nothing, part of the tree, or bad values: missing keys take defaults, and each bad
key is dropped (its default kept) and reported by name, so the rest of the configuration still applies.
"""

from __future__ import annotations

import copy
import re
from typing import Annotated, Any, Literal

import msgspec

from cass_lsp.core import proc
from cass_lsp.core.profile import TargetProfile, TranslateOptions

SECTION = "cass"
"""The settings section: `cass.target.arch` in VS Code, `settings = { cass = {...} }` in Neovim."""


class DiagnosticsSettings(msgspec.Struct, rename="camel", forbid_unknown_fields=True, frozen=True):
    enabled: bool = True
    debounce_ms: int = 250


class ToolArgs(msgspec.Struct, rename="camel", forbid_unknown_fields=True, frozen=True):
    nvcc: list[str] = msgspec.field(default_factory=list)
    clang: list[str] = msgspec.field(default_factory=list)


class AsmSettings(msgspec.Struct, rename="camel", forbid_unknown_fields=True, frozen=True):
    targets: list[str] = msgspec.field(default_factory=lambda: ["sm_90", "gfx1100"])
    compile_on_open: bool = True
    hover_wait_ms: int = 0
    """How long a hover may wait for a compile when no listing of any version is ready (0: never)."""
    hover_max_instructions: int = 8
    timeout_seconds: float = 60.0
    compile_commands: str | None = None
    extra_args: ToolArgs = msgspec.field(default_factory=ToolArgs)
    cache_max_mb: int = 256


class ModelSettings(msgspec.Struct, rename="camel", forbid_unknown_fields=True, frozen=True):
    """The CASS model: a local GGUF through llama-cpp-python, or a shared OpenAI-compatible server."""

    name: str | None = None
    """A model added with `cass-lsp models add`, a manifest name, or a path to a GGUF file; none: no
    model actions are offered."""
    backend: Literal["llama", "openai"] = "llama"
    assembly_name: str | None = None
    """An assembly model (cass-smA100-…, cass-sm4090-…) for predicted RDNA3 next to the listings."""
    n_threads: int = 0
    """0: all cores but one, and two on a 2-core machine."""
    n_ctx: int = 8192
    n_gpu_layers: int = 0
    temperature: float = 0.0
    max_tokens: int = 4096
    """The most one generation may produce; a region's translation stops sooner, at about twice the
    region's tokens plus a margin (a model that rambles)."""
    timeout_seconds: float = 600.0
    idle_unload_seconds: float = 600.0
    """A local model runs in a worker process of its own; the worker exits after this long unused."""
    extra_buffer_types: Literal["auto", "on", "off"] = "auto"
    """llama.cpp's extra buffer types (weight repacking for the CPU's own kernels, AMX on a current
    Xeon). auto: on, except on a CPU with AMX where a one-time probe found the AMX path crashing."""
    endpoint: str | None = None
    """For backend "openai": the server's base URL, e.g. http://gpu-box:8000/v1."""
    api_key_env: str | None = None
    """For backend "openai": the environment variable holding the API key (never the key itself)."""


Runner = Literal["auto", "none", "nvidia", "amd", "cpu", "command"]
TIME_AND_RATE_UNITS = (
    r"(?:[munµ]s(?:ec)?/iter|[munµ]?s(?:ec)?|secs?|seconds?|(?:milli|micro|nano)seconds?"
    r"|[kmgtp]i?b(?:ytes)?/s(?:ec)?|[kmgtp]?flop/s|[kmgtp]?flops|items/s|it/s|ops/s|elements/s)"
)


Positive = Annotated[float, msgspec.Meta(gt=0)]
PositiveInt = Annotated[int, msgspec.Meta(gt=0)]


class RunLimits(msgspec.Struct, rename="camel", forbid_unknown_fields=True, frozen=True):
    """What a verification run may use before it is stopped (each program, original and translation).
    Every limit is positive: a bad value is reported by its key and the default kept."""

    timeout_seconds: Positive = 20.0
    cpu_seconds: PositiveInt = 20
    memory_mb: PositiveInt = 4096
    file_size_mb: PositiveInt = 64
    disk_mb: PositiveInt = 512  # all the files and folders a run writes, together
    processes: PositiveInt = 64
    output_mb: PositiveInt = 4


class CompilerLimits(msgspec.Struct, rename="camel", forbid_unknown_fields=True, frozen=True):
    """What each compiler process may use (nvcc and what it starts, clang, g++ for the CPU runtime;
    each on its own) before it is stopped and the stop is said with the key. Their wall time is
    cass.asm.timeoutSeconds and cass.verification.compileTimeoutSeconds."""

    memory_mb: PositiveInt = 4096
    """Address space of each process; the heaviest compile of the corpus (thrust's sort) takes
    0.9 GB in nvcc's cicc, 0.4 GB in clang."""
    cpu_seconds: PositiveInt = 300
    """CPU time of each process; that compile takes 16 s in all."""

    def bounds(self) -> proc.Limits:
        return proc.Limits(self.memory_mb, self.cpu_seconds, f"{SECTION}.compilerLimits")


class VerificationSettings(msgspec.Struct, rename="camel", forbid_unknown_fields=True, frozen=True):
    """Background verification: the original and its translation compiled, and (opt-in) run and compared."""

    enabled: bool = True
    """Compile checks on save and on file changes (compiling never runs the user's code)."""
    watch: bool = True
    """Also verify when files change outside the editor (git checkout, a build script)."""
    debounce_ms: int = 300
    translation_patterns: list[str] = msgspec.field(default_factory=lambda: ["{stem}.hip"])
    """Where the translation of ``DIR/NAME.cu`` lives, relative to DIR ({stem}: NAME, {name}: NAME.cu):
    e.g. "hip/{stem}.cpp". A CUDA file with none is verified against its in-memory rule translation."""
    nvidia_arch: str = "sm_90"
    """The NVIDIA target the original is compiled for."""
    arches: list[str] = msgspec.field(default_factory=list)
    """AMD targets the translation is compiled for (empty: cass.target.arch)."""
    compile_timeout_seconds: float = 120.0
    run: bool = False
    """Build and run both programs and compare their output. Off by default, and refused in workspaces
    the client marks untrusted: it executes the workspace's code."""
    runner: Runner = "auto"
    command: list[str] = msgspec.field(default_factory=list)
    """For runner "command": the argv template that runs each program, {exe} the program and {workdir}
    the directory holding it and its input files (also the working directory), e.g. ["srun",
    "--gres=gpu:1", "{exe}"]; no shell unless you write one. Without commandHost it runs here (a
    wrapper, or srun with the server's TMPDIR on a shared file system); with it, on that host, where
    empty means the program itself."""
    command_host: str = ""
    """For runner "command": an ssh destination ("gpu-box", "me@gpu-box"). Each run's directory is
    copied to it (ssh and tar), the command runs there, and the copy is removed afterwards."""
    command_dir: str = "/tmp"
    """On commandHost: where each run's copy is made (relative paths and ~/ are from the home
    directory). For srun, a directory the compute nodes share."""
    command_ssh: list[str] = msgspec.field(default_factory=lambda: ["ssh"])
    """The ssh client and its options for commandHost, e.g. ["ssh", "-p", "2222", "-i", "/home/me/.ssh/gpu"]."""
    command_builds_for: Literal["nvidia", "amd", "cpu"] = "nvidia"
    """Which toolchain builds the programs the "command" runner runs."""
    args: list[str] = msgspec.field(default_factory=list)
    """Arguments for both programs (input files are read from a copy of the program's folder)."""
    env: dict[str, str] = msgspec.field(default_factory=dict)
    """Variables set for each run of both programs (a run line's `GSL_RNG_SEED=123 ./main`); PATH,
    HOME, TMPDIR, LANG, the loader's LD_* and the CPU runtime's CASS_* are refused."""
    script: list[str] = msgspec.field(default_factory=list)
    """A script of the program's folder that runs the program, with its arguments, run instead of
    the program on both sides (`["./runtests.sh"]`, `["bash", "run.sh", "64"]`): its path is relative
    to the folder, the program lies at `programPath` in each run's copy, and what the script prints
    is compared. Only sh, bash or dash may run it, or its own `#!` line."""
    program_path: str = ""
    """Where each run's folder holds the program, relative to it, as the build writes it (`nbody`,
    `bin/nbody`: where a script finds it); empty: a name of its own."""
    stdin: str | None = None
    expected_exit: int = 0
    """The exit code of a clean run of the original: a run that ends otherwise is not judged."""
    nvcc_args: list[str] = msgspec.field(default_factory=list)
    """Extra flags for nvcc (the original), after the program's own from compile_commands.json."""
    hip_args: list[str] = msgspec.field(default_factory=list)
    """Extra flags for clang (the HIP translation; LLVM 19 unless doctor names another)."""
    cpu_args: list[str] = msgspec.field(default_factory=list)
    """Extra flags for g++ building either side for the CPU runtime."""
    compare: Literal["exact", "numeric", "exit-code"] = "numeric"
    """"numeric": numbers compare within the tolerances below, other text exactly; "exit-code": only
    the exit codes (for programs whose output says nothing comparable)."""
    relative_tolerance: float = 1e-5
    absolute_tolerance: float = 1e-8
    compare_ignore: list[str] = msgspec.field(
        default_factory=lambda: [
            r"0x[0-9a-fA-F]{6,}",
            r"(?i)[-+]?(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?\s*\(?\s*" + TIME_AND_RATE_UNITS + r"\s*\)?(?![\w/])",
            r"(?i)\(\s*" + TIME_AND_RATE_UNITS + r"\s*\)\s*[:=]?\s*[-+]?(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?",
        ]
    )
    """Regular expressions for output that differs from run to run: addresses, and numbers with a
    time or rate unit, in any case, with or without parentheses (`212.6 (ms)`, `0.2 GB/s`,
    `10540.8 usec/iter`, `(us): 17`). What they match is left out of the comparison. Whatever else
    differs between two runs of the original is left out too, and the verdict says so."""
    limits: RunLimits = msgspec.field(default_factory=RunLimits)
    ignore: list[str] = msgspec.field(
        default_factory=lambda: [".git", ".hg", ".svn", "build", "node_modules", ".cache", "__pycache__", ".venv"]
    )
    """Folder names the watcher never looks into."""
    max_queued: int = 32
    """At most this many pairs wait for verification; beyond it, the oldest waiting change is dropped."""

    def __post_init__(self) -> None:
        from cass_lsp.core.pairs import check_patterns

        try:
            check_patterns(self.translation_patterns)
        except ValueError as error:  # `key`: names the field for load_settings (msgspec names the struct)
            raise ValueError(f"`translationPatterns`: {error}") from None


class Settings(msgspec.Struct, rename="camel", forbid_unknown_fields=True, frozen=True):
    target: TargetProfile = msgspec.field(default_factory=TargetProfile)
    translate: TranslateOptions = msgspec.field(default_factory=TranslateOptions)
    diagnostics: DiagnosticsSettings = msgspec.field(default_factory=DiagnosticsSettings)
    asm: AsmSettings = msgspec.field(default_factory=AsmSettings)
    model: ModelSettings = msgspec.field(default_factory=ModelSettings)
    verification: VerificationSettings = msgspec.field(default_factory=VerificationSettings)
    compiler_limits: CompilerLimits = msgspec.field(default_factory=CompilerLimits)
    max_parse_bytes: int = 4_000_000
    log_level: Literal["error", "warning", "info", "debug"] = "warning"


_ERROR_PATH = re.compile(r"at `\$((?:\.[A-Za-z_][\w]*|\[\d+\])*)`")
_UNKNOWN_FIELD = re.compile(r"unknown field `([^`]+)`")
_CHECKED_FIELD = re.compile(r"^`(\w+)`: ")  # a struct's __post_init__ refusing one of its fields
_PATH_PART = re.compile(r"\.([A-Za-z_]\w*)|\[(\d+)\]")


def _error_path(error: msgspec.ValidationError) -> list[str | int]:
    message = str(error)
    match = _ERROR_PATH.search(message)
    path: list[str | int] = []
    if match:
        for name, index in _PATH_PART.findall(match.group(1)):
            path.append(name if name else int(index))
    unknown = _UNKNOWN_FIELD.search(message) or _CHECKED_FIELD.match(message)
    if unknown:
        path.append(unknown.group(1))
    return path


def _drop(data: Any, path: list[str | int]) -> bool:
    """Remove the value at `path`; a bad list element drops its whole list. False if nothing to drop."""
    first_index = next((i for i, part in enumerate(path) if isinstance(part, int)), len(path))
    keys = path[:first_index]
    if not keys:
        return False
    parent = data
    for key in keys[:-1]:
        if not isinstance(parent, dict) or key not in parent:
            return False
        parent = parent[key]
    if isinstance(parent, dict) and keys[-1] in parent:
        del parent[keys[-1]]
        return True
    return False


def _dotted(path: list[str | int]) -> str:
    text = SECTION
    for part in path:
        text += f"[{part}]" if isinstance(part, int) else f".{part}"
    return text


def load_settings(raw: Any) -> tuple[Settings, list[str]]:
    """Settings from a client's JSON value, and a message for each bad key that was dropped."""
    if raw is None:
        return Settings(), []
    if not isinstance(raw, dict):
        return Settings(), [f"{SECTION}: expected an object of settings, got {type(raw).__name__}; using defaults"]
    data = copy.deepcopy(raw)
    problems: list[str] = []
    for _ in range(64):
        try:
            return msgspec.convert(data, Settings), problems
        except msgspec.ValidationError as error:
            path = _error_path(error)
            reason = _CHECKED_FIELD.sub("", str(error).split(" - at ")[0])
            if reason.startswith("Object contains unknown field"):
                reason = "unknown setting"
            problems.append(f"{_dotted(path)}: {reason}; using the default")
            if not _drop(data, path):
                break
    return Settings(), [*problems, f"{SECTION}: too many invalid settings; using defaults"]


def merge(base: dict[str, Any], override: dict[str, Any]) -> dict[str, Any]:
    """Deep-merge client setting objects (later sources win key by key)."""
    merged = dict(base)
    for key, value in override.items():
        if isinstance(value, dict) and isinstance(merged.get(key), dict):
            merged[key] = merge(merged[key], value)
        else:
            merged[key] = value
    return merged


def json_schema() -> dict[str, Any]:
    """JSON Schema of the settings; the VS Code extension builds its `contributes.configuration` from it."""
    schema: dict[str, Any] = msgspec.json.schema(Settings)
    # msgspec leaves out defaults made by factories; editors show them, so fill them in from an instance
    _fill_defaults(schema, "Settings", msgspec.to_builtins(Settings()))
    return schema


def _fill_defaults(schema: dict[str, Any], name: str, defaults: dict[str, Any]) -> None:
    for key, spec in schema["$defs"][name]["properties"].items():
        ref = spec.get("$ref", "")
        if ref.startswith("#/$defs/") and isinstance(defaults.get(key), dict):
            _fill_defaults(schema, ref.removeprefix("#/$defs/"), defaults[key])
        elif key in defaults:
            spec.setdefault("default", defaults[key])
