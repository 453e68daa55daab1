"""The unit tier stays a unit tier: a test here (its setup, call or teardown) that starts a process or opens
an internet socket fails, saying to move it to tests/toolchain.

Starting a process means subprocess (and asyncio's subprocesses, os.popen), os.fork / forkpty /
posix_spawn / system, or multiprocessing's spawn; an internet socket is any AF_INET / AF_INET6 socket,
loopback included (a local HTTP server is a server). Unix sockets, threads and files are fine.
"""

from __future__ import annotations

import multiprocessing.util
import os
import socket
import subprocess
from collections.abc import Callable, Generator
from typing import Any

import pytest

MOVE = "unit tests start no process and open no internet socket: move this test to tests/toolchain (see tests/conftest.py)"


class UnitTierViolation(RuntimeError):
    """Raised where a unit test starts a process or opens an internet socket (not an OSError: code that
    handles a failed start must not mistake it for one)."""


def _install(seen: list[str]) -> Callable[[], None]:
    """Patch the ways out; return what undoes it. What was tried is appended to ``seen``, so a test that
    catches the exception still fails."""
    undo: list[Callable[[], None]] = []

    def block(owner: Any, name: str, what: str) -> None:
        original = getattr(owner, name, None)
        if original is None:
            return

        def refused(*args: Any, **kwargs: Any) -> Any:
            seen.append(what)
            raise UnitTierViolation(f"{what}: {MOVE}")

        setattr(owner, name, refused)
        undo.append(lambda: setattr(owner, name, original))

    block(subprocess.Popen, "__init__", "started a process (subprocess)")
    for name in ("fork", "forkpty", "posix_spawn", "posix_spawnp", "system"):
        block(os, name, f"started a process (os.{name})")
    block(multiprocessing.util, "spawnv_passfds", "started a process (multiprocessing)")

    socket_init = socket.socket.__init__

    def checked_socket(self: socket.socket, family: int = -1, *args: Any, **kwargs: Any) -> None:
        fileno = args[2] if len(args) > 2 else kwargs.get("fileno")
        if family in (socket.AF_INET, socket.AF_INET6) or (family == -1 and fileno is None):  # -1: AF_INET
            seen.append("opened an internet socket")
            raise UnitTierViolation(f"opened an internet socket: {MOVE}")
        socket_init(self, family, *args, **kwargs)

    socket.socket.__init__ = checked_socket  # type: ignore[method-assign]
    undo.append(lambda: setattr(socket.socket, "__init__", socket_init))

    def restore() -> None:
        for step in reversed(undo):
            step()

    return restore


def _guarded() -> Generator[None, object, object]:
    seen: list[str] = []
    restore = _install(seen)
    try:
        result = yield
    finally:
        restore()
    if seen:
        pytest.fail(f"{seen[0]}: {MOVE}", pytrace=False)
    return result


@pytest.hookimpl(wrapper=True)
def pytest_runtest_setup(item: pytest.Item) -> Generator[None, object, object]:
    return (yield from _guarded())


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Generator[None, object, object]:
    return (yield from _guarded())


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None) -> Generator[None, object, object]:
    if nextitem is None:  # the session's last test: its teardown ends every tier's session fixtures too
        return (yield)
    return (yield from _guarded())
