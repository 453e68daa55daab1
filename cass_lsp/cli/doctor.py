"""`cass-lsp doctor`: every tool and package cass-lsp uses, found or missing, with the exact install hint."""

from __future__ import annotations

import argparse
import os
import sys
from importlib import metadata

import msgspec

from cass_lsp.core.terminal import escape
from cass_lsp.toolchains import ToolStatus

MODEL_ENV = "CASS_LSP_MODEL"

_PACKAGES: tuple[tuple[str, str], ...] = (
    ("pygls", "pip install 'pygls>=2.1,<3'"),
    ("lsprotocol", "pip install lsprotocol"),
    ("tree-sitter", "pip install 'tree-sitter>=0.25,<0.27'"),
    ("tree-sitter-cuda", "pip install 'tree-sitter-cuda>=0.21.2,<0.22'"),
    ("watchdog", "pip install watchdog"),
    ("msgspec", "pip install msgspec"),
    ("platformdirs", "pip install platformdirs"),
    ("llama-cpp-python", "scripts/llama_wheel.sh PYTHON  (a portable llama.cpp build for any x86-64 CPU; pip's own is native)"),
)


class DoctorReport(msgspec.Struct, rename="camel"):
    tools: list[ToolStatus]
    missing: int


def python_packages() -> list[ToolStatus]:
    statuses = []
    for name, hint in _PACKAGES:
        try:
            version: str | None = metadata.version(name)
        except metadata.PackageNotFoundError:
            version = None
        statuses.append(
            ToolStatus(
                name=f"python: {name}",
                found=version is not None,
                version=version,
                path=None,
                hint=None if version else hint,
            )
        )
    return statuses


def model_status(name: str | None) -> list[ToolStatus]:
    """The model named (an added name, a manifest name or a GGUF path), checked like the server
    would load it, plus every model added with `cass-lsp models add`."""
    from cass_lsp.infer import registry

    statuses = []
    try:
        added = registry.models()
    except registry.RegistryError as error:
        return [ToolStatus(name="models (added)", found=False, hint=str(error))]
    for model in added:
        statuses.append(_model(model.name, model.path))
    if name:
        statuses.append(_model(name, name))
    if not statuses:
        statuses.append(
            ToolStatus(
                name="model (GGUF)",
                found=False,
                hint=f"optional: cass-lsp models add FILE.gguf, doctor --model NAME|PATH, or {MODEL_ENV}=...",
            )
        )
    return statuses


def _model(label: str, name: str) -> ToolStatus:
    from cass_lsp.infer import gguf_file, registry

    try:
        found = registry.resolve(name)
        info = gguf_file.read(found.path)
    except (registry.RegistryError, gguf_file.GgufError) as error:
        return ToolStatus(name=f"model {label}", found=False, hint=str(error))
    version = f"{info.architecture} {info.file_type or ''} ctx {info.context_length}".replace("  ", " ")
    return ToolStatus(name=f"model {found.name}", found=True, version=version, path=found.path)


def model_runtime_status() -> list[ToolStatus]:
    """What llama.cpp computes with here, as a model's worker process finds it (asked of one: a
    llama.cpp that crashes on load must not take the doctor along), and whether the extra buffer
    types (weight repacking) are used by default."""
    from cass_lsp.core import proc
    from cass_lsp.infer import cpu, process
    from cass_lsp.infer.runtime import CpuBackend

    name = "llama.cpp CPU backend"
    argv = [sys.executable, "-m", "cass_lsp.infer.worker", "--describe"]
    result = proc.run(argv, timeout=120, env=process.worker_env())
    if not result.ok:
        why = result.stderr.decode(errors="replace").strip().splitlines()[-1:] or [f"exit status {result.returncode}"]
        if result.returncode < 0:
            why = [f"llama.cpp crashed while loading: {process.signal_name(result.returncode)}", *why]
        return [ToolStatus(name=name, found=False, hint="; ".join(why))]
    backend = msgspec.json.decode(result.stdout, type=CpuBackend)
    build = "portable build, the variant for this CPU" if backend.portable else "native build: only for CPUs like the one that built it"
    statuses = [ToolStatus(name=name, found=True, version=f"{backend.library} ({build}): {' '.join(backend.features)}")]
    this = cpu.this_cpu()
    offered = ", ".join(backend.extra_buffer_types) or "none offered"
    decision = cpu.choose("auto", this, None)
    if this.has_amx:
        answers = [f"{key.rsplit(' | ', 1)[-1]} {'on' if passed else 'off'}" for key, passed in cpu.all_probed().items()
                   if key.startswith(f"{this.model} | llama-cpp-python ")]
        default = f"auto: AMX on this CPU, probed once per model type ({', '.join(answers) or 'none probed yet'})"
    else:
        default = f"{decision.reason}: on"
    statuses.append(ToolStatus(name="llama.cpp extra buffer types", found=True, version=f"{offered}; {default}"))
    return statuses


