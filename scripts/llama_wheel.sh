#!/usr/bin/env bash
# Install llama-cpp-python built portably into the venv of PYTHON, from the project's own wheel cache.
#   scripts/llama_wheel.sh .venv/bin/python
# Why: pip's default build of llama.cpp is native (-march=native), right only on CPUs like the one
# that built it, and pip's wheel cache, keyed by the sdist alone, hands that build to any machine
# sharing the cache (a build from a newer CPU dies of SIGILL on an older one). This one is built with
# GGML_NATIVE=OFF and every x86-64 CPU variant of the CPU backend (GGML_BACKEND_DL,
# GGML_CPU_ALL_VARIANTS; installed beside libllama, where cass_lsp/infer/runtime.py loads them and
# ggml picks the best this CPU runs), so one wheel is right on any x86-64 CPU. It is kept in
# $CASS_LSP_WHEEL_CACHE (default ~/.cache/cass-lsp/wheels) under a name holding the version and a
# hash of the build arguments, the compiler and the machine type; pip's cache is bypassed for it. A
# cached wheel saves the build (tens of minutes on 2 cores: 14 CPU variants); without one, it builds.
set -euo pipefail
PYTHON=$1
VERSION=0.3.36
# LLAVA_BUILD=OFF: no libmtmd (multimodal models; llama-cpp-python imports it only for those, and
# cass-lsp never does), dozens of compile steps less
BUILD_ARGS="-DGGML_NATIVE=OFF -DGGML_BACKEND_DL=ON -DGGML_CPU_ALL_VARIANTS=ON -DCMAKE_INSTALL_BINDIR=llama_cpp/lib -DLLAVA_BUILD=OFF"
log() { printf '\033[1m[llama]\033[0m %s\n' "$*" >&2; }

key=$(printf '%s\n' "$VERSION" "$BUILD_ARGS" "$(cc --version | head -1)" "$(c++ --version | head -1)" "$(uname -m)" \
  | sha256sum | cut -c1-16)
cache=${CASS_LSP_WHEEL_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/cass-lsp/wheels}/llama-cpp-python-$VERSION-$key
wheel=$(find "$cache" -maxdepth 1 -name 'llama_cpp_python-*.whl' 2>/dev/null | head -1 || true)
if [ -z "$wheel" ]; then
  log "building llama-cpp-python $VERSION portably (all x86-64 CPU variants; tens of minutes on 2 cores)"
  scratch=$(mktemp -d)
  trap 'rm -rf "$scratch"' EXIT
  started=$SECONDS
  CMAKE_ARGS="$BUILD_ARGS" "$PYTHON" -m pip wheel -q --no-deps --no-cache-dir --no-binary llama-cpp-python \
    "llama-cpp-python==$VERSION" -w "$scratch"
  log "built in $(( (SECONDS - started) / 60 )) min $(( (SECONDS - started) % 60 )) s"
  mkdir -p "$cache"
  mv "$scratch"/llama_cpp_python-*.whl "$cache/"
  wheel=$(find "$cache" -maxdepth 1 -name 'llama_cpp_python-*.whl' | head -1)
fi
# pip records the wheel an install came from: an install from another wheel (a native build) is replaced
installed=$("$PYTHON" -c 'import importlib.metadata as m, json
try: print(json.loads(m.distribution("llama-cpp-python").read_text("direct_url.json") or "{}").get("url", ""))
except m.PackageNotFoundError: print("")')
if [ "$installed" != "file://$wheel" ]; then
  log "installing $(basename "$wheel") from $cache"
  "$PYTHON" -m pip install -q --force-reinstall --no-deps "$wheel"
  "$PYTHON" -m pip install -q "$wheel"  # its dependencies
fi
