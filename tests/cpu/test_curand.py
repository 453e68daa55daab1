"""cuRAND and hipRAND on the CPU runtime.

Known answers (tests/cpu/curand/kat.cu, built with g++ against the runtime's headers), each computed
here on its own rather than read back from the runtime:

- Philox4x32-10: Random123's known-answer vectors (Salmon et al., SC'11), as published;
- XORWOW: Marsaglia's xorwow ("Xorshift RNGs", JSS 2003) from cuRAND's documented seeding; the seed
  0xf7dcefddaad26b49 cancels the salt, leaving the paper's own start state; subsequences are 2^67 draws
  apart, jumped here by a GF(2) matrix power written independently of the C++ one;
- MRG32k3a: L'Ecuyer's recurrences, subsequences 2^76 draws apart (matrix powers modulo m1, m2);
- the uniform and Box-Muller transforms of cuRAND's curand_uniform.h / curand_normal.h, in exact
  rational arithmetic for the float uniform;
- the host API's interleaving as the runtime models cuRAND's legacy ordering (result n of XORWOW from
  subsequence n % 4096; Philox's blocks of four from subsequence block % 4096): this checks the
  layout the runtime claims, which has not been compared with a GPU.

And a program shaped like a real one (tests/cpu/curand/monte_carlo: the host API in one unit, device
API kernels in another, a header with the status checks, sizes from argv) verified through
``cass-lsp verify --runner cpu`` against its rule translation (hipRAND), and run against its rocRAND
translation; a translation that draws from the wrong subsequence fails; a cuRAND call the runtime
lacks is "could not verify", by name.
"""

from __future__ import annotations

import json
import math
import shutil
import struct
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from cass_lsp.core import pairs, proc
from cass_lsp.cpu import build
from cass_lsp.services.settings import resolve_cli
from cass_lsp.toolchains import cudalibs
from cass_lsp.verify import engine
from cass_lsp.verify import run as run_stage
from cass_lsp.verify.stages import StageResult
from tests.cpu.conftest import RUN_TIMEOUT_S, need_gxx

HERE = Path(__file__).parent / "curand"
PROGRAM = HERE / "monte_carlo"
ARGS = ("32", "128", "1024")  # blocks, threads, samples per thread
M32 = 0xFFFFFFFF

# ---- Philox4x32-10 (Salmon et al.) ----
RANDOM123_KAT = [  # counter, key -> output
    ((0, 0, 0, 0), (0, 0), (0x6627E8D5, 0xE169C58D, 0xBC57AC4C, 0x9B00DBD8)),
    ((M32, M32, M32, M32), (M32, M32), (0x408F276D, 0x41C83B0E, 0xA20BC7C6, 0x6D5451FD)),
    ((0x243F6A88, 0x85A308D3, 0x13198A2E, 0x03707344), (0xA4093822, 0x299F31D0),
     (0xD16CFE09, 0x94FDCCEB, 0x5001E420, 0x24126EA1)),
]


def philox(counter: tuple[int, ...], key: tuple[int, ...]) -> tuple[int, ...]:
    c0, c1, c2, c3 = counter
    k0, k1 = key
    for i in range(10):
        if i:
            k0, k1 = (k0 + 0x9E3779B9) & M32, (k1 + 0xBB67AE85) & M32
        p0, p1 = 0xD2511F53 * c0, 0xCD9E8D57 * c2
        c0, c1, c2, c3 = (p1 >> 32) ^ c1 ^ k0, p1 & M32, (p0 >> 32) ^ c3 ^ k1, p0 & M32
    return c0, c1, c2, c3


def philox_draws(seed: int, subsequence: int, offset: int, count: int) -> list[int]:
    key = (seed & M32, seed >> 32)
    out = []
    for n in range(offset, offset + count):
        block = n // 4
        out.append(philox((block & M32, block >> 32, subsequence & M32, subsequence >> 32), key)[n % 4])
    return out


# ---- XORWOW (Marsaglia), its state a 160-bit integer, word w at bits 32w ----
def xorwow_step(x: int) -> int:
    v = [(x >> (32 * w)) & M32 for w in range(5)]
    t = v[0] ^ (v[0] >> 2)
    v = [v[1], v[2], v[3], v[4], (v[4] ^ (v[4] << 4) ^ t ^ (t << 1)) & M32]
    return sum(word << (32 * w) for w, word in enumerate(v))


