"""A run command as Makefiles and READMEs write it (``--run``), read without a shell.

``GSL_RNG_SEED=123 ./main 1024 \\`` + newline + ``  data/in.txt`` is words (:mod:`shlex`: quotes,
backslashes, a continuation line), led by variable assignments, which become the run's environment
on both sides. ``env VAR=value CMD`` and ``sh -c "CMD"`` (or ``bash -c``) are unwrapped to ``CMD``.
What is left names either an executable of the build (:mod:`.project` matches it) or a script
(``./runtests.sh``, ``bash run.sh 64``): a file of the project the verification runs in both trees'
run folders. Anything else a shell would do (``&&``, ``|``, ``;``, redirections, ``$VAR``,
backquotes, ``*``) is refused with the reason: nothing is ever handed to a shell but a script of
the user's tree, inside the sandbox.
"""

from __future__ import annotations

import re
import shlex

import msgspec

_ASSIGNMENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*=")
_OPERATORS = frozenset("&|;<>()")
SHELLS = frozenset({"sh", "bash", "dash", "/bin/sh", "/bin/bash", "/usr/bin/bash", "/usr/bin/sh", "/bin/dash"})
_SCRIPT_SUFFIXES = (".sh", ".bash")
# variables the sandbox sets itself, the dynamic loader's and the CPU runtime's (the order a
# reordered run gives its threads): a run line must not move them
RESERVED = frozenset({"PATH", "HOME", "TMPDIR", "LANG"})
RESERVED_PREFIXES = ("LD_", "CASS_")


def reserved(name: str) -> bool:
    """Whether a run may not set the variable ``name``."""
    return name in RESERVED or name.startswith(RESERVED_PREFIXES)


class RunCommand(msgspec.Struct, frozen=True):
    words: tuple[str, ...]
    """The command and its arguments."""
    env: dict[str, str] = msgspec.field(default_factory=dict)
    """The variables the command line sets for the run."""
    shell: str | None = None
    """The shell a script is run with when the line names one (``bash run.sh``); None: the
    script runs by its own ``#!`` line, or ``words`` name no script."""

    @property
    def script(self) -> bool:
        """Whether ``words`` start with a script rather than a program."""
        return self.shell is not None or self.words[0].lower().endswith(_SCRIPT_SUFFIXES)


def parse(line: str) -> RunCommand:
    """The run command ``line`` holds. Raises ValueError saying what a shell would have to do."""
    joined = re.sub(r"\\\r?\n", " ", line)  # continuation lines, as a shell joins them
    if "`" in joined or "$" in joined:
        raise ValueError(
            f"--run {line!r}: expands variables or commands ($, `), which needs a shell: write the values"
            " out (VAR=value ./prog args)"
        )
    lexer = shlex.shlex(joined, posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    lexer.commenters = ""
    try:
        words = list(lexer)
    except ValueError as error:
        raise ValueError(f"--run {line!r}: {error} (quotes as a shell reads them)") from None
    operators = [w for w in words if w and set(w) <= _OPERATORS]
    if operators:
        raise ValueError(
            f"--run {line!r}: holds {operators[0]!r}, which needs a shell: name one program and its arguments,"
            " or put the steps in a script of the project and name it (./run.sh)"
        )
    return _unwrapped(words, line, {})


def _unwrapped(words: list[str], line: str, env: dict[str, str]) -> RunCommand:
    env = dict(env)
    while words and _ASSIGNMENT.match(words[0]):
        name, value = words.pop(0).split("=", 1)
        if reserved(name):
            raise ValueError(f"--run {line!r}: sets {name}, which the sandbox decides for every run")
        env[name] = value
    if not words:
        raise ValueError(f"--run {line!r}: names no command")
    if words[0] == "env":
        return _unwrapped(words[1:], line, env)
    glob = next((w for w in words if "*" in w), None)
    if glob is not None:
        raise ValueError(f"--run {line!r}: {glob!r} is a pattern a shell would expand: name the files")
    if words[0] in SHELLS:
        rest = words[1:]
        if len(rest) >= 2 and rest[0] == "-c":
            return _unwrapped(_words(rest[1], line), line, env)
        if not rest or rest[0].startswith("-"):
            raise ValueError(f"--run {line!r}: runs {words[0]} with no script of the project to run")
        return RunCommand(tuple(rest), env, shell=words[0])
    return RunCommand(tuple(words), env)


def _words(text: str, line: str) -> list[str]:
    """The words of a ``sh -c`` string, held to the same rules as a run line."""
    inner = parse(text)
    return [*(f"{k}={v}" for k, v in inner.env.items()), *((inner.shell,) if inner.shell else ()), *inner.words]
