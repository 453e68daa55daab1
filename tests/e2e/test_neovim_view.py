"""The :CassAsm view's layout and line mapping for every kind of result (a listing, a compile
failure, a missing tool, still compiling), from a fixed cass/assembly reply: no server involved."""

from __future__ import annotations

import json
from pathlib import Path

from tests.e2e.headless import run_driver

SOURCE = ["#include <hip/hip_runtime.h>", "__global__ void k(int* p) {", "  __syncthreads();  ", "  p[0] = 1;", "}"]


def _reply(file: str) -> dict[str, object]:
    def ins(index: int, text: str, **where: object) -> dict[str, object]:
        return {"index": index, "address": None, "opcode": text.split()[0], "operands": "", "text": text, **where}

    header = "/opt/rocm/include/hip/amd_detail/amd_device_functions.h"
    listing = {
        "kind": "listing",
        "target": "gfx1100",
        "dialect": "amdgcn",
        "source": file,
        "toolchain": "clang 19",
        "note": "from the rule translation",
        "functions": [
            {
                "name": "_Z1kPi",
                "demangled": "k(int*)",
                "kind": "kernel",
                "resources": {"registers": 2, "vgprs": 2, "sgprs": 8, "sharedBytes": 0, "vgprSpills": 1},
                "labels": {".LBB0_1": 2},
                "instructions": [
                    ins(0, "s_load_b64 s[0:1], s[0:1], 0x0", file=file, line=2),
                    ins(1, "s_barrier", file=header, line=891, inlinedAt=[{"file": file, "line": 3, "column": 3}]),
                    ins(2, "global_store_b32 v0, v1, s[0:1]", file=file, line=4),
                    ins(3, "s_endpgm", file=header, line=12),
                ],
            }
        ],
    }
    failure = {
        "kind": "failure",
        "target": "gfx90a",
        "source": file,
        "output": "",
        "translated": True,
        "diagnostics": [{"severity": "error", "message": "unknown type name 'foo'", "file": file, "line": 4}],
    }
    unavailable = {"kind": "unavailable", "target": "sm_90", "message": "nvcc not found", "hint": "apt install nvcc"}
    pending = {"kind": "pending", "target": "gfx942", "message": "compiling… (hover again in a moment)"}
    return {"uri": f"file://{file}", "version": 0, "results": [listing, failure, unavailable, pending], "text": ""}


def test_view_lines_and_their_source_lines(tmp_path: Path) -> None:
    file = str(tmp_path / "k.hip")
    env = {"FILE": file, "SOURCE": json.dumps(SOURCE), "REPLY": json.dumps(_reply(file))}
    result, returncode = run_driver("view_driver.lua", tmp_path, env, timeout=20)
    assert returncode == 0, result
    assert result["lines"] == [
        "== gfx1100 · k.hip · clang 19 ==",
        "   (from the rule translation)",
        "-- k(int*)  [kernel]  2 VGPRs · 8 SGPRs · spills 1 VGPR / 0 SGPR",
        "    2 | __global__ void k(int* p) {",
        "           0  s_load_b64 s[0:1], s[0:1], 0x0",
        "    3 |   __syncthreads();",
        "           1  s_barrier  ; amd_device_functions.h:891",
        "  .LBB0_1:",
        "    4 |   p[0] = 1;",
        "           2  global_store_b32 v0, v1, s[0:1]",
        "      | amd_device_functions.h:12",
        "           3  s_endpgm",
        "",
        "== gfx90a ==",
        "   does not compile (in the rule translation)",
        "   error: line 4: unknown type name 'foo'",
        "",
        "== sm_90 ==",
        "   nvcc not found (install: apt install nvcc)",
        "",
        "== gfx942 ==",
        "   compiling… (hover again in a moment)",
    ]
    # 0-based view rows highlighted with the cursor on each 1-based source line
    assert result["highlighted"] == [[], [3, 4], [5, 6], [8, 9], []]