def gf2_apply(rows: list[int], x: int) -> int:
    out = 0
    while x:
        low = x & -x
        out ^= rows[low.bit_length() - 1]
        x ^= low
    return out


class Xorwow:
    """Jumps of 2^67 * 2^k draws, k < 12 (subsequences below 4096)."""

    def __init__(self) -> None:
        rows = [xorwow_step(1 << r) for r in range(160)]
        for _ in range(67):
            rows = [gf2_apply(rows, row) for row in rows]
        self.jumps = [rows]
        for _ in range(11):
            rows = [gf2_apply(rows, row) for row in rows]
            self.jumps.append(rows)

    def draws(self, seed: int, subsequence: int, offset: int, count: int) -> list[int]:
        t0 = (1099087573 * ((seed & M32) ^ 0xAAD26B49)) & M32
        t1 = (2591861531 * ((seed >> 32) ^ 0xF7DCEFDD)) & M32
        d = (6615241 + t1 + t0) & M32
        v = [(123456789 + t0) & M32, 362436069 ^ t0, (521288629 + t1) & M32, 88675123 ^ t1, (5783321 + t0) & M32]
        x = sum(word << (32 * w) for w, word in enumerate(v))
        for k, jump in enumerate(self.jumps):
            if (subsequence >> k) & 1:
                x = gf2_apply(jump, x)
        out = []
        for i in range(offset + count):
            x = xorwow_step(x)
            d = (d + 362437) & M32
            if i >= offset:
                out.append(((x >> 128) + d) & M32)
        return out


# ---- MRG32k3a (L'Ecuyer) ----
MRG_M1, MRG_M2 = 4294967087, 4294944443
MRG_A1 = [[0, 1, 0], [0, 0, 1], [-810728, 1403580, 0]]
MRG_A2 = [[0, 1, 0], [0, 0, 1], [-1370589, 0, 527612]]


def mat_pow(a: list[list[int]], e: int, m: int) -> list[list[int]]:
    result = [[int(i == j) for j in range(3)] for i in range(3)]
    while e:
        if e & 1:
            result = [[sum(result[i][k] * a[k][j] for k in range(3)) % m for j in range(3)] for i in range(3)]
        a = [[sum(a[i][k] * a[k][j] for k in range(3)) % m for j in range(3)] for i in range(3)]
        e >>= 1
    return result


def mrg_draws(seed: int, subsequence: int, offset: int, count: int) -> list[int]:
    s1, s2 = [12345] * 3, [12345] * 3
    if seed:
        x1, x2 = (seed & M32) ^ 0x55555555, ((seed >> 32) ^ 0xAAAAAAAA) & M32
        s1 = [x1 * 12345 % MRG_M1, x2 * 12345 % MRG_M1, x1 * 12345 % MRG_M1]
        s2 = [x2 * 12345 % MRG_M2, x1 * 12345 % MRG_M2, x2 * 12345 % MRG_M2]
    for a, s, m in ((MRG_A1, s1, MRG_M1), (MRG_A2, s2, MRG_M2)):
        jump = mat_pow(a, (subsequence << 76) + offset, m)
        s[:] = [sum(jump[i][k] * s[k] for k in range(3)) % m for i in range(3)]
    out = []
    for _ in range(count):
        p1 = (1403580 * s1[1] - 810728 * s1[0]) % MRG_M1
        p2 = (527612 * s2[2] - 1370589 * s2[0]) % MRG_M2
        s1[:], s2[:] = [s1[1], s1[2], p1], [s2[1], s2[2], p2]
        draw = p1 - p2 + (MRG_M1 if p1 <= p2 else 0)
        out.append(int(draw * 1.000000048662))  # curand(): the draw scaled to 32 bits
    return out


# ---- the float transforms ----
def f32(x: float) -> float:
    return struct.unpack("f", struct.pack("f", x))[0]


INV32 = f32(2.3283064e-10)
INV32_2PI = f32(INV32 * f32(6.2831855))


