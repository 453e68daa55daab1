#!/bin/sh
# Checks the sources are present, builds and runs the decomposition on a GPU-sized matrix.
set -e
cd "$(dirname "$0")"
for source in main.cu src/lud_kernels.cu src/lud_device.cu; do
  test -f "$source"
done
make lud
./lud "${1:-2048}"
