"""The corpus manifest (``manifest.toml``): which programs exist and what each needs and expects."""

from __future__ import annotations

import fnmatch
import functools
import re
import tomllib
from pathlib import Path
from typing import Literal

import msgspec

CORPUS_DIR = Path(__file__).parent
PROGRAMS_DIR = CORPUS_DIR / "programs"
MANIFEST = CORPUS_DIR / "manifest.toml"

CudaLibrary = Literal["cublas", "cusparse", "cufft", "curand", "cub", "thrust"]
ROCM_VERSIONS = ("5.2", "7.1")
WAVE32_ARCH = "gfx1100"
WAVE64_ARCH = "gfx942"


class Expectations(msgspec.Struct, forbid_unknown_fields=True):
    """Finding codes a translation must report: on every target, on gfx942, or for one ROCm."""

    all: list[str] = []
    gfx942: list[str] = []
    rocm52: list[str] = []
    rocm71: list[str] = []

    def codes(self, *, rocm: str, arch: str) -> set[str]:
        wanted = set(self.all)
        if arch == WAVE64_ARCH:
            wanted.update(self.gfx942)
        wanted.update(self.rocm52 if rocm == "5.2" else self.rocm71)
        return wanted

    def every_code(self) -> set[str]:
        return {*self.all, *self.gfx942, *self.rocm52, *self.rocm71}


class Failure(msgspec.Struct, forbid_unknown_fields=True):
    """A translation that cannot compile for some targets, and why.

    ``because = "finding"``: HIP cannot express the construct and the translation says so (the
    findings test checks the finding); ``"toolchain"``: the translation is right but the headers
    on this machine cannot build it (reported as xfail with ``note``). Every clang error line must
    match ``errors``.
    """

    targets: list[str]  # fnmatch patterns over target ids such as "rocm5.2-gfx1100"
    because: Literal["finding", "toolchain"]
    errors: str
    note: str

    def applies_to(self, target_id: str) -> bool:
        return any(fnmatch.fnmatchcase(target_id, pattern) for pattern in self.targets)

    def explains(self, error_lines: list[str]) -> bool:
        pattern = re.compile(self.errors)
        return bool(error_lines) and all(pattern.search(line) for line in error_lines)


class Program(msgspec.Struct, forbid_unknown_fields=True):
    file: str
    covers: list[str]
    libs: list[CudaLibrary]
    headers: list[str] = []
    nvcc: list[str] = []
    expect: Expectations = msgspec.field(default_factory=Expectations)
    fails: list[Failure] = []

    @property
    def name(self) -> str:
        return Path(self.file).stem

    @property
    def path(self) -> Path:
        return PROGRAMS_DIR / self.file

    def failure_for(self, target_id: str) -> Failure | None:
        return next((f for f in self.fails if f.applies_to(target_id)), None)


class Manifest(msgspec.Struct, forbid_unknown_fields=True):
    program: list[Program]


@functools.cache
def programs() -> tuple[Program, ...]:
    data = tomllib.loads(MANIFEST.read_text(encoding="utf-8"))
    return tuple(msgspec.convert(data, Manifest).program)