def verification_status() -> list[ToolStatus]:
    """What can run programs for run-verification here, and how the sandbox isolates them."""
    from cass_lsp.cpu import libraries
    from cass_lsp.verify import cgroups, runners, sandbox

    statuses = [
        ToolStatus(name=f"runner {name}", found=ok, version=why if ok else None, hint=None if ok else why)
        for name, (ok, why) in runners.availability().items()
    ]
    for library, ok, why in libraries.linked_status():
        statuses.append(ToolStatus(name=f"runner cpu: {library}", found=ok, version=why if ok else None, hint=None if ok else why))
    try:
        isolation = sandbox.isolation()
    except sandbox.SandboxError as error:  # CASS_LSP_SANDBOX_LEVEL names no level
        return [*statuses, ToolStatus(name="sandbox", found=False, hint=str(error))]
    applied = [
        label
        for label, on in (
            ("files confined", isolation.files),
            ("no network", isolation.network),
            ("own PID namespace", isolation.pid_namespace),
            ("process cap", isolation.process_cap),
        )
        if on
    ]
    refused = "" if isolation.files else f": runs refused unless {sandbox.unconfined_hint()}"
    level = f"level {isolation.level}{refused}"
    statuses.append(
        ToolStatus(name="sandbox", found=True, version=", ".join([level, *applied]), hint=isolation.note or None)
    )
    memory = cgroups.memory_bound()
    statuses.append(ToolStatus(name="sandbox memory", found=True, version=memory.describe()))
    return statuses


def _optional(tool: ToolStatus) -> bool:
    """The model, its runtime, the runners and the tools that build ported projects are optional:
    the rule engine, listings and compile checks work without them."""
    return tool.name.startswith(("model", "runner", "build:")) or "llama" in tool.name


def collect(model_path: str | None) -> DoctorReport:
    from cass_lsp import toolchains
    from cass_lsp.buildfiles import tools as build_tools

    tools = [*python_packages(), *toolchains.report(), *verification_status(), *model_status(model_path),
             *model_runtime_status(), *build_tools.status()]
    tools = [msgspec.structs.replace(t, optional=_optional(t)) for t in tools]
    required = [t for t in tools if not t.found and not t.optional]
    return DoctorReport(tools=tools, missing=len(required))


def render(report: DoctorReport) -> str:
    width = max(len(t.name) for t in report.tools)
    lines = []
    for tool in report.tools:
        mark = "ok     " if tool.found else ("absent " if tool.optional else "MISSING")
        detail = " ".join(x for x in (tool.version, tool.path) if x) if tool.found else f"-> {tool.hint}"
        if tool.source:  # which install a job uses, and why that one
            detail += f"  ({tool.source})"
        lines.append(f"{mark}  {tool.name.ljust(width)}  {detail}")
    lines.append("all required tools found" if report.missing == 0 else f"{report.missing} required tool(s) missing")
    return "\n".join(lines)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    parser.add_argument(
        "--model", default=os.environ.get(MODEL_ENV), help=f"a GGUF model to check (default ${MODEL_ENV})"
    )


def run(args: argparse.Namespace) -> int:
    report = collect(args.model)
    if args.json:
        sys.stdout.write(msgspec.json.encode(report).decode() + "\n")
    else:
        print(escape(render(report)))  # versions and notes are the tools' own words
    return 0 if report.missing == 0 else 1
