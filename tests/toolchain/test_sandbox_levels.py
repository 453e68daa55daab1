"""The sandbox levels against hostile programs (tests/toolchain/sandbox_attacks.py): at "full" and
"landlock" every attack fails and nothing outlives the run; "none" refuses to run unless allowed,
and, allowed, shows that the same attacks get through (so the programs do attack).

A level this kernel cannot give is skipped with the reason the probe found (this machine offers
all three). ``CASS_LSP_SANDBOX_LEVEL`` forces the lower levels although "full" is available.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from cass_lsp.cli import doctor
from cass_lsp.verify import sandbox
from cass_lsp.verify.sandbox import Limits, RunOutcome, SandboxError
from tests.toolchain import sandbox_attacks
from tests.toolchain.sandbox_attacks import BLOCKED, ESCAPED, SECRET

ATTACKS = ["read", "append", "environ", "mem", "signal", "connect", "fork", "outlive"]


@pytest.fixture(scope="module")
def attack(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return sandbox_attacks.build(tmp_path_factory.mktemp("attack"))


@pytest.fixture(scope="module")
def victim() -> Iterator[sandbox_attacks.Victim]:
    with sandbox_attacks.victim() as process:
        yield process


@pytest.fixture
def home(monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    with sandbox_attacks.fake_home() as path:
        monkeypatch.setenv("HOME", str(path))
        yield path


def _at(level: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(sandbox.LEVEL_ENV, level)
    got = sandbox.isolation()
    if got.level != level:
        pytest.skip(f"this kernel has no {level} level: {got.note}")


def _args(name: str, home: Path, victim_pid: int, port: int) -> list[str]:
    return next(args for _, args in sandbox_attacks.attacks(home, victim_pid, port) if args[0] == name)


@pytest.mark.parametrize("name", ATTACKS)
@pytest.mark.parametrize("level", ["full", "landlock"])
def test_attack_fails_and_nothing_outlives_the_run(
    level: str, name: str, attack: Path, victim: sandbox_attacks.Victim, home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _at(level, monkeypatch)
    with sandbox_attacks.loopback_port() as port:
        outcome, left = sandbox_attacks.run_attack(attack, _args(name, home, victim.pid, port))
    assert isinstance(outcome, RunOutcome), outcome
    assert not left, f"processes outlived the run: {left}"
    text = outcome.stdout.decode()
    if name == "outlive" and level == "full":
        # The namespace's init ignores a SIGKILL sent from inside: the kill "succeeds" and does nothing.
        assert text.startswith("kill(parent): sent") and outcome.exit_code == ESCAPED
    elif name == "outlive":
        assert text.startswith("kill(parent): Operation not permitted") and outcome.exit_code == BLOCKED
    else:
        assert outcome.exit_code == BLOCKED and text.startswith("blocked:"), text
    if level == "full" and name in ("environ", "mem", "signal"):
        # The fresh /proc and PID namespace: the server's process does not exist for the program.
        assert text.endswith(("No such file or directory\n", "No such process\n")), text
    assert (home / ".bashrc").read_text() == "# bashrc\n"
    assert victim.process.poll() is None


@pytest.mark.parametrize("level", ["full", "landlock"])
def test_a_run_allowed_the_network_reads_home_but_writes_only_its_work_dir(
    level: str, attack: Path, home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The network is for the user's own command (ssh to a GPU box), which needs its keys in $HOME."""
    _at(level, monkeypatch)
    with sandbox.fresh_workdir("cass-attack-") as work:
        program = shutil.copy2(attack, work / "attack")
        read = sandbox.run([program, "read", str(home / "secret")], workdir=work, network=True)
        append = sandbox.run([program, "append", str(home / ".bashrc")], workdir=work, network=True)
    assert read.exit_code == ESCAPED, read.stdout
    assert append.exit_code == BLOCKED, append.stdout
    assert (home / ".bashrc").read_text() == "# bashrc\n"


