"""``cass-lsp setup``: prepare, in the user cache and without root, what cass-lsp can make or fetch
by itself, then say what only the system can provide.

The steps (each a no-op when its folder is already complete, so a second run only checks):

- ``devlibs``: the gfx11/gfx12/gfx942 device-library folder, generated with the installed LLVM;
- ``rocm71``: HIP 7.1 and 6.2 headers and LLVM-19 device bitcode from PyPI's triton wheels (~6 MB kept);
- ``hip-libs``: hipBLAS, hipFFT, hipSOLVER, hipCUB, rocThrust headers from Debian 13 (needs ``apt-get``).

On a terminal a progress bar shows the step being done; elsewhere each step is one line. Tools
that come from the system (clang++-19, the HIP headers, nvcc, g++) are listed with the install
command of this machine's distribution family (:mod:`.distro`). Exit 0 when every step chosen is
ready, 1 when one could not be done (each says why), 2 for usage errors.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from typing import TextIO

from cass_lsp.toolchains import devlibs, distro, hiplibs, rocm71
from cass_lsp.toolchains.errors import ToolchainMissing

Step = Callable[[devlibs.Log], object]

STEPS: dict[str, tuple[str, Step]] = {
    "devlibs": ("gfx11/gfx12/gfx942 device libraries", lambda log: devlibs.ensure(log=log)),
    "rocm71": ("HIP 7.1 and 6.2 headers (triton wheels)", lambda log: rocm71.fetch(log=log)),
    "hip-libs": ("HIP library headers (Debian 13 packages)", lambda log: hiplibs.fetch(log=log)),
}
_USER_LEVEL_HINTS = (devlibs.SETUP_HINT, rocm71.SETUP_HINT, hiplibs.SETUP_HINT)
_BAR_WIDTH = 24
_PIP_ALTERNATIVES = (
    "(pipx: pipx install --force 'cass-lsp[nvidia]'; uv: uv tool install --reinstall 'cass-lsp[nvidia]')"
)


class Progress:
    """``[#####-----] 2/3 label`` redrawn in place on a terminal; one line per step elsewhere."""

    def __init__(self, total: int, stream: TextIO) -> None:
        self.total = total
        self.done = 0
        self.stream = stream
        self.tty = stream.isatty()
        self.label = ""

    def start(self, label: str) -> None:
        self.label = label
        self._draw(f"{self.done + 1}/{self.total} {label} ...")

    def log(self, message: str) -> None:
        if self.tty:
            self.stream.write("\r\033[K")
        self.stream.write(f"  {message}\n")
        if self.tty:
            self._draw(f"{self.done + 1}/{self.total} {self.label} ...")
        self.stream.flush()

    def finish(self, outcome: str) -> None:
        self.done += 1
        self._draw(f"{self.done}/{self.total} {self.label}: {outcome}", final=True)

    def _draw(self, text: str, final: bool = False) -> None:
        if self.tty:
            filled = _BAR_WIDTH * self.done // max(self.total, 1)
            bar = "#" * filled + "-" * (_BAR_WIDTH - filled)
            self.stream.write(f"\r\033[K[{bar}] {text}" + ("\n" if final else ""))
        elif final:
            self.stream.write(f"[{text}]\n")
        self.stream.flush()


def run_steps(names: Sequence[str], stream: TextIO) -> list[ToolchainMissing]:
    """Run the chosen steps in order; what could not be done, each with its reason and hint."""
    progress = Progress(len(names), stream)
    failures = []
    for name in names:
        label, step = STEPS[name]
        progress.start(label)
        try:
            step(progress.log)
        except ToolchainMissing as missing:
            failures.append(missing)
            progress.finish(f"not done: {missing.what} not found; install with: {distro.hint(missing.hint)}")
        else:
            progress.finish("ready")
    return failures


def still_missing() -> tuple[list[str], list[str]]:
    """The tools still missing that setup cannot make: those of cass-lsp's own Python environment
    (the NVIDIA wheels) and those of the system, each with its install command."""
    from cass_lsp import toolchains

    python_env, system = [], []
    for status in toolchains.report():
        if status.found or not status.hint or status.hint in _USER_LEVEL_HINTS:
            continue
        if status.hint.startswith("pip install "):
            python_env.append(f"{status.name}: {status.hint} {_PIP_ALTERNATIVES}")
        else:
            system.append(f"{status.name}: {distro.hint(status.hint)}")
    return python_env, system


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--only",
        action="append",
        choices=list(STEPS),
        help="do only this step (repeatable; default: every step, in the order " + ", ".join(STEPS) + ")",
    )


def run(args: argparse.Namespace) -> int:
    names = [name for name in STEPS if name in args.only] if args.only else list(STEPS)
    failures = run_steps(names, sys.stderr)
    python_env, system = still_missing()
    for heading, lines in (
        ("missing from cass-lsp's Python environment:", python_env),
        ("only the system can provide these (as root, or ask your administrator):", system),
    ):
        if lines:
            print(heading, file=sys.stderr)
            for line in lines:
                print(f"  {line}", file=sys.stderr)
    if failures:
        print(f"setup: {len(failures)} step(s) not done; fix the above and run `cass-lsp setup` again", file=sys.stderr)
        return 1
    print("setup: ready (everything cass-lsp keeps in the user cache is there)", file=sys.stderr)
    return 0
