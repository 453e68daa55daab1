"""cass_lsp.verify.remote against a real OpenSSH server on 127.0.0.1 (the "command" runner with
commandHost).

The module starts one sshd as the current user (root here and in CI: scripts/setup.sh installs
openssh-server) on a free loopback port, with a host key, an authorized client key and a
known_hosts file generated in a temp dir; the client gets ``-F /dev/null`` so no ssh configuration
of the machine takes part. The program under test is a small C++ program built with g++. After each
test no process whose command line names it may be left, and the remote copies must be gone.
"""

from __future__ import annotations

import getpass
import os
import shutil
import socket
import subprocess
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import msgspec
import pytest

from cass_lsp.core.settings import VerificationSettings
from cass_lsp.verify import remote, runners, sandbox
from cass_lsp.verify.runners import CannotRun
from tests.toolchain.sandbox_attacks import leftovers

SSHD = "/usr/sbin/sshd"
GXX = "/usr/bin/g++"
# Unique, so that a process list names this module's programs and nothing else.
NAME = f"cass-remote-probe-{os.getpid()}"

PROGRAM = r"""
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <string>
#include <unistd.h>
int main(int argc, char **argv) {
    std::string mode = argc > 1 ? argv[1] : "";
    if (mode == "exit") return std::atoi(argv[2]);
    if (mode == "segv") { volatile int *p = nullptr; *p = 1; }
    if (mode == "env") { std::printf("mark=%s\n", std::getenv("CASS_MARK")); return 0; }
    if (mode == "loop") { fork(); for (;;) sleep(1); }  // two processes that never end
    if (mode == "chatty") for (;;) std::fputs("more and more output\n", stdout);
    std::ifstream input("input.txt");
    std::string line;
    std::getline(input, line);
    std::printf("input: %s\n", line.c_str());
    std::ifstream nested("data/nested.txt");
    std::getline(nested, line);
    std::printf("nested: %s\n", line.c_str());
    std::getline(std::cin, line);
    std::printf("stdin: %s\n", line.c_str());
    for (int i = 1; i < argc; i++) std::printf("arg: %s\n", argv[i]);
    char cwd[4096];
    std::printf("cwd: %s\n", getcwd(cwd, sizeof cwd));
    return 0;
}
"""


class Server(msgspec.Struct, frozen=True):
    port: int
    ssh: list[str]  # the client argv that logs in with the authorized key
    keys: Path


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _keygen(path: Path) -> str:
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(path)], check=True, timeout=30)
    return path.with_suffix(".pub").read_text().strip()


def _client(keys: Path, port: int, key: str, known_hosts: str) -> list[str]:
    return [
        "ssh", "-F", "/dev/null", "-p", str(port), "-i", str(keys / key),
        "-o", "IdentitiesOnly=yes", "-o", "PasswordAuthentication=no",
        "-o", "StrictHostKeyChecking=yes", "-o", f"UserKnownHostsFile={keys / known_hosts}",
    ]  # fmt: skip


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    assert Path(SSHD).is_file(), "openssh-server is missing: scripts/setup.sh installs it"
    keys = tmp_path_factory.mktemp("ssh")
    host_key = _keygen(keys / "host")
    (keys / "authorized_keys").write_text(_keygen(keys / "client") + "\n")
    other_key = _keygen(keys / "other")
    port = _free_port()
    (keys / "known_hosts").write_text(f"[127.0.0.1]:{port} {host_key}\n")
    (keys / "wrong_known_hosts").write_text(f"[127.0.0.1]:{port} {other_key}\n")
    (keys / "sshd_config").write_text(
        f"ListenAddress 127.0.0.1:{port}\nHostKey {keys / 'host'}\nPidFile none\n"
        f"AuthorizedKeysFile {keys / 'authorized_keys'}\nPermitRootLogin yes\nPubkeyAuthentication yes\n"
        "PasswordAuthentication no\nKbdInteractiveAuthentication no\nUsePAM no\nStrictModes no\n"
    )
    os.makedirs("/run/sshd", mode=0o755, exist_ok=True)  # sshd's privilege separation directory
    log = (keys / "sshd.log").open("wb")
    daemon = subprocess.Popen(
        [SSHD, "-D", "-e", "-f", str(keys / "sshd_config")], stdout=log, stderr=log, start_new_session=True
    )
    ssh = [*_client(keys, port, "client", "known_hosts"), "-o", "BatchMode=yes", f"{getpass.getuser()}@127.0.0.1"]
    try:
        deadline = time.monotonic() + 20
        while subprocess.run([*ssh, "true"], capture_output=True, timeout=20).returncode != 0:
            assert daemon.poll() is None, (keys / "sshd.log").read_text()
            assert time.monotonic() < deadline, f"sshd did not accept a login: {(keys / 'sshd.log').read_text()}"
            time.sleep(0.1)
        yield Server(port, ssh[:-3], keys)
    finally:
        os.killpg(daemon.pid, 15)
        daemon.wait(timeout=10)
        log.close()


