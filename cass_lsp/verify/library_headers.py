"""Whether a translation's compile failure is a HIP library's headers failing here, not the translation.

A translation that includes a HIP library (rocThrust, hipCUB, hipRAND, ...) is judged against that
library's headers for the target ROCm. This machine lacks some of them for some profile
(:func:`cass_lsp.toolchains.hiplibs.absent`: rocThrust and hipCUB for ROCm 7.1), and serves hipRAND,
rocRAND, hipSPARSE and rocSPARSE to every profile from Debian 12's ROCm 5.3 builds, which HIP 7.1
no longer compiles (its vector types lost ``.data``). Either way the translation was never judged:
the stage is "could not verify", with the reason.

An error inside a library's header may also be the translation's (a template it instantiated with
the wrong arguments), so that case is decided by compiling the header alone with the same compiler
and profile flags: only when that fails too is the library at fault.
"""

from __future__ import annotations

import os
import re
import tempfile
from pathlib import Path

from cass_lsp.asm import diagnostics
from cass_lsp.compile.diagnostic import CompilerDiagnostic
from cass_lsp.core import proc
from cass_lsp.toolchains import hiplibs

_LIBRARY_FILE = re.compile(r"/include/(?P<folder>[^/]+)/(?P<rest>[^/].*)$")
_PROBE_TIMEOUT_S = 120.0


def missing_header(header: str, profile: str) -> str | None:
    """Why ``header`` (as included: ``thrust/device_vector.h``), which the compiler found nowhere, is
    the machine's gap rather than the translation's: its library's folder is not on the profile's
    include path here. None when it is (a header missing from a library that is there, such as a
    CUDA-only Thrust header, is the translation's defect) or ``header`` is no library's."""
    folder, slash, _ = header.partition("/")
    return hiplibs.absent(folder, profile) if slash else None


def failing_library(
    first: CompilerDiagnostic, prefix: tuple[str, ...], env: dict[str, str], profile: str, limits: proc.Limits
) -> str | None:
    """Why the first error, in a file of a HIP library's headers, is the library's: those headers do
    not compile on their own with the compiler ``prefix`` (the profile's flags). None when the error
    is elsewhere, or the header compiles alone (then the translation's use is at fault)."""
    found = _LIBRARY_FILE.search(first.file or "")
    if found is None or found["folder"] not in hiplibs.LIBRARY_NAMES:
        return None
    header = f"{found['folder']}/{found['rest']}"
    with tempfile.TemporaryDirectory(prefix="cass-library-probe-") as tmp:
        probe = Path(tmp) / "probe.hip"
        probe.write_text(f"#include <hip/hip_runtime.h>\n#include <{header}>\n", encoding="utf-8")
        result = proc.run([*prefix, "-fsyntax-only", str(probe)], timeout=_PROBE_TIMEOUT_S, env=env, limits=limits)
    if result.ok or result.timed_out or limits.hit(result) is not None:
        return None
    errors = [d for d in diagnostics.parse(result.text(), lambda path, line: (path, line)) if d.severity == "error"]
    alone = errors[0] if errors else first
    where = f"{os.path.basename(alone.file or header)}:{alone.line}"
    return (f"the {hiplibs.LIBRARY_NAMES[found['folder']]} headers do not compile with ROCm {profile}'s HIP even "
            f"on their own (<{header}> alone: {where}: {alone.message}); {hiplibs.unsuited(found['folder'], profile)}")
