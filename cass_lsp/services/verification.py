"""Verification as ``cass-lsp verify`` runs it: which pairs a path names, each program verified once
(its units read, its stages run in place by :func:`cass_lsp.verify.engine.verify`), and a project's
checks as its own build defines them (:mod:`cass_lsp.verify.project`). The language server verifies
a pair on save through the same stage runner (:func:`cass_lsp.verify.engine.run_stages`) with its
stages as scheduler jobs.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

from cass_lsp.core import pairs
from cass_lsp.core.cache import ResultCache
from cass_lsp.core.progress import Progress
from cass_lsp.services.settings import ResolvedSettings
from cass_lsp.verify import engine, project
from cass_lsp.verify.discovery import System
from cass_lsp.verify.engine import Report
from cass_lsp.verify.stages import Inputs

Begin = Callable[[str], Progress]
"""Starts the progress of one verification, titled."""


def _absolute(path: Path) -> str:
    return os.path.normpath(path.absolute())


def pairs_of(path_text: str, against: str | None, patterns: list[str], resolved: ResolvedSettings) -> list[tuple[pairs.Pair, bool]]:
    """The pairs to verify, each with whether it was given explicitly (``against``); ValueError
    with the reason when there are none."""
    path = Path(path_text)
    if not path.exists():
        raise ValueError(f"{path}: no such file or folder")
    if against:
        other = Path(against)
        if not other.is_file():
            raise ValueError(f"{other}: no such file")
        originals = [p for p in (path, other) if pairs.is_original(p)]
        if len(originals) != 1:
            raise ValueError("give one .cu original and one HIP translation (PATH and --against)")
        original = originals[0]
        translation = other if original == path else path
        return [(pairs.Pair(_absolute(original), _absolute(translation)), True)]
    if path.is_dir():
        found = pairs.pairs_under([path], patterns, resolved.verification.ignore)
        if not found:
            raise ValueError(f"{path}: no .cu files under it")
        return [(pair, False) for pair in found]
    pair = pairs.pair_for(path, patterns)
    if pair is None:
        raise ValueError(f"{path}: not a .cu file, and no .cu original names it through {patterns}")
    return [(pair, False)]


def verify_pairs(
    found: Sequence[tuple[pairs.Pair, bool]], resolved: ResolvedSettings, cache: ResultCache | None, begin: Begin
) -> Iterator[Report]:
    """The report of each program the pairs belong to, once per program, as each is done."""
    if cache is not None:
        engine.register(cache)
    seen: set[tuple[str, ...]] = set()
    for index, (pair, explicit) in enumerate(found):
        progress = begin(f"[{index + 1}/{len(found)}] {pair.describe()}")
        try:
            inputs = engine.read_inputs(pair, {}, resolved, explicit=explicit)
            identity = tuple(u.original for u in inputs.program.units)
            if identity in seen:
                continue  # another file of a program verified already
            seen.add(identity)
            report = engine.verify(inputs, resolved, cache=cache, progress=progress)
        except OSError as error:
            report = engine.unreadable(pair, error)
        finally:
            progress.end()
        yield report


def verify_project(
    root: Path,
    translation_root: Path | None,
    cache: ResultCache | None,
    begin: Begin,
    resolved_for: Callable[[project.Check], ResolvedSettings],
    *,
    run: str | None,
    system: System | None,
    configure_args: tuple[str, ...],
    make_args: tuple[str, ...],
) -> Iterator[Report]:
    """The reports of a project's verification: the translated build's, when it is built, then one
    per check (a test of the build, or the command ``run`` names), each with its own settings
    (``resolved_for``: its arguments). Raises BuildError, ToolchainMissing or ValueError when the
    original's build cannot be read."""
    if cache is not None:
        engine.register(cache)
    with tempfile.TemporaryDirectory(prefix="cass-project-") as folder:
        scratch = Path(folder)
        found = project.read(
            root, run=run, system=system, configure_args=configure_args, make_args=make_args,
            translation_root=translation_root, scratch=scratch,
        )  # fmt: skip
        build = project.translated_build(found, scratch)
        if build is not None:
            yield build

        def verify_one(check: project.Check, inputs: Inputs) -> Report:
            progress = begin(f"{check.name}: {inputs.program.describe()}")
            try:
                return engine.verify(inputs, resolved_for(check), cache=cache, progress=progress)
            finally:
                progress.end()

        yield from project.verify_checks(found, verify_one, engine.unreadable)