@pytest.fixture(scope="module")
def program(tmp_path_factory: pytest.TempPathFactory) -> Path:
    build = tmp_path_factory.mktemp("build")
    (build / "probe.cpp").write_text(PROGRAM)
    exe = build / NAME
    subprocess.run([GXX, "-O1", "-o", str(exe), str(build / "probe.cpp")], check=True, timeout=120)
    return exe


@pytest.fixture
def workdir(tmp_path: Path, program: Path) -> Path:
    """What the verifier hands over: the program and the input file it reads, in a fresh directory."""
    work = tmp_path / "work"
    work.mkdir()
    shutil.copy2(program, work / NAME)
    (work / "input.txt").write_text("from the input file\n")
    (work / "data").mkdir()
    (work / "data" / "nested.txt").write_text("from a folder\n")
    return work


@pytest.fixture
def remote_dir(tmp_path: Path) -> Iterator[Path]:
    """The remote side's commandDir (same machine, other path): empty again after every test, and no
    probe process left."""
    where = tmp_path / "remote"
    where.mkdir()
    yield where
    assert list(where.iterdir()) == [], "the remote copy was not removed"
    assert _left_over() == [], "a remote program outlived its run"


def _left_over() -> list[str]:
    """Processes running the probe, after the moment a killed one needs to go."""
    deadline = time.monotonic() + 5
    while (found := leftovers(NAME)) and time.monotonic() < deadline:
        time.sleep(0.1)
    return found


def _settings(server: Server, remote_dir: Path, **changes: object) -> VerificationSettings:
    base = VerificationSettings(
        runner="command",
        command_host=f"{getpass.getuser()}@127.0.0.1",
        command_dir=str(remote_dir),
        command_ssh=server.ssh,
    )
    return msgspec.structs.replace(base, **changes)


def _run(
    settings: VerificationSettings,
    workdir: Path,
    args: list[str],
    *,
    stdin: bytes | None = None,
    timeout: float = 30.0,
    cancel: threading.Event | None = None,
) -> sandbox.RunOutcome:
    limits = sandbox.Limits(timeout_seconds=timeout, memory_mb=0)
    return remote.run(settings, workdir / NAME, workdir, args, limits=limits, stdin=stdin, cancel=cancel)


def test_program_runs_in_a_staged_copy_with_its_input(server: Server, remote_dir: Path, workdir: Path) -> None:
    args = ["two words", "$(touch pwned)", "it's"]
    outcome = _run(_settings(server, remote_dir), workdir, args, stdin=b"from stdin\n")
    out = outcome.stdout.decode()
    assert (outcome.exit_code, outcome.signal, outcome.timed_out) == (0, None, False), outcome.stderr
    assert "input: from the input file\nnested: from a folder\nstdin: from stdin\n" in out
    assert "arg: two words\narg: $(touch pwned)\narg: it's\n" in out  # each argument literal, no shell
    cwd = Path(out.split("cwd: ")[1].strip())
    assert cwd.parent.parent == remote_dir and cwd.name == "work" and cwd.parent.name.startswith("cass-run-")
    assert not (workdir / "pwned").exists() and not any(remote_dir.rglob("pwned"))


def test_exit_codes_and_signals_are_the_programs(server: Server, remote_dir: Path, workdir: Path) -> None:
    settings = _settings(server, remote_dir)
    assert _run(settings, workdir, ["exit", "3"]).exit_code == 3
    # 255 is also what ssh exits with when it fails: the program's own 255 must still be its exit code
    assert _run(settings, workdir, ["exit", "255"]).exit_code == 255
    crashed = _run(settings, workdir, ["segv"])
    assert (crashed.exit_code, crashed.signal) == (None, 11)
    assert "SIGSEGV" in crashed.describe()


def test_command_template_runs_on_the_host(server: Server, remote_dir: Path, workdir: Path) -> None:
    wrapped = _settings(server, remote_dir, command=["env", "CASS_MARK=wrapped in {workdir}", "{exe}", "env"])
    outcome = _run(wrapped, workdir, [])
    assert outcome.exit_code == 0, outcome.stderr
    staged = outcome.stdout.decode().removeprefix("mark=wrapped in ").strip()
    assert Path(staged).parent.parent == remote_dir and Path(staged).name == "work"


def test_a_missing_launcher_is_not_a_program_exit(server: Server, remote_dir: Path, workdir: Path) -> None:
    settings = _settings(server, remote_dir, command=["no-such-launcher", "{exe}"])
    with pytest.raises(remote.RemoteError, match="no-such-launcher not found on"):
        _run(settings, workdir, [])