@pytest.mark.parametrize("level", ["full", "landlock"])
def test_library_folders_below_a_hidden_home_stay_readable(
    level: str, attack: Path, home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A venv or runtime libraries under $HOME (pipx) are bound back read-only; the rest stays hidden."""
    _at(level, monkeypatch)
    lib = home / "lib"
    lib.mkdir(mode=0o755)
    (lib / "data").write_text(SECRET)
    (lib / "data").chmod(0o644)
    env = {"LD_LIBRARY_PATH": str(lib)}
    with sandbox.fresh_workdir("cass-attack-") as work:
        program = shutil.copy2(attack, work / "attack")
        kept = sandbox.run([program, "read", str(lib / "data")], workdir=work, env=env)
        hidden = sandbox.run([program, "read", str(home / "secret")], workdir=work, env=env)
        written = sandbox.run([program, "append", str(lib / "data")], workdir=work, env=env)
    assert kept.exit_code == ESCAPED, kept.stdout
    assert hidden.exit_code == BLOCKED, hidden.stdout
    assert written.exit_code == BLOCKED, written.stdout


def test_unconfined_runs_are_refused_unless_allowed(attack: Path, home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _at("none", monkeypatch)
    outcome, left = sandbox_attacks.run_attack(attack, ["read", str(home / "secret")])
    assert isinstance(outcome, SandboxError)
    assert sandbox.UNCONFINED_SETTING in str(outcome)
    assert not left


@pytest.mark.parametrize("name", ["read", "append", "environ", "mem", "signal"])
def test_unconfined_run_lets_the_attacks_through(
    name: str, attack: Path, victim: sandbox_attacks.Victim, home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The control: what the confining levels stop does get through at "none"."""
    _at("none", monkeypatch)
    outcome, _ = sandbox_attacks.run_attack(attack, _args(name, home, victim.pid, 0), allow_unconfined=True)
    assert isinstance(outcome, RunOutcome), outcome
    assert outcome.exit_code == ESCAPED, outcome.stdout
    if name == "environ":
        assert SECRET in outcome.stdout.decode() or outcome.stdout.startswith(b"escaped")


def test_a_killed_launcher_is_a_sandbox_failure_not_an_exit(attack: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Unconfined, the program can kill the launcher; that is reported as the sandbox failing, not
    as the program's death by SIGKILL. The daemon it left is ended twice over: by the run's cgroup
    (its memory limit), emptied when the run ends, where one can be had, and by the guard every
    program of proc.run starts under (cass_lsp/core/guard.py, a subreaper too), to which it is reparented;
    at "none" nothing keeps the program from killing that guard as well."""
    _at("none", monkeypatch)
    outcome, left = sandbox_attacks.run_attack(attack, ["outlive"], allow_unconfined=True)
    assert isinstance(outcome, SandboxError), outcome
    assert "launcher ended early" in str(outcome)
    assert left == []


@pytest.mark.parametrize("level", sandbox.LEVELS)
def test_a_confinement_that_fails_is_a_sandbox_error(level: str, attack: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An exception while confining (here setrlimit refusing a CPU limit past its C type) surfaces
    as SandboxError, never as an exit status the program did not produce."""
    _at(level, monkeypatch)
    with (
        sandbox.fresh_workdir("cass-attack-") as work,
        pytest.raises(SandboxError, match="sandbox launcher: OverflowError"),
    ):
        sandbox.run([attack, "fork"], workdir=work, limits=Limits(cpu_seconds=2**70), allow_unconfined=True)


def test_an_unknown_level_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(sandbox.LEVEL_ENV, "strict")
    with pytest.raises(SandboxError, match="full, landlock, none"):
        sandbox.isolation()
    line = next(t for t in doctor.verification_status() if t.name == "sandbox")
    assert not line.found and line.hint is not None and "strict" in line.hint


@pytest.mark.parametrize("level", sandbox.LEVELS)
def test_doctor_prints_the_level(level: str, monkeypatch: pytest.MonkeyPatch) -> None:
    _at(level, monkeypatch)
    line = next(t for t in doctor.verification_status() if t.name == "sandbox")
    assert line.version is not None and line.version.startswith(f"level {level}")
    assert (sandbox.UNCONFINED_SETTING in line.version) == (level == "none")
