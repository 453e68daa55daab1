#!/usr/bin/env bash
# Build the VS Code extension (editor_clients/vscode) and install what its end-to-end test needs, on
# Debian 12 as root, after ./scripts/setup.sh (the settings are generated from .venv/bin/cass-lsp).
#
#   1. Debian packages: chromium (the e2e browser), ripgrep (VS Code's search, instead of a GitHub
#      download), libkrb5-dev and build-essential (code-server's native modules)
#   2. the extension's npm packages: `npm ci` from the committed package-lock.json
#   3. code-server 4.100.3 (VS Code 1.100.3, the last release on Node 20) from the npm registry,
#      with no download from anywhere else, into $CASS_VSCODE_CACHE (~/.cache/cass-lsp by default)
#   4. contributes.configuration regenerated from `cass-lsp schema`, then type-check, lint, bundle,
#      the cass-lsp wheel (`python -m build --wheel`, into editor_clients/vscode/server/: the .vsix
#      carries it for its "Install cass-lsp" button) and package: editor_clients/vscode/dist/cass-lsp.vsix
#
# Idempotent: what is already there is only checked (a rerun takes ~15 s, all of it step 4).
# CASS_VSCODE_SKIP_E2E_DEPS=1 leaves out chromium and code-server (build and package only).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
EXT=$ROOT/editor_clients/vscode
CACHE=${CASS_VSCODE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/cass-lsp}
CS_VERSION=4.100.3
CS_PREFIX=$CACHE/code-server-$CS_VERSION
log() { printf '\033[1m[vscode]\033[0m %s\n' "$*" >&2; }
# shellcheck source=scripts/lib.sh
source scripts/lib.sh
started=$(date +%s)

# ------------------------------------------------------------------ node
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  log "node and npm are needed (Node.js 20): install them first"
  exit 1
fi
node_major=$(node -p 'process.versions.node.split(".")[0]')
if ((node_major < 20)); then
  log "Node.js $(node --version) is too old: code-server $CS_VERSION and the build need Node.js 20"
  exit 1
fi

# ------------------------------------------------------------------ Debian packages
APT_PACKAGES=(build-essential python3 libkrb5-dev ripgrep)
[ "${CASS_VSCODE_SKIP_E2E_DEPS:-0}" = 1 ] || APT_PACKAGES+=(chromium)
apt_ensure "${APT_PACKAGES[@]}"

# ------------------------------------------------------------------ the extension's npm packages
# node_modules is current when the lock file it was installed from is the committed one
lock_hash=$(sha256sum "$EXT/package-lock.json" | cut -d' ' -f1)
if [ "$(cat "$EXT/node_modules/.cass-lock-sha256" 2>/dev/null)" != "$lock_hash" ]; then
  log "npm ci (editor_clients/vscode)"
  (cd "$EXT" && npm ci --no-audit --no-fund --loglevel=error)
  echo "$lock_hash" > "$EXT/node_modules/.cass-lock-sha256"
fi

# ------------------------------------------------------------------ code-server
install_code_server() {
  local tmp=$CS_PREFIX.partial
  rm -rf "$tmp" && mkdir -p "$tmp"
  log "code-server $CS_VERSION from npm into $CS_PREFIX (cold: about a minute of native builds)"
  (cd "$tmp" && printf '{"name":"cass-code-server","private":true}\n' > package.json \
    && npm install --ignore-scripts --no-audit --no-fund --loglevel=error "code-server@$CS_VERSION")
  local vs=$tmp/node_modules/code-server/lib/vscode
  # VS Code's own dependencies, with no install scripts: those download from GitHub
  (cd "$vs" && npm install --omit=dev --ignore-scripts --no-audit --no-fund --loglevel=error)
  # @vscode/ripgrep's postinstall downloads rg unless bin/ exists: Debian's rg instead
  mkdir -p "$vs/node_modules/@vscode/ripgrep/bin"
  ln -sfn "$(command -v rg)" "$vs/node_modules/@vscode/ripgrep/bin/rg"
  # native modules (node-pty, spdlog, kerberos, ...) against /usr/include/node; node-pty's
  # post-install runs `npx node-gyp`, which asks before it installs unless npm_config_yes is set
  (cd "$vs" && npm_config_yes=true npm rebuild --loglevel=error >"$tmp/rebuild.log" 2>&1) \
    || { tail -40 "$tmp/rebuild.log" >&2; log "building code-server's native modules failed"; return 1; }
  # the rest of code-server's postinstall.sh
  ln -sfn node_modules "$vs/node_modules.asar"
  (cd "$vs/bin/remote-cli" && ln -sfn code-linux.sh code-server)
  (cd "$vs/bin/helpers" && ln -sfn browser-linux.sh browser.sh)
  (cd "$vs/extensions" && npm install --omit=dev --no-audit --no-fund --loglevel=error >"$tmp/extensions.log" 2>&1) \
    || { tail -40 "$tmp/extensions.log" >&2; log "installing VS Code's built-in extensions failed"; return 1; }
  # argon2 is only for --auth password (the e2e uses --auth none): its failure is not fatal
  (cd "$tmp" && npm rebuild argon2 --loglevel=error >/dev/null 2>&1) || log "argon2 did not build (only --auth password needs it)"
  local home
  home=$(mktemp -d)
  HOME=$home XDG_CONFIG_HOME=$home XDG_DATA_HOME=$home node "$tmp/node_modules/code-server/out/node/entry.js" --version 2>/dev/null | tail -1 >&2
  rm -rf "$home"
  rm -rf "$CS_PREFIX" && mv "$tmp" "$CS_PREFIX"
  # the native modules hold no absolute paths of the install folder, so the move is safe
  echo "$CS_VERSION" > "$CS_PREFIX/.complete"
}
if [ "${CASS_VSCODE_SKIP_E2E_DEPS:-0}" != 1 ] && [ ! -f "$CS_PREFIX/.complete" ]; then
  mkdir -p "$CACHE"
  install_code_server
fi

# ------------------------------------------------------------------ build and package
cd "$EXT"
mkdir -p dist
log "contributes.configuration from \`cass-lsp schema\`"
"$ROOT/.venv/bin/cass-lsp" schema > dist/schema.json
node scripts/gen-config.mjs dist/schema.json
log "type-check (tsc --noEmit)"
npx --no-install tsc -p . --noEmit
log "lint (eslint)"
npx --no-install eslint src scripts e2e
log "bundle (esbuild)"
node scripts/bundle.mjs
log "the cass-lsp wheel the .vsix carries (python -m build --wheel)"
rm -rf server && mkdir -p server
# --no-isolation: the build backend (hatchling, the dev extra) comes from .venv, with no download
"$ROOT/.venv/bin/python" -m build --wheel --no-isolation --outdir server "$ROOT" >dist/wheel-build.log 2>&1 \
  || { tail -40 dist/wheel-build.log >&2; log "building the wheel failed"; exit 1; }
rm -f dist/wheel-build.log
log "package (vsce)"
rm -f dist/cass-lsp.vsix
npx --no-install vsce package --no-dependencies --allow-missing-repository --skip-license \
  -o dist/cass-lsp.vsix >/dev/null
log "done in $(($(date +%s) - started)) s: editor_clients/vscode/dist/cass-lsp.vsix ($(du -k dist/cass-lsp.vsix | cut -f1) KiB, with $(basename server/*.whl)); code-server in $CS_PREFIX"