def test_a_library_missing_on_the_host_is_not_a_program_exit(
    server: Server, remote_dir: Path, workdir: Path, tmp_path: Path
) -> None:
    """The loader exits 127 when a shared library is missing; both sides failing so would agree."""
    (tmp_path / "lib.cpp").write_text("int cass_probe_value() { return 7; }\n")
    (tmp_path / "main.cpp").write_text("int cass_probe_value();\nint main() { return cass_probe_value(); }\n")
    lib = ["-shared", "-fPIC", "-o", str(tmp_path / "libcassprobe.so"), str(tmp_path / "lib.cpp")]
    subprocess.run([GXX, *lib], check=True, timeout=120)
    # linked without an rpath: the library is nowhere the loader looks
    linked = [GXX, "-o", str(workdir / NAME), str(tmp_path / "main.cpp"), f"-L{tmp_path}", "-lcassprobe"]
    subprocess.run(linked, check=True, timeout=120)
    with pytest.raises(remote.RemoteError, match=r"cannot load the program: .*libcassprobe\.so"):
        _run(_settings(server, remote_dir), workdir, [])


@pytest.mark.parametrize(
    ("client", "reason"),
    [
        ("refused", "Connection refused"),
        ("wrong key", "Permission denied"),
        ("wrong host key", "Host key verification failed"),
    ],
)
def test_ssh_failures_are_could_not_run(
    server: Server, remote_dir: Path, workdir: Path, client: str, reason: str
) -> None:
    ssh = {
        "refused": _client(server.keys, _free_port(), "client", "known_hosts"),
        "wrong key": _client(server.keys, server.port, "other", "known_hosts"),
        "wrong host key": _client(server.keys, server.port, "client", "wrong_known_hosts"),
    }[client]
    with pytest.raises(remote.RemoteError, match=reason) as error:
        _run(_settings(server, remote_dir, command_ssh=ssh), workdir, [])
    assert isinstance(error.value, sandbox.SandboxError)  # what the run stage turns into "could not verify"


def test_timeout_kills_the_remote_program(server: Server, remote_dir: Path, workdir: Path) -> None:
    outcome = _run(_settings(server, remote_dir), workdir, ["loop"], timeout=2.0)
    assert outcome.timed_out and outcome.exit_code is None
    assert outcome.describe() == "timed out after 2 s"
    # remote_dir's teardown: no probe process (the program and its child) and no copy left


def test_output_limit_stops_the_remote_program(server: Server, remote_dir: Path, workdir: Path) -> None:
    limits = sandbox.Limits(timeout_seconds=30, memory_mb=0, output_bytes=100_000)
    settings = _settings(server, remote_dir)
    outcome = remote.run(settings, workdir / NAME, workdir, ["chatty"], limits=limits, stdin=None, cancel=None)
    assert outcome.truncated and outcome.limit == "output" and len(outcome.stdout) == 100_000
    assert outcome.exit_code is None and not outcome.timed_out


def test_cancel_kills_the_remote_program(server: Server, remote_dir: Path, workdir: Path) -> None:
    cancel = threading.Event()
    started = time.monotonic()
    timer = threading.Timer(1.5, cancel.set)
    timer.start()
    try:
        outcome = _run(_settings(server, remote_dir), workdir, ["loop"], timeout=60.0, cancel=cancel)
    finally:
        timer.cancel()
    assert outcome.cancelled and outcome.exit_code is None
    assert time.monotonic() - started < 30


def test_an_ssh_template_is_refused() -> None:
    """The README's old example ["ssh", "gpu-box", "{exe}"]: the program does not exist there, both
    sides would fail alike ("not found", exit 127), and that would pass as agreement."""
    with pytest.raises(CannotRun, match="commandHost"):
        runners.command_argv(["/usr/bin/ssh", "gpu-box", "{exe}"], Path("/tmp/x/prog"), Path("/tmp/x"))
    assert runners.command_argv(["srun", "--chdir={workdir}", "{exe}"], Path("/w/prog"), Path("/w")) == [
        "srun", "--chdir=/w", "/w/prog",
    ]  # fmt: skip


def test_a_program_is_verified_on_the_host_end_to_end(server: Server, tmp_path: Path) -> None:
    """The whole verifier through commandHost: both sides built here for the CPU runtime, staged over
    ssh with the program's input file, run there twice (the original) and once (the translation)."""
    from cass_lsp.core.pairs import Pair
    from cass_lsp.services import verification
    from cass_lsp.services.settings import resolve_cli
    from tests.toolchain.programs import copied

    program = copied("ops_app", tmp_path)
    remote_dir = tmp_path / "remote"
    remote_dir.mkdir()
    resolved = resolve_cli(
        target={"rocm": "7.1"},
        verification={
            "run": True,
            "runner": "command",
            "commandBuildsFor": "cpu",
            "commandHost": f"{getpass.getuser()}@127.0.0.1",
            "commandDir": str(remote_dir),
            "commandSsh": server.ssh,
        },
    )
    inputs = verification.read(Pair(str(program / "main.cu"), None), {}, resolved)
    report = verification.verify_in_place(inputs, resolved)
    assert report.verdict == "passed", report.summary
    assert report.stages[-1].message.startswith("run on command: original and translation agree"), report.stages[-1]
    assert list(remote_dir.iterdir()) == []
