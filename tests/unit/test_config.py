"""Settings: defaults everywhere, camelCase on the wire, bad keys dropped one by one and named."""

from __future__ import annotations

import pytest

from cass_lsp.core.settings import CompilerLimits, RunLimits, Settings, json_schema, load_settings, merge


def test_nothing_gives_defaults() -> None:
    assert load_settings(None) == (Settings(), [])
    assert load_settings({}) == (Settings(), [])


def test_camel_case_partial_settings_apply() -> None:
    settings, problems = load_settings(
        {"target": {"arch": "gfx942", "rocm": "5.2"}, "translate": {"launchStyle": "hipLaunchKernelGGL"}}
    )
    assert problems == []
    assert settings.target.arch == "gfx942" and settings.target.wave_size == 64
    assert settings.translate.launch_style == "hipLaunchKernelGGL"
    assert settings.asm == Settings().asm


def test_each_bad_key_is_named_and_the_rest_still_applies() -> None:
    settings, problems = load_settings(
        {
            "target": {"arch": "sm_90"},
            "asm": {"targets": ["sm_90", 7], "hoverWaitMs": 10, "typo": True},
            "diagnostics": {"debounceMs": "fast"},
            "translate": {"launchStyle": "hipLaunchKernelGGL"},
        }
    )
    assert settings.translate.launch_style == "hipLaunchKernelGGL"
    assert settings.asm.hover_wait_ms == 10
    assert settings.asm.targets == Settings().asm.targets
    assert settings.target == Settings().target
    assert settings.diagnostics.debounce_ms == 250
    joined = "\n".join(problems)
    for key in ("cass.target", "cass.asm.targets[1]", "cass.asm.typo", "cass.diagnostics.debounceMs"):
        assert key in joined, (key, problems)
    assert "sm_90" in joined


def test_non_object_settings_are_reported() -> None:
    settings, problems = load_settings(["not", "an", "object"])
    assert settings == Settings() and "expected an object" in problems[0]


def test_merge_is_deep() -> None:
    assert merge({"a": {"b": 1, "c": 2}}, {"a": {"c": 3}, "d": 4}) == {"a": {"b": 1, "c": 3}, "d": 4}


def test_schema_has_defaults_for_vscode() -> None:
    schema = json_schema()
    assert schema["$defs"]["AsmSettings"]["properties"]["targets"]["default"] == ["sm_90", "gfx1100"]


@pytest.mark.parametrize("key", ["timeoutSeconds", "cpuSeconds", "memoryMb", "fileSizeMb", "processes", "outputMb"])
@pytest.mark.parametrize("value", [-1, 0])
def test_run_limits_must_be_positive_and_a_bad_one_is_named(key: str, value: int) -> None:
    settings, problems = load_settings({"verification": {"limits": {key: value}, "run": True}})
    assert settings.verification.run
    assert getattr(settings.verification.limits, _snake(key)) == getattr(RunLimits(), _snake(key))
    assert len(problems) == 1 and problems[0].startswith(f"cass.verification.limits.{key}:"), problems


@pytest.mark.parametrize("key", ["memoryMb", "cpuSeconds"])
@pytest.mark.parametrize("value", [-1, 0, "lots"])
def test_compiler_limits_must_be_positive_and_a_bad_one_is_named(key: str, value: object) -> None:
    settings, problems = load_settings({"compilerLimits": {key: value}, "asm": {"timeoutSeconds": 30}})
    assert settings.asm.timeout_seconds == 30
    assert settings.compiler_limits == CompilerLimits()
    assert len(problems) == 1 and problems[0].startswith(f"cass.compilerLimits.{key}:"), problems


def _snake(name: str) -> str:
    return "".join(f"_{c.lower()}" if c.isupper() else c for c in name)
