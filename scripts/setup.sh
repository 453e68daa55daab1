#!/usr/bin/env bash
# Set up cass-lsp on Debian 12 (x86_64, as root): Debian's AMD toolchain, a .venv in the repo with the
# package, the NVIDIA toolchain wheels and the model runtime, then the generated device libraries and
# the ROCm 7.1, HIP library and CUDA library headers in the user cache. Idempotent: a second run only checks.
# --system: only the Debian packages (the dev container's image is built with this; the rest runs
# when the container is created, in the workspace).
set -euo pipefail
cd "$(dirname "$0")/.."
log() { printf '\033[1m[setup]\033[0m %s\n' "$*" >&2; }
# shellcheck source=scripts/lib.sh
source scripts/lib.sh

APT_PACKAGES=(
  python3 python3-venv python3-dev build-essential cmake git
  clang-19 lld-19 llvm-19 libamdhip64-dev rocm-device-libs
  libhipsparse-dev libhiprand-dev librocrand-dev librocprim-dev librocsparse-dev
  libopenblas-dev  # cuBLAS/hipBLAS on the CPU runner
  neovim openssh-server openssh-client
  hipcc  # builds ported projects (brings clang-15: Debian's LLVM 19 has no clang-offload-bundler)
  libomp-15-dev  # LLVM's OpenMP for hipcc's clang-15: a port's -fopenmp (nvcc's -Xcompiler -fopenmp linked gcc's libgomp)
)
apt_ensure "${APT_PACKAGES[@]}"
if [ "${1:-}" = --system ]; then
  log "done: the Debian packages are installed"
  exit 0
fi

PYTHON=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  log "creating .venv with $($PYTHON --version)"
  "$PYTHON" -m venv .venv
fi
.venv/bin/python -m pip install -q --upgrade pip
# llama-cpp-python: built portably (any x86-64 CPU), kept in the project's wheel cache (see the script)
scripts/llama_wheel.sh .venv/bin/python
log "installing cass-lsp with its NVIDIA, model and dev extras"
.venv/bin/python -m pip install -q -e '.[nvidia,model,dev]'

log "preparing the AMD device libraries, the ROCm 7.1 headers, the HIP library headers (Debian 13) and the CUDA library headers (PyPI)"
.venv/bin/cass-lsp setup
log "preparing the device libraries clang-15 (hipcc) reads for gfx11xx/gfx12xx/gfx942 (ported builds)"
.venv/bin/python -m cass_lsp.toolchains.devlibs15
log "done: .venv/bin/cass-lsp is ready"
