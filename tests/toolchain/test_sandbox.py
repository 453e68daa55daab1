"""cass_lsp.verify.sandbox against real misbehaving C programs, compiled here with the system gcc.

Every test runs at each sandbox level (``CASS_LSP_SANDBOX_LEVEL`` caps it): "full" (namespaces),
"landlock" (the path taken where the OS refuses namespaces) and "none" (allowed unconfined). A level
this kernel cannot give is skipped with the reason the probe found. After each test no process whose
command line names the test's work directory may be left. The hostile programs that try to escape
are in test_sandbox_levels.py.
"""

from __future__ import annotations

import functools
import shutil
import socket
import subprocess
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from cass_lsp.verify import cgroups, sandbox
from cass_lsp.verify.sandbox import Isolation, Limits
from tests.toolchain.sandbox_attacks import leftovers

GCC = "/usr/bin/gcc"

PROGRAMS = {
    "loop": "int main(void) { volatile unsigned long x = 0; for (;;) x++; }",
    # Forks children that wait, until fork() is refused; says how many it got.
    "forker": r"""
#include <stdio.h>
#include <unistd.h>
int main(void) {
    for (int n = 0;; n++) {
        pid_t pid = fork();
        if (pid == 0) { pause(); _exit(0); }
        if (pid < 0) { printf("%d\n", n); fflush(stdout); perror("fork"); return 1; }
    }
}""",
    "bomb": "#include <unistd.h>\nint main(void) { for (;;) fork(); }",
    "hog": r"""
#include <stdlib.h>
#include <string.h>
int main(void) { for (;;) { char *p = malloc(1 << 20); memset(p, 1, 1 << 20); } }""",
    "segv": "int main(void) { volatile int *p = 0; *p = 1; return 0; }",
    "bigfile": r"""
#include <stdio.h>
int main(void) {
    static char block[1 << 16];
    FILE *f = fopen("big.bin", "w");
    for (;;) fwrite(block, 1, sizeof block, f);
}""",
    "chatty": r"""
#include <stdio.h>
#include <string.h>
int main(void) {
    static char line[1 << 16];
    memset(line, 'x', sizeof line);
    for (;;) fwrite(line, 1, sizeof line, stdout);
}""",
    # A daemon: the child leaves the session and outlives its parent unless something kills it;
    # with an argument the parent then waits forever too.
    "daemon": r"""
#include <stdio.h>
#include <unistd.h>
int main(int argc, char **argv) {
    int ready[2];
    pipe(ready);
    if (fork() == 0) {
        setsid();
        if (fork() == 0) { write(ready[1], "x", 1); sleep(300); }
        _exit(0);
    }
    char c;
    read(ready[0], &c, 1);
    puts("daemon started");
    fflush(stdout);
    if (argc > 1) pause();
    return 0;
}""",
    "echo": r"""
#include <stdio.h>
int main(int argc, char **argv) {
    int c;
    while ((c = getchar()) != EOF) putchar(c);
    for (int i = 1; i < argc; i++) printf("[%s]\n", argv[i]);
    return 0;
}""",
    "env": r"""
#include <stdio.h>
#include <unistd.h>
extern char **environ;
int main(void) {
    for (char **e = environ; *e; e++) puts(*e);
    char cwd[4096];
    printf("cwd=%s\n", getcwd(cwd, sizeof cwd));
    return 0;
}""",
    "connect": r"""
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
int main(int argc, char **argv) {
    int s = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = {0};
    a.sin_family = AF_INET;
    a.sin_port = htons(atoi(argv[1]));
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (connect(s, (struct sockaddr *)&a, sizeof a) == 0) { puts("connected"); return 0; }
    perror("connect");
    return 1;
}""",
}


