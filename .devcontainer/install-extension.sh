#!/usr/bin/env bash
# Install the .vsix that postCreateCommand built (scripts/vscode.sh) into the VS Code attached to
# this container; a rerun after an unchanged build only checks. Runs on every attach.
set -euo pipefail
cd "$(dirname "$0")/.."
VSIX=editor_clients/vscode/dist/cass-lsp.vsix
log() { printf '\033[1m[devcontainer]\033[0m %s\n' "$*" >&2; }
[ -f "$VSIX" ] || { log "$VSIX is missing: run ./scripts/setup.sh && CASS_VSCODE_SKIP_E2E_DEPS=1 ./scripts/vscode.sh"; exit 1; }
# `code` is the attached VS Code's remote CLI: on PATH in its terminals, else under its server folder
code_cli=$(command -v code || ls -t "$HOME"/.vscode-server/bin/*/bin/remote-cli/code 2>/dev/null | head -1 || true)
[ -n "$code_cli" ] || { log "no VS Code CLI here: install $VSIX with 'Extensions: Install from VSIX...'"; exit 1; }
stamp=${XDG_CACHE_HOME:-$HOME/.cache}/cass-lsp/devcontainer-vsix.sha256  # per container, not in the workspace
sum=$(sha256sum "$VSIX" | cut -d' ' -f1)
if [ "$(cat "$stamp" 2>/dev/null)" != "$sum" ]; then
  "$code_cli" --install-extension "$VSIX" --force
  mkdir -p "$(dirname "$stamp")" && echo "$sum" > "$stamp"
fi
log "cass-lsp extension installed; server: .venv/bin/cass-lsp"
