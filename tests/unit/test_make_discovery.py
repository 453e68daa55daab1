"""What ``make -n`` prints, read back into executables and their units (cass_lsp.verify.discovery), and
the command a user names matched against them (cass_lsp.verify.project)."""

from __future__ import annotations

from pathlib import Path

import pytest

from cass_lsp.verify import discovery as introspect
from cass_lsp.verify import project

pytestmark = pytest.mark.unit


def test_separately_compiled_units_and_the_device_link_make_one_executable(tmp_path: Path) -> None:
    """Shaped like NVIDIA's separate-compilation sample: ``nvcc -x cu -dc`` of .cpp units, a static
    library of device code, nvcc's device link into an object, the host link."""
    printed = f"""make: Entering directory '{tmp_path}'
nvcc -x cu -arch=sm_70 -I. -dc main.cpp -o main.o
nvcc -x cu -arch=sm_70 -I. --device-c particle.cpp -o particle.o
nvcc -x cu -arch=sm_70 -I. -dc v3.cpp -o v3.o
nvcc -arch=sm_70 -lib v3.o -o libv3.a
nvcc -arch=sm_70 -dlink main.o particle.o libv3.a -o link.o
g++ main.o particle.o link.o libv3.a -L/usr/local/cuda/lib64 -lcudart -o app
make: Leaving directory '{tmp_path}'
"""
    found = {e.name: e for e in introspect._make_executables(printed, tmp_path)}
    assert set(found) == {"app"}  # main.o, particle.o and link.o are not programs
    assert [Path(s.file).name for s in found["app"].sources] == ["main.cpp", "particle.cpp", "v3.cpp"]
    assert "-dc" in found["app"].sources[0].arguments


def test_a_command_that_is_not_an_executable_of_the_build_reads_as_a_sentence(tmp_path: Path) -> None:
    app = introspect.Executable("app", str(tmp_path / "app"), ())
    built = introspect.Discovery("make", (app,), (introspect.BuildTest("smoke", ("./bench",)),))
    with pytest.raises(ValueError, match=r"^\./gups is not an executable the build makes \(its executables: app\), nor a script of the project that runs one$"):
        project._checks(built, "./gups 20", tmp_path)
    with pytest.raises(ValueError, match=r"^test smoke runs \./bench, which is not an executable the build makes"):
        project._checks(built, None, tmp_path)