@pytest.fixture(scope="module")
def binaries(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("sandbox-programs")
    builds = []
    for name, source in PROGRAMS.items():
        (out / f"{name}.c").write_text(source)
        builds.append(subprocess.Popen([GCC, "-O1", "-o", str(out / name), str(out / f"{name}.c")]))
    assert all(b.wait(timeout=120) == 0 for b in builds)
    return out


@pytest.fixture(params=sandbox.LEVELS)
def isolation(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Isolation:
    monkeypatch.setenv(sandbox.LEVEL_ENV, request.param)
    got = sandbox.isolation()
    if got.level != request.param:
        pytest.skip(f"this kernel has no {request.param} level: {got.note}")
    if request.param == "none":
        monkeypatch.setattr(sandbox, "run", functools.partial(sandbox.run, allow_unconfined=True))
    return got


@pytest.fixture
def work(isolation: Isolation) -> Iterator[Path]:
    with sandbox.fresh_workdir("cass-sandbox-test-") as path:
        yield path
        deadline = time.monotonic() + 1.0
        while (left := leftovers(str(path))) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not left, f"processes left behind: {left}"


def _program(binaries: Path, work: Path, name: str) -> Path:
    """Copy into the work dir: the program normally lives there, and the marker is in its path."""
    return Path(shutil.copy2(binaries / name, work / name))


def test_timeout_stops_an_endless_loop(binaries: Path, work: Path) -> None:
    out = sandbox.run([_program(binaries, work, "loop")], workdir=work, limits=Limits(timeout_seconds=1))
    assert out.timed_out and out.limit is None
    assert out.describe() == "timed out after 1 s"
    assert out.duration < 5


def test_cpu_limit_stops_an_endless_loop(binaries: Path, work: Path) -> None:
    out = sandbox.run([_program(binaries, work, "loop")], workdir=work, limits=Limits(cpu_seconds=1))
    assert not out.timed_out
    assert out.limit == "cpu time"
    assert out.describe() == "stopped: cpu time limit (1 s)"


def test_cancel_stops_the_program(binaries: Path, work: Path) -> None:
    cancel = threading.Event()
    threading.Timer(0.3, cancel.set).start()
    out = sandbox.run([_program(binaries, work, "loop")], workdir=work, cancel=cancel)
    assert out.cancelled and out.describe() == "cancelled"
    assert out.duration < 5


def test_process_cap_refuses_forks(binaries: Path, work: Path, isolation: Isolation) -> None:
    assert isolation.process_cap
    out = sandbox.run([_program(binaries, work, "forker")], workdir=work, limits=Limits(processes=8))
    assert out.exit_code == 1
    assert int(out.stdout) < 8  # the program itself is one of the eight
    assert out.limit == "processes"


def test_fork_bomb_is_contained_and_killed(binaries: Path, work: Path) -> None:
    out = sandbox.run([_program(binaries, work, "bomb")], workdir=work, limits=Limits(timeout_seconds=1, processes=16))
    assert out.timed_out


def test_memory_limit_stops_unbounded_allocation(binaries: Path, work: Path) -> None:
    out = sandbox.run([_program(binaries, work, "hog")], workdir=work, limits=Limits(memory_mb=128))
    assert out.signal is not None  # malloc returned NULL (or the OOM killer came) and the program died
    assert out.limit == "memory"
    # A cgroup where this machine has one (test_sandbox_memory.py), RLIMIT_AS alone otherwise.
    whole = cgroups.memory_bound().parent is not None
    assert out.memory_whole_run == whole
    assert out.describe() == f"stopped: memory limit (128 MB {'for the whole run' if whole else 'per process'})"


def test_segfault_is_reported(binaries: Path, work: Path) -> None:
    out = sandbox.run([_program(binaries, work, "segv")], workdir=work)
    assert out.signal == 11 and out.exit_code is None and out.limit is None
    assert out.describe() == "killed by SIGSEGV (segmentation fault)"


def test_file_size_limit_stops_a_huge_file(binaries: Path, work: Path, isolation: Isolation) -> None:
    out = sandbox.run([_program(binaries, work, "bigfile")], workdir=work, limits=Limits(file_size_mb=1))
    assert out.limit == "file size"
    assert out.describe() == "stopped: file size limit (1 MB)"
    if isolation.level == "full":
        assert not (work / "big.bin").exists()  # written to the run's own tmpfs, never the host's folder
    else:
        assert (work / "big.bin").stat().st_size <= 1 << 20


def test_output_is_capped(binaries: Path, work: Path) -> None:
    out = sandbox.run([_program(binaries, work, "chatty")], workdir=work, limits=Limits(output_bytes=1_000_000))
    assert out.truncated and out.limit == "output"
    assert len(out.stdout) == 1_000_000
    assert out.describe() == "stopped: output limit (1,000,000 bytes)"


def test_setsid_daemon_does_not_survive(binaries: Path, work: Path) -> None:
    out = sandbox.run([_program(binaries, work, "daemon")], workdir=work)
    assert (out.exit_code, out.stdout) == (0, b"daemon started\n")
    # the work fixture checks that the daemon is gone


def test_setsid_daemon_does_not_survive_a_timeout(binaries: Path, work: Path) -> None:
    out = sandbox.run([_program(binaries, work, "daemon"), "hang"], workdir=work, limits=Limits(timeout_seconds=0.5))
    assert out.timed_out and out.stdout == b"daemon started\n"


def test_arguments_reach_the_program_verbatim(binaries: Path, work: Path) -> None:
    args = ["two words", 'it\'s "quoted"', "a; touch pwned", "$(touch pwned)", "`touch pwned`", ""]
    out = sandbox.run([_program(binaries, work, "echo"), *args], workdir=work, stdin=b"from stdin\n")
    assert out.exit_code == 0 and out.describe() == "exited 0"
    assert out.stdout.decode().splitlines() == ["from stdin", *(f"[{a}]" for a in args)]
    assert not (work / "pwned").exists() and not Path("pwned").exists()


def test_program_name_with_shell_characters(binaries: Path, work: Path) -> None:
    odd = work / "my prog; $(touch pwned) 'x'"
    shutil.copy2(binaries / "echo", odd)
    out = sandbox.run([odd, "ok"], workdir=work)
    assert out.stdout == b"[ok]\n"
    assert not (work / "pwned").exists()


def test_environment_is_scrubbed(binaries: Path, work: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CASS_TEST_SECRET", "hunter2")
    out = sandbox.run([_program(binaries, work, "env")], workdir=work, env={"LD_LIBRARY_PATH": "/opt/gpu/lib"})
    lines = set(out.stdout.decode().splitlines())
    assert lines == {
        "PATH=/usr/bin:/bin",
        f"HOME={work}",
        f"TMPDIR={work}",
        "LANG=C.UTF-8",
        "LD_LIBRARY_PATH=/opt/gpu/lib",
        f"cwd={work}",
    }


def test_network_only_when_allowed(binaries: Path, work: Path, isolation: Isolation) -> None:
    assert isolation.network
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen(4)
        port = str(server.getsockname()[1])
        program = _program(binaries, work, "connect")
        out = sandbox.run([program, port], workdir=work)
        assert out.exit_code == 1 and b"connect" in out.stderr
        # a program allowed the network reaches it at every level
        assert sandbox.run([program, port], workdir=work, network=True).stdout == b"connected\n"


def test_missing_program_is_reported(work: Path) -> None:
    out = sandbox.run([work / "no such program"], workdir=work)
    assert out.exit_code == 127 and b"cannot run" in out.stderr


def test_fresh_workdir_is_removed_even_when_read_only() -> None:
    with sandbox.fresh_workdir() as path:
        (path / "sub" / "deeper").mkdir(parents=True)
        (path / "sub" / "deeper" / "f").write_text("x")
        (path / "sub" / "deeper").chmod(0o500)
        (path / "sub").chmod(0)
    assert not path.exists()  # deeper trees, links and mount points: test_sandbox_disk.py


def test_isolation_is_probed_once() -> None:
    first = sandbox.isolation()
    assert sandbox.isolation() is first
    assert first.note
    # the PID namespace comes with the full level only; files are confined at every level but none
    assert first.pid_namespace == (first.level == "full")
    assert first.files == (first.level != "none")


def test_a_private_temp_dir_does_not_stop_a_root_server_running_programs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A 0700 TMPDIR (per-user temp dirs, proc.run's children): the program, run as another user
    than a root server, must still reach its work dir."""
    import tempfile

    private = tmp_path / "private"
    private.mkdir(mode=0o700)
    monkeypatch.setattr(tempfile, "tempdir", str(private))
    with sandbox.fresh_workdir() as work:
        shutil.copy2("/bin/echo", work / "echo")
        outcome = sandbox.run([str(work / "echo"), "reached"], workdir=work, limits=Limits(timeout_seconds=30))
    assert (outcome.exit_code, outcome.stdout) == (0, b"reached\n"), outcome
