"""ResolvedSettings: the settings as every job reads them, computed once per settings change.

The client's settings (:class:`cass_lsp.core.settings.Settings`) may say ``rocm: "auto"``; here "auto"
becomes a version, through the one function that decides it (:func:`cass_lsp.core.targets.
resolve_rocm`), so translation, lint, hover and listings always judge against the same ROCm.
Downstream code takes this object, never the raw settings.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from typing import TYPE_CHECKING

import msgspec

from cass_lsp.core import proc, targets
from cass_lsp.core.profile import LaunchStyle, Libraries, TargetProfile, TranslateOptions
from cass_lsp.core.settings import ModelSettings, Settings, VerificationSettings

if TYPE_CHECKING:
    from cass_lsp.translate.rules import Settings as EngineSettings


class ResolvedSettings(msgspec.Struct, frozen=True):
    arch: str
    wave_size: int
    rocm: str
    """MAJOR.MINOR, never "auto"."""
    rocm_requested: str
    """What the settings said ("auto" or a version), for messages."""
    cuda: str
    """The CUDA reverse translations target as the settings say it ("auto" or MAJOR.MINOR): "auto"
    is read from the installed nvcc only when a reverse translation runs (a forward-only CLI run
    never looks for nvcc), through :func:`cass_lsp.core.targets.resolve_cuda`."""
    launch_style: LaunchStyle
    rewrite_opaque: bool
    libraries: Libraries
    """hip or roc: the library family CUDA libraries become."""
    asm_targets: tuple[str, ...]
    nvcc_args: tuple[str, ...]
    clang_args: tuple[str, ...]
    compile_commands: str | None
    compile_timeout_s: float
    compiler_limits: proc.Limits
    """What each compiler process may use (``cass.compilerLimits``)."""
    cache_max_bytes: int
    compile_on_open: bool
    hover_wait_ms: int
    hover_max_instructions: int
    diagnostics_enabled: bool
    diagnostics_debounce_ms: int
    model: ModelSettings
    """Passed through as the client said it: the model is resolved (file checked, loaded) only
    when a generation needs it, never on a settings change."""
    verification: VerificationSettings

    @property
    def profile(self) -> TargetProfile:
        """The target with its ROCm spelled out (engines then never resolve "auto" themselves)."""
        return TargetProfile(arch=self.arch, rocm=self.rocm, cuda=self.cuda)

    @property
    def options(self) -> TranslateOptions:
        return TranslateOptions(launch_style=self.launch_style, rewrite_strings_and_comments=self.rewrite_opaque,
                                libraries=self.libraries)

    def engine(self, reverse: bool) -> EngineSettings:
        from cass_lsp.translate import rules

        return rules.engine_settings(self.arch, self.rocm, self.launch_style, self.rewrite_opaque, reverse,
                                     self.libraries, self.cuda)

    def extra_args(self, vendor: str) -> tuple[str, ...]:
        return self.nvcc_args if vendor == "nvidia" else self.clang_args

    def digest(self, fields: Iterable[str]) -> str:
        """A hash of exactly the named fields: part of the key of a job that reads them."""
        values = {name: getattr(self, name) for name in sorted(fields)}
        return hashlib.sha256(msgspec.json.encode(values)).hexdigest()[:32]


def resolve(settings: Settings) -> ResolvedSettings:
    target, options, asm = settings.target, settings.translate, settings.asm
    return ResolvedSettings(
        arch=target.arch,
        wave_size=targets.wave_size(target.arch),
        rocm=targets.resolve_rocm(target.rocm),
        rocm_requested=target.rocm,
        cuda=target.cuda,
        launch_style=options.launch_style,
        rewrite_opaque=options.rewrite_strings_and_comments,
        libraries=options.libraries,
        asm_targets=tuple(asm.targets),
        nvcc_args=tuple(asm.extra_args.nvcc),
        clang_args=tuple(asm.extra_args.clang),
        compile_commands=asm.compile_commands,
        compile_timeout_s=asm.timeout_seconds,
        compiler_limits=settings.compiler_limits.bounds(),
        cache_max_bytes=asm.cache_max_mb * 1024 * 1024,
        compile_on_open=asm.compile_on_open,
        hover_wait_ms=asm.hover_wait_ms,
        hover_max_instructions=asm.hover_max_instructions,
        diagnostics_enabled=settings.diagnostics.enabled,
        diagnostics_debounce_ms=settings.diagnostics.debounce_ms,
        model=settings.model,
        verification=settings.verification,
    )


def resolve_cli(**sections: dict[str, object]) -> ResolvedSettings:
    """ResolvedSettings for a CLI verb from settings sections in their wire form
    (``target={"arch": ..., "rocm": ...}``); ValueError with the reason for a bad value."""
    try:
        settings = msgspec.convert(sections, Settings)
    except msgspec.ValidationError as error:
        raise ValueError(str(error).split(" - at ")[0]) from None
    return resolve(settings)
