"""``python -m cass_lsp.toolchains setup [--rocm71] [--hip-libs]``: prepare the generated toolchain files.

Creates the gfx11/gfx12 device-library folder; with ``--rocm71``, fetches the HIP 7.1 headers from
the triton wheels; with ``--hip-libs``, the hipBLAS/hipFFT/hipSOLVER/hipCUB/rocThrust headers from
Debian 13. Idempotent: a second run only reports what is already there.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from cass_lsp.toolchains import devlibs, hiplibs, rocm71
from cass_lsp.toolchains.errors import ToolchainMissing


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m cass_lsp.toolchains")
    verbs = parser.add_subparsers(dest="verb", required=True)
    setup = verbs.add_parser("setup", help="create the device-library folder (and fetch HIP headers)")
    setup.add_argument("--rocm71", action="store_true", help="also fetch HIP 7.1 headers from PyPI's triton")
    setup.add_argument(
        "--hip-libs",
        action="store_true",
        help="also fetch hipBLAS, hipFFT, hipSOLVER, hipCUB and rocThrust headers from Debian 13 (apt-get download)",
    )
    args = parser.parse_args(argv)

    def log(message: str) -> None:
        print(message, flush=True)

    try:
        path = devlibs.ensure(log=log)
        log(f"device libraries ready: {path}")
        if args.rocm71:
            rocm71.fetch(log=log)
        if args.hip_libs:
            hiplibs.fetch(log=log)
    except ToolchainMissing as missing:
        print(f"error: {missing}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
