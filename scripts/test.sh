#!/usr/bin/env bash
# The whole test suite on a fresh clone: runs the idempotent setup first, then lint, types and tests.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
log() { printf '\033[1m[test]\033[0m %s\n' "$*" >&2; }
log "CUDA library headers for the corpus tests"
.venv/bin/python -m tests.corpus.cuda_lib_headers
log "ruff"
.venv/bin/ruff check cass_lsp tests benchmarks tools
log "mypy"
.venv/bin/mypy
log "pytest"
.venv/bin/python -m pytest -q -p no:cacheprovider "$@"
