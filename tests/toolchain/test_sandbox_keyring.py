"""The kernel keyrings against a program under verification, at every level.

The server's session keyring holds a key only its possessors may see (the way a login session's
keys are); the program tries to list it in /proc/keys (which needs no system call the filter could
refuse: only the fresh session keyring hides it), to read its payload, to find it by name, and to
plant a key of its own that would outlive the run.
"""

from __future__ import annotations

import ctypes
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from cass_lsp.verify import sandbox, seccomp
from tests.toolchain.sandbox_attacks import BLOCKED, ESCAPED, GCC

SOURCE = r"""
#define _GNU_SOURCE
#include <errno.h>
#include <linux/keyctl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static int blocked(const char *what) { printf("blocked: %s: %s\n", what, strerror(errno)); return 3; }

int main(int argc, char **argv) {
    const char *what = argv[1], *arg = argv[2];
    if (!strcmp(what, "list")) {
        char line[512];
        FILE *f = fopen("/proc/keys", "r");
        if (!f) return blocked("/proc/keys");
        while (fgets(line, sizeof line, f))
            if (strstr(line, arg)) { printf("escaped: listed %s", line); return 0; }
        errno = ENOENT;
        return blocked("not listed");
    }
    if (!strcmp(what, "read")) {
        char buf[256];
        long n = syscall(SYS_keyctl, KEYCTL_READ, strtol(arg, 0, 10), buf, sizeof buf - 1);
        if (n < 0) return blocked("keyctl(READ)");
        buf[n < 255 ? n : 255] = 0;
        printf("escaped: read %s\n", buf);
        return 0;
    }
    if (!strcmp(what, "search")) {
        long id = syscall(SYS_keyctl, KEYCTL_SEARCH, KEY_SPEC_SESSION_KEYRING, "user", arg, 0);
        if (id < 0) return blocked("keyctl(SEARCH)");
        printf("escaped: found %ld\n", id);
        return 0;
    }
    if (!strcmp(what, "request")) {
        long id = syscall(SYS_request_key, "user", arg, NULL, KEY_SPEC_SESSION_KEYRING);
        if (id < 0) return blocked("request_key");
        printf("escaped: requested %ld\n", id);
        return 0;
    }
    if (!strcmp(what, "add")) {
        long id = syscall(SYS_add_key, "user", arg, "planted", 7, KEY_SPEC_SESSION_KEYRING);
        if (id < 0) return blocked("add_key");
        printf("escaped: added %ld\n", id);
        return 0;
    }
    return 2;
}
"""

PAYLOAD = b"cass-keyring-secret-52c1"
DESCRIPTION = "cass-test-session-key"
PLANTED = "cass-planted-key"
KEY_SPEC_SESSION_KEYRING = -3
KEYCTL_JOIN_SESSION_KEYRING, KEYCTL_SETPERM = 1, 5
KEY_POS_ALL = 0x3F000000  # the possessor may do everything, nobody else anything

_libc = ctypes.CDLL(None, use_errno=True)


def _syscall(name: str, *args: object) -> int:
    result: int = _libc.syscall(seccomp.abi().numbers[name], *args)
    if result < 0:
        err = ctypes.get_errno()
        raise OSError(err, f"{name}: {os.strerror(err)}")
    return result


@pytest.fixture(scope="module")
def program(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("keyring")
    (out / "keys.c").write_text(SOURCE)
    subprocess.run([GCC, "-O1", "-o", str(out / "keys"), str(out / "keys.c")], check=True, timeout=120)
    return out / "keys"


@pytest.fixture(scope="module")
def server_key() -> int:
    """A key in a session keyring of this (the server's) process, as a login session has. Joining
    one is for the rest of this test process: a named keyring, harmless to the other tests."""
    _syscall("keyctl", KEYCTL_JOIN_SESSION_KEYRING, b"cass-test-session")
    key = _syscall("add_key", b"user", DESCRIPTION.encode(), PAYLOAD, len(PAYLOAD), KEY_SPEC_SESSION_KEYRING)
    _syscall("keyctl", KEYCTL_SETPERM, key, KEY_POS_ALL)
    return key


def _keys() -> str:
    return Path("/proc/keys").read_text()


@pytest.mark.parametrize("network", [False, True])
def test_the_program_cannot_reach_or_add_to_the_servers_keyrings(
    level: str, network: bool, program: Path, server_key: int
) -> None:
    assert DESCRIPTION in _keys()  # the server itself sees its key
    attempts = [("list", DESCRIPTION), ("read", str(server_key)), ("search", DESCRIPTION), ("request", DESCRIPTION), ("add", PLANTED)]
    with sandbox.fresh_workdir("cass-keyring-") as work:
        copy = shutil.copy2(program, work / "keys")  # the test's temp folder is hidden at full
        outcomes = {what: sandbox.run([copy, what, arg], workdir=work, network=network) for what, arg in attempts}
    for what, outcome in outcomes.items():
        assert outcome.exit_code == BLOCKED, (what, outcome.stdout)
        assert outcome.stdout.startswith(b"blocked:")
    assert PLANTED not in _keys()  # nothing the program did outlives it


def test_the_keyring_attacks_do_get_through_without_the_sandbox(program: Path, server_key: int) -> None:
    """The control: run directly, the same program reads the key and plants one."""
    read = subprocess.run([program, "read", str(server_key)], capture_output=True, timeout=30)
    assert (read.returncode, read.stdout) == (ESCAPED, b"escaped: read " + PAYLOAD + b"\n")
    listed = subprocess.run([program, "list", DESCRIPTION], capture_output=True, timeout=30)
    assert listed.returncode == ESCAPED
