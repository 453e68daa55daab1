"""References to renamed files follow the rename (cass_lsp.translate.renames): includes found as the
compiler finds them, and shell scripts' words."""

from __future__ import annotations

from functools import partial
from pathlib import Path

from cass_lsp.translate.naming import translated_name
from cass_lsp.translate.renames import Renamer, is_script

_FORWARD = partial(translated_name, reverse=False, beside_original=False)


def _tree(root: Path) -> dict[str, Path]:
    files = {
        "main.cu": '#include "common.h"\n#include "src/kernels.cu"\n#include "kernels/stencil.cu"\n'
                   '#include <lib.cu>\n#  include "other.cu" // not in the tree\n',
        "common.h": "#pragma once\n",
        "src/kernels.cu": '#include "device.cu"\n#include "../common.h"\n',
        "src/device.cu": "__device__ int f();\n",
        "kernels/stencil.cu": "__global__ void k();\n",
        "lib/lib.cu": "__device__ int g();\n",
    }
    paths = {}
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        paths[name] = path
    return paths


def test_includes_of_renamed_files_name_their_translations(tmp_path: Path) -> None:
    paths = _tree(tmp_path)
    renamed = [str(p) for name, p in paths.items() if name.endswith(".cu")]
    renames = Renamer(renamed, _FORWARD, [str(tmp_path)])
    main, changed = renames.includes(paths["main.cu"].read_bytes(), str(paths["main.cu"]))
    # beside the file or under the tree's root as -I would; <lib.cu> as the one file ending so
    assert main.decode() == ('#include "common.h"\n#include "src/kernels.hip"\n#include "kernels/stencil.hip"\n'
                             '#include <lib.hip>\n#  include "other.cu" // not in the tree\n')
    assert changed == 3
    kernels, changed = renames.includes(paths["src/kernels.cu"].read_bytes(), str(paths["src/kernels.cu"]))
    assert kernels.decode() == '#include "device.hip"\n#include "../common.h"\n' and changed == 1


def test_a_file_not_renamed_keeps_the_includes_naming_it(tmp_path: Path) -> None:
    paths = _tree(tmp_path)
    renames = Renamer([str(paths["src/device.cu"])], _FORWARD, [str(tmp_path)])
    text = paths["main.cu"].read_bytes()
    assert renames.includes(text, str(paths["main.cu"])) == (text, 0)


def test_scripts_name_the_renamed_sources_and_globs_on_their_suffix(tmp_path: Path) -> None:
    paths = _tree(tmp_path)
    renames = Renamer([str(p) for n, p in paths.items() if n.endswith(".cu")], _FORWARD, [str(tmp_path)])
    script = (b"#!/usr/bin/env bash\nnvcc -O3 main.cu src/kernels.cu -o app\nfor f in src/*.cu; do wc -l \"$f\"; done\n"
              b"cp /opt/sdk/helper.cu .\n")
    assert renames.script(script, ".cu") == (b"#!/usr/bin/env bash\nnvcc -O3 main.hip src/kernels.hip -o app\n"
                                             b"for f in src/*.hip; do wc -l \"$f\"; done\ncp /opt/sdk/helper.cu .\n")
    assert renames.script(b"echo nothing to rename\n", ".cu") is None


def test_shell_scripts_by_suffix_or_interpreter() -> None:
    assert is_script("run.sh", b"echo")
    assert is_script("build", b"#!/bin/bash\n") and is_script("go", b"#! /usr/bin/env sh\n")
    assert not is_script("plot.py", b"#!/usr/bin/env python3\n") and not is_script("data.txt", b"1 2 3\n")
