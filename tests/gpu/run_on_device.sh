#!/usr/bin/env bash
# The GPU check, as one script for a machine with an NVIDIA GPU (the `device` tool runs it on a
# copy of the working tree): a venv with the package and the NVIDIA wheels, then tests/gpu with
# timings printed. Runs in a few minutes; needs no AMD toolchain (the GPU runner builds both sides
# with nvcc, the translation through the HIP-on-NVIDIA header).
set -euo pipefail
cd "$(dirname "$0")/../.."
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader || true
python3 -m venv /tmp/cass-gpu-venv
/tmp/cass-gpu-venv/bin/pip install -q -e '.[nvidia,dev]'
/tmp/cass-gpu-venv/bin/python -m pytest -q -s -p no:cacheprovider tests/gpu "$@"
