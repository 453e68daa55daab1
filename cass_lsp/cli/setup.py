"""``cass-lsp setup``: prepare, in the user cache and without root, what cass-lsp can make or fetch
by itself, then say what only the system can provide.

The steps and what is still missing are the use case :mod:`cass_lsp.services.setup`; this verb
chooses the steps, shows their progress and reports.

On a terminal a progress bar shows the step being done; elsewhere each step is one line. Tools
that come from the system (clang++-19, the HIP headers, nvcc, g++) are listed with the install
command of this machine's distribution family (:mod:`cass_lsp.toolchains.distro`). Exit 0 when every step chosen is
ready, 1 when one could not be done (each says why), 2 for usage errors.
"""

from __future__ import annotations

import argparse
import sys
from typing import TextIO

from cass_lsp.services.setup import STEPS, run_steps, still_missing

_BAR_WIDTH = 24


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


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--only",
        action="append",
        choices=list(STEPS),
        help="do only this step (repeatable; default: every step, in the order " + ", ".join(STEPS) + ")",
    )


def run(args: argparse.Namespace) -> int:
    names = [name for name in STEPS if name in args.only] if args.only else list(STEPS)
    failures = run_steps(names, Progress(len(names), sys.stderr))
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
