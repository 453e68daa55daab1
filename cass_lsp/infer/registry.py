"""The models the user added (``cass-lsp models add``): ``models.json`` in the user's config folder.

An entry records what a check of the file found (size, modification time, architecture, context), so
listing the models needs no file reads. The sha256 of a multi-GB file takes seconds to minutes, so
it is computed only on request (``--sha256``) or when the manifest has one to compare against.
Writes replace the file atomically; a registry that cannot be decoded is reported, never overwritten.
"""

from __future__ import annotations

import datetime
import hashlib
import os
import re
from pathlib import Path
from typing import Literal

import msgspec

from cass_lsp.core.dirs import config_dir
from cass_lsp.infer.backend import ModelError
from cass_lsp.infer.gguf_file import GgufError, read, validate
from cass_lsp.infer.manifest import ModelRole, ModelSpec, load_manifest

_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")

FileStatus = Literal["present", "missing", "changed"]


class Registered(msgspec.Struct, frozen=True, kw_only=True):
    name: str
    path: str
    """Absolute."""
    role: ModelRole
    size: int
    mtime_ns: int
    architecture: str
    context_length: int | None
    added: str
    """When it was added (ISO 8601, UTC)."""
    sha256: str | None = None
    """Only when computed (``--sha256``, or the manifest has one); None once the file changed."""


class _RegistryFile(msgspec.Struct, kw_only=True):
    models: list[Registered]


class RegistryError(ModelError):
    """The registry cannot be read, or a model cannot be added, found or used; says why."""


def registry_path() -> Path:
    return config_dir() / "models.json"


def models() -> list[Registered]:
    """The added models, in the order they were added."""
    return _load()


def add(
    path: str | os.PathLike[str], name: str | None = None, role: ModelRole | None = None, *, sha256: bool = False
) -> Registered:
    """Check the GGUF at ``path`` and register it; return the entry.

    ``name`` defaults to the known model the file name names (``cass-src-1.5b.Q8_0.gguf``), else
    the file's stem; ``role`` to that model's role (required for other files). Adding a name again
    with the same file refreshes its entry; with another file it is an error.
    """
    entries = _load()  # first: a corrupt registry stops here, before it could be overwritten
    file = os.path.abspath(path)
    manifest = load_manifest()
    spec = (manifest.find(name) if name else None) or manifest.match_file(file)
    name = name or _default_name(file, spec)
    if not _NAME.fullmatch(name):
        raise RegistryError(f"{name!r} is not a usable model name (letters, digits, '.', '-', '_'): give --name")
    entry = _checked(file, name, spec, role, sha256=sha256)
    existing = next((e for e in entries if e.name == name), None)
    if existing is None:
        _save([*entries, entry])
        return entry
    if existing.path != file:
        raise RegistryError(f"a model named {name} is already added ({existing.path}): remove it first")
    entry = msgspec.structs.replace(entry, added=existing.added)
    _save([entry if e.name == name else e for e in entries])
    return entry


def remove(name: str) -> Registered:
    entries = _load()
    entry = next((e for e in entries if e.name == name), None)
    if entry is None:
        raise RegistryError(f"no model named {name} is added")
    _save([e for e in entries if e.name != name])
    return entry


def names_a_file(name_or_path: str) -> bool:
    """Whether a model setting or argument is read as a GGUF file's path rather than an added name."""
    return os.path.isfile(name_or_path) or name_or_path.endswith(".gguf") or os.sep in name_or_path


def resolve(name_or_path: str, role: ModelRole | None = None) -> Registered:
    """The usable model a setting or an argument names: an added model's name, or a GGUF's path.

    ``role`` is the role the caller needs: a model of another role is an error. A path need not be
    added; its role is the manifest's when the file name names a known model, else ``role`` (src when
    not given). The file's header is checked again; an added file that changed since it was added is
    accepted with its new size (and without its sha256). Nothing is written.
    """
    if names_a_file(name_or_path):
        file = os.path.abspath(name_or_path)
        spec = load_manifest().match_file(file)
        return _checked(file, _default_name(file, spec), spec, role or (None if spec else "src"), sha256=False)
    entry = next((e for e in _load() if e.name == name_or_path), None)
    if entry is None:
        known = load_manifest().find(name_or_path) is not None
        hint = "convert it (see gguf/README.md) and `cass-lsp models add FILE`" if known else "`cass-lsp models list`"
        raise RegistryError(f"no model named {name_or_path} is added: {hint}")
    if role is not None and entry.role != role:
        raise RegistryError(f"{entry.name} is a model of role {entry.role}, not {role}")
    if status(entry) == "present":
        return entry
    try:
        fresh = _checked(entry.path, entry.name, load_manifest().find(entry.name), entry.role, sha256=False)
    except RegistryError as exc:
        raise RegistryError(f"added model {entry.name}: {exc}") from None
    return msgspec.structs.replace(fresh, added=entry.added)


def status(entry: Registered) -> FileStatus:
    """Whether the model's file is still there as it was when added (size and modification time)."""
    try:
        stat = os.stat(entry.path)
    except OSError:
        return "missing"
    return "present" if (stat.st_size, stat.st_mtime_ns) == (entry.size, entry.mtime_ns) else "changed"


def file_sha256(path: str | os.PathLike[str]) -> str:
    with open(path, "rb") as file:
        return hashlib.file_digest(file, "sha256").hexdigest()


def _checked(file: str, name: str, spec: ModelSpec | None, role: ModelRole | None, *, sha256: bool) -> Registered:
    """The entry for ``file``, or :class:`RegistryError` saying why it is unusable."""
    if spec is not None and role is not None and spec.role != role:
        raise RegistryError(f"{spec.name} is a model of role {spec.role}, not {role}")
    role = role or (spec.role if spec else None)
    if role is None:
        raise RegistryError(f"{file}: not a known CASS model name: give its role, src or asm (--role)")
    try:
        info = read(file)
    except GgufError as exc:
        raise RegistryError(str(exc)) from None
    stat = os.stat(file)
    problems = validate(info, spec)
    if problems:
        raise RegistryError(f"{file}: " + "; ".join(problems))
    digest = file_sha256(file) if sha256 or (spec and spec.sha256) else None
    if spec and spec.sha256 and digest != spec.sha256:
        raise RegistryError(f"{file}: sha256 {digest} differs from the manifest's {spec.sha256} for {spec.name}")
    return Registered(
        name=name,
        path=file,
        role=role,
        size=stat.st_size,
        mtime_ns=stat.st_mtime_ns,
        architecture=info.architecture,
        context_length=info.context_length,
        added=datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        sha256=digest,
    )


def _default_name(file: str, spec: ModelSpec | None) -> str:
    return spec.name if spec else Path(file).stem


def _load() -> list[Registered]:
    path = registry_path()
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return []
    except OSError as exc:
        raise RegistryError(f"{path}: cannot read the model registry: {exc.strerror or exc}") from None
    try:
        return msgspec.json.decode(data, type=_RegistryFile).models
    except msgspec.DecodeError as exc:
        raise RegistryError(f"{path}: the model registry is corrupt ({exc}): fix or delete it") from None


def _save(entries: list[Registered]) -> None:
    path = registry_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        temporary.write_bytes(msgspec.json.format(msgspec.json.encode(_RegistryFile(models=entries))) + b"\n")
        os.replace(temporary, path)
    except OSError as exc:
        temporary.unlink(missing_ok=True)
        raise RegistryError(f"{path}: cannot write the model registry: {exc.strerror or exc}") from None
