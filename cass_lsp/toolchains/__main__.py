"""``python -m cass_lsp.toolchains setup [--rocm71] [--hip-libs]``: the steps of ``cass-lsp setup``
(:mod:`.setup`) the project's ``scripts/setup.sh`` runs: the device-library folder always, the HIP
7.1 headers with ``--rocm71``, the HIP library headers with ``--hip-libs``. Idempotent: a second run
only reports what is already there.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from cass_lsp.toolchains import setup


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m cass_lsp.toolchains")
    verbs = parser.add_subparsers(dest="verb", required=True)
    verb = verbs.add_parser("setup", help="create the device-library folder (and fetch HIP headers)")
    verb.add_argument("--rocm71", action="store_true", help="also fetch HIP 7.1 headers from PyPI's triton")
    verb.add_argument(
        "--hip-libs",
        action="store_true",
        help="also fetch hipBLAS, hipFFT, hipSOLVER, hipCUB and rocThrust headers from Debian 13 (apt-get download)",
    )
    args = parser.parse_args(argv)
    names = ["devlibs", *(["rocm71"] if args.rocm71 else []), *(["hip-libs"] if args.hip_libs else [])]
    failures = setup.run_steps(names, sys.stdout)
    for missing in failures:
        print(f"error: {missing}", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