def uniform_bits(x: int) -> int:
    """curand_uniform: x * 2^-32 + 2^-33 in one float fma, rounded once (exactly, from a rational)."""
    exact = Fraction(f32(float(x))) * Fraction(INV32) + Fraction(INV32) / 2
    return struct.unpack("I", struct.pack("f", float(exact)))[0]


def box_muller(x: int, y: int) -> tuple[float, float]:
    u = struct.unpack("f", struct.pack("I", uniform_bits(x)))[0]
    v = f32(float(Fraction(f32(float(y))) * Fraction(INV32_2PI) + Fraction(INV32_2PI) / 2))
    s = math.sqrt(-2.0 * math.log(u))
    return math.sin(v) * s, math.cos(v) * s


@pytest.fixture(scope="module")
def kat(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[list[str]]]:
    need_gxx()
    source = HERE / "kat.cu"
    built = build(source, source.read_text(), tmp_path_factory.mktemp("curand-kat") / "kat")
    assert built.ok, built.log
    result = proc.run([built.exe], timeout=RUN_TIMEOUT_S)
    assert result.ok, result.text()
    lines: dict[str, list[list[str]]] = {}
    for line in result.stdout.decode().splitlines():
        head, _, rest = line.partition(" ")
        lines.setdefault(head, []).append(rest.replace(":", "").split())
    return lines


def test_philox4x32_10_gives_random123s_known_answers(kat: dict[str, list[list[str]]]) -> None:
    assert [[int(w, 16) for w in row] for row in kat["philox"]] == [list(out) for _, _, out in RANDOM123_KAT]
    assert all(philox(c, k) == out for c, k, out in RANDOM123_KAT)  # the reference itself, on the paper's answers


def test_each_generator_draws_from_its_seed_subsequence_and_offset(kat: dict[str, list[list[str]]]) -> None:
    xorwow = Xorwow()
    for name, reference in (("xorwow", xorwow.draws), ("mrg32k3a", mrg_draws), ("philox4", philox_draws)):
        assert len(kat[name]) == 6
        for row in kat[name]:
            seed, subsequence, offset = map(int, row[:3])
            assert list(map(int, row[3:])) == reference(seed, subsequence, offset, 6), (name, row[:3])
    # the salt-free seed starts from Marsaglia's own state (x, y, z, w, v, d of the paper): his first output
    t = 123456789 ^ (123456789 >> 2)
    first = (6615241 + 362437 + ((5783321 ^ (5783321 << 4) ^ t ^ (t << 1)) & M32)) & M32
    assert kat["xorwow"][0][:4] == [str(0xF7DCEFDDAAD26B49), "0", "0", str(first)]


def test_uniform_and_box_muller_transforms_are_curands(kat: dict[str, list[list[str]]]) -> None:
    for a, b, bits, normal, second in kat["transform"]:
        assert int(bits, 16) == uniform_bits(int(a))
        expected = box_muller(int(a), int(b))
        assert float(normal) == pytest.approx(expected[0], rel=2e-6, abs=2e-6)
        assert float(second) == pytest.approx(expected[1], rel=2e-6, abs=2e-6)


