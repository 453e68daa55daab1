"""The VS Code extension's settings (`contributes.configuration` in editor_clients/vscode/package.json)
match the server's settings schema: every leaf of `cass_lsp.core.settings.json_schema()` is one dotted
`cass.*` setting with the same type, default and enum, and there are no others besides the client's
own `cass.server.*` / `cass.trace.server`. On a mismatch: `npm run gen-config` in
editor_clients/vscode (or ./scripts/vscode.sh) regenerates package.json; commit it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from cass_lsp.core.settings import SECTION, json_schema

PACKAGE_JSON = Path(__file__).resolve().parents[2] / "editor_clients" / "vscode" / "package.json"
CLIENT_PREFIXES = ("cass.server.", "cass.trace.")
FIX = "run `npm run gen-config` in editor_clients/vscode (or ./scripts/vscode.sh) and commit package.json"


def _resolve(schema: dict[str, Any], spec: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in spec:
        name = spec["$ref"].removeprefix("#/$defs/")
        spec = {**schema["$defs"][name], **{k: v for k, v in spec.items() if k != "$ref"}}
    return spec


def _expected(schema: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """dotted key -> the type, default and enum VS Code must declare for it."""
    out: dict[str, dict[str, Any]] = {}

    def walk(spec: dict[str, Any], prefix: str) -> None:
        for key, child in _resolve(schema, spec)["properties"].items():
            resolved = _resolve(schema, child)
            dotted = f"{prefix}.{key}"
            if resolved.get("type") == "object" and "properties" in resolved and "anyOf" not in resolved:
                walk(resolved, dotted)
                continue
            want: dict[str, Any] = {}
            if "anyOf" in resolved:
                members = [_resolve(schema, m) for m in resolved["anyOf"]]
                if all(set(m) == {"type"} for m in members):
                    want["type"] = [m["type"] for m in members]
            elif "type" in resolved:
                want["type"] = resolved["type"]
            if "enum" in resolved:
                want["enum"] = resolved["enum"]
            if "default" in resolved:
                want["default"] = resolved["default"]
            out[dotted] = want

    walk(schema, SECTION)
    return out


def _declared() -> dict[str, dict[str, Any]]:
    groups = json.loads(PACKAGE_JSON.read_text())["contributes"]["configuration"]
    groups = groups if isinstance(groups, list) else [groups]
    return {key: spec for group in groups for key, spec in group["properties"].items()}


def test_every_server_setting_is_declared_alike() -> None:
    expected = _expected(json_schema())
    declared = {k: v for k, v in _declared().items() if not k.startswith(CLIENT_PREFIXES)}
    assert sorted(declared) == sorted(expected), f"settings differ from `cass-lsp schema`: {FIX}"
    for key, want in expected.items():
        got = {field: declared[key][field] for field in want if field in declared[key]}
        assert got == want, f"{key}: package.json has {got}, the schema says {want}: {FIX}"


def test_client_settings_are_not_server_settings() -> None:
    declared = _declared()
    client = sorted(k for k in declared if k.startswith(CLIENT_PREFIXES))
    assert client == ["cass.server.args", "cass.server.path", "cass.server.pythonPath", "cass.trace.server"]
    top = set(json_schema()["$defs"]["Settings"]["properties"])
    assert "server" not in top and "trace" not in top, "the server gained a setting the client uses for itself"


def test_restricted_settings_exist_or_are_announced() -> None:
    """Workspace trust: the settings that let a workspace run programs, choose the server, put
    arguments on the compilers' command line or send code and a key to an endpoint."""
    package = json.loads(PACKAGE_JSON.read_text())
    restricted = package["capabilities"]["untrustedWorkspaces"]["restrictedConfigurations"]
    assert {"cass.verification.run", "cass.server.path", "cass.server.pythonPath"} <= set(restricted)
    # a compiler flag can load a plugin; an endpoint with an API key variable can send code and a
    # secret of the user's environment anywhere
    assert {"cass.asm.extraArgs.clang", "cass.asm.extraArgs.nvcc", "cass.model.endpoint", "cass.model.apiKeyEnv"} <= set(
        restricted
    )
    declared = _declared()
    expected = _expected(json_schema())
    for key in restricted:
        # a restricted key that the schema has must be declared (the rest are the server's to come)
        assert key in declared or key not in expected, key
