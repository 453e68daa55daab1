"""The Neovim plugin's help file: `:helptags` accepts it, it has the tags the README points to, and
every |link| in it leads to a tag (its own or Neovim's)."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

from tests.e2e.headless import REPO

HELP = REPO / "editor_clients" / "nvim" / "doc" / "cass.txt"
REQUIRED = {"cass", "cass-setup", ":CassAsm", ":CassShowAssembly", ":CassTranslate", ":CassVerify", ":CassModel", ":CassInstall", "cass-lspconfig"}


def _nvim(home: Path, *commands: str) -> subprocess.CompletedProcess[str]:
    nvim = shutil.which("nvim")
    assert nvim, "Neovim is not installed: scripts/setup.sh installs Debian's neovim"
    argv = [nvim, "--headless", "-u", "NONE", "-i", "NONE", "-n"]
    for command in (*commands, "qa!"):
        argv += ["-c", command]
    return subprocess.run(
        argv,
        env={"HOME": str(home), "PATH": "/usr/bin:/bin"},
        cwd=home,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=20,
        check=False,
    )


def test_help_file_tags_and_links(tmp_path: Path) -> None:
    doc = tmp_path / "doc"
    doc.mkdir()
    shutil.copy(HELP, doc)  # helptags writes `tags` beside the file: not into the repository
    made = _nvim(tmp_path, f"helptags {doc}")
    assert made.returncode == 0 and not made.stderr.strip(), made.stderr
    own = {line.split("\t")[0] for line in (doc / "tags").read_text().splitlines()}
    assert not REQUIRED - own, REQUIRED - own

    runtime = _nvim(tmp_path, f"call writefile([$VIMRUNTIME], '{tmp_path / 'runtime.txt'}')")
    assert runtime.returncode == 0, runtime.stderr
    neovim = {
        line.split("\t")[0]
        for line in (Path((tmp_path / "runtime.txt").read_text().strip()) / "doc" / "tags").read_text().splitlines()
    }
    text = HELP.read_text()
    body = re.sub(r">\n.*?\n<", "", text, flags=re.S)  # |…| inside a code block is code, not a link
    links = set(re.findall(r"\|([^|\s]+)\|", body))
    assert not links - own - neovim, sorted(links - own - neovim)