def test_skipahead_and_the_host_apis_legacy_ordering(kat: dict[str, list[list[str]]]) -> None:
    (walked, jumped), = kat["skipahead"]
    assert walked == jumped
    xorwow = Xorwow()
    (host_xorwow,) = kat["host"][:1]
    assert host_xorwow[0] == "xorwow"
    # result n: draw n // 4096 of subsequence n % 4096
    expected = [xorwow.draws(2024, n % 4096, n // 4096, 1)[0] for n in (0, 1, 4095, 4096, 8199)]
    assert list(map(int, host_xorwow[1:])) == expected
    host_philox = kat["host"][1]
    assert host_philox[0] == "philox"
    values = []
    for n in (0, 1, 2, 4095, 8199):
        block = (n + 6) // 4  # offset 6
        values.append(philox((block // 4096, 0, block % 4096, 0), (2024, 0))[(n + 6) % 4])
    assert list(map(int, host_philox[1:])) == values
    assert kat["odd"] == [["normal", "count", "105"]]  # CURAND_STATUS_LENGTH_NOT_MULTIPLE


def _curand_include() -> Path:
    """Where nvcc finds cuRAND's headers for the original: the setup step every nvcc compile reads."""
    found = cudalibs.include_dir()
    if found is None:
        pytest.fail("the CUDA library headers are not fetched: run cass-lsp setup --only cuda-libs")
    return found


def test_a_monte_carlo_program_on_both_curand_apis_verifies_against_its_rule_translation() -> None:
    # ROCm 5.2: Debian's hipRAND headers are ROCm 5.2's and do not build against HIP 7.1's
    argv = [sys.executable, "-m", "cass_lsp", "verify", "--rocm", "5.2", str(PROGRAM), "--runner", "cpu",
            f"--nvcc-arg=-I{_curand_include()}", *(f"--arg={a}" for a in ARGS), "--json", "--no-cache"]
    result = proc.run(argv, timeout=900.0)
    reports = json.loads(result.stdout) if result.stdout.strip() else []
    assert result.returncode == 0, result.stderr.decode() + json.dumps(reports, indent=1)
    (report,) = reports
    assert {Path(u["original"]).name for u in report["program"]["units"]} == {"mc_main.cu", "mc_kernels.cu"}
    run = next(s for s in report["stages"] if s["name"] == "run")
    assert report["verdict"] == "passed" and run["outcome"] == "passed", report["summary"]
    assert "original and translation agree" in run["message"] and "24 line(s) of output" in run["message"], run


def _run_on_cpu(folder: Path, libraries: str = "hip") -> StageResult:
    resolved = resolve_cli(target={"arch": "gfx1100", "rocm": "5.2"}, translate={"libraries": libraries},
                           verification={"run": True, "runner": "cpu", "args": list(ARGS),
                                         "limits": {"timeoutSeconds": 60}})
    inputs = engine.read_inputs(pairs.Pair(str(folder / "mc_main.cu"), None), {}, resolved)
    try:
        [plan] = run_stage.plan_runs(inputs, resolved, "cpu")
    except ValueError as error:
        return StageResult("run", "cpu", "unavailable", str(error))
    return run_stage.run_programs(plan)


def _copy_with(tmp_path: Path, unit: str, old: str, new: str) -> Path:
    folder = tmp_path / "monte_carlo"
    shutil.copytree(PROGRAM, folder)
    text = (folder / unit).read_text()
    assert old in text
    (folder / unit).write_text(text.replace(old, new))
    return folder


def test_a_translation_drawing_from_the_wrong_subsequence_fails(tmp_path: Path) -> None:
    folder = tmp_path / "monte_carlo"
    shutil.copytree(PROGRAM, folder)
    hip = folder / "mc_kernels.hip"
    translated = proc.run([sys.executable, "-m", "cass_lsp", "translate", "--rocm", "5.2", str(folder / "mc_kernels.cu"),
                           "-o", str(hip)], timeout=120.0)
    assert translated.ok, translated.text()
    text = hip.read_text()
    assert "hiprand_init(seed, id, 0, &states[id]);" in text
    hip.write_text(text.replace("hiprand_init(seed, id, 0, &states[id]);", "hiprand_init(seed, id + 1, 0, &states[id]);"))
    result = _run_on_cpu(folder)
    assert result.outcome == "failed", result.message
    assert "differs" in result.message, result.message


def test_the_rocrand_rule_translation_runs_and_agrees() -> None:
    result = _run_on_cpu(PROGRAM, libraries="roc")  # rocrand_init, rocrand_generate_normal, ... (translate --roc)
    assert result.outcome == "passed", result.message
    assert "original and translation agree" in result.message


def test_a_curand_call_the_runtime_lacks_is_could_not_verify_by_name(tmp_path: Path) -> None:
    folder = _copy_with(tmp_path, "mc_kernels.cu", "inside += (x * x + y * y <= 1.0f);",
                        "inside += (x * x + y * y <= 1.0f) + 0 * curand_poisson(&local, 2.0);")
    result = _run_on_cpu(folder)
    assert result.outcome == "unavailable", result.message
    assert "cannot run on CPU: library: cuRAND" in result.message and "curand_poisson" in result.message, result.message
