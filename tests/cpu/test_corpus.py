"""The kernel corpus on the CPU runtime, each answer computed here independently of the runtime."""

from __future__ import annotations

import re

from cass_lsp.cpu import classify
from tests.cpu.conftest import Corpus


def _values(text: str) -> dict[str, str]:
    return dict(re.findall(r"([\w\[\]]+)=(\S+)", text))


def test_vector_add(corpus: Corpus) -> None:
    n = 100003
    c = [0.5 * i + 2.0 * (i % 1000) for i in range(n)]
    v = _values(corpus.stdout("vector_add.cu"))
    assert float(v["sum"]) == sum(c)
    assert float(v[f"c[{n - 1}]"]) == c[-1]


def test_shared_memory_tree_reduction(corpus: Corpus) -> None:
    n = 1 << 20
    v = _values(corpus.stdout("reduce_shared.cu"))
    assert int(v["total"]) == sum(i % 1000 for i in range(n))


def _block_sums(blocks: int, threads: int) -> list[int]:
    data = [(i * 37) % 101 - 50 for i in range(blocks * threads)]
    return [sum(data[b * threads : (b + 1) * threads]) for b in range(blocks)]


def test_warp_shuffle_reduction_32_and_64(corpus: Corpus) -> None:
    expected = "".join(f"block {b} sum {s}\n" for b, s in enumerate(_block_sums(8, 256)))
    for warp in (32, 64):
        out = corpus.stdout("warp_reduce.cu", warp)
        assert out == f"warpSize={warp}\n" + expected


def test_block_scan(corpus: Corpus) -> None:
    n = 5000
    prefix, running = [], 0
    for i in range(n):
        running += (i * 13) % 17 - 8
        prefix.append(running)
    v = _values(corpus.stdout("block_scan.cu"))
    for i in [*range(0, n, 499), n - 1]:
        assert int(v[f"scan[{i}]"]) == prefix[i]


def test_histogram_and_atomics(corpus: Corpus) -> None:
    out = corpus.stdout("histogram.cu")
    bins = [0] * 64
    for i in range(1 << 16):
        bins[((i * 7919) >> 3) % 256 % 64] += 1
    assert re.findall(r"bin (\d+) (\d+)", out) == [(str(b), str(c)) for b, c in enumerate(bins)]
    threads = range(8 * 128)
    xor = 0
    for t in threads:
        xor ^= t
    v = _values(out)
    assert int(v["imin"]) == min(1000 - t for t in threads)
    assert int(v["imax"]) == 3 * max(threads)
    assert int(v["umax"]) == 7 * max(threads)
    assert int(v["iand"]) == ~0xFF
    assert int(v["ior"]) == 0xFFFF
    assert int(v["ixor"]) == xor
    assert int(v["inc"]) == len(threads) % 100  # atomicInc wraps to 0 past 99
    assert float(v["fsum"]) == 0.5 * len(threads)
    assert float(v["dsum"]) == 0.25 * len(threads)
    assert int(v["ull"]) == len(threads) << 33
    assert v["cas"] == "1"
    assert int(v["lock"]) == len(threads) // 32  # one locked increment per warp leader


def _matmul_checksum(n: int) -> float:
    a = [float((i * 7) % 11) - 5.0 for i in range(n * n)]
    b = [float((i * 5) % 13) * 0.25 for i in range(n * n)]
    col_sums = [sum(a[i * n + k] for i in range(n)) for k in range(n)]
    row_sums = [sum(b[k * n + j] for j in range(n)) for k in range(n)]
    return sum(c * r for c, r in zip(col_sums, row_sums, strict=True))


def test_tiled_matmul(corpus: Corpus) -> None:
    v = _values(corpus.stdout("matmul_tiled.cu", args=["100"]))
    assert float(v["checksum"]) == _matmul_checksum(100)
    assert float(v["max_err"]) == 0.0


def test_stencil_with_halo(corpus: Corpus) -> None:
    n, radius = 1000, 3
    data = [(i * 31) % 23 - 11 for i in range(n)]

    def at(i: int) -> int:
        return data[i] if 0 <= i < n else 0

    out = [sum((o + radius + 1) * at(i + o) for o in range(-radius, radius + 1)) for i in range(n)]
    v = _values(corpus.stdout("stencil.cu"))
    for i in (0, 127, 128, 999):
        assert int(v[f"out[{i}]"]) == out[i]
    assert int(v["weighted"]) == sum(x * (i % 5 + 1) for i, x in enumerate(out))


def test_dynamic_shared_memory(corpus: Corpus) -> None:
    blocks, threads = 4, 96
    reversed_ = [float(b * threads + threads - 1 - t) for b in range(blocks) for t in range(threads)]
    ints = [i * 3 % 17 for i in range(blocks * threads)]
    pairs = [ints[b * threads + (t + 1) % threads] + 2 * ints[b * threads + t] for b in range(blocks) for t in range(threads)]
    v = _values(corpus.stdout("dynamic_shared.cu"))
    for i in (0, 95, 96, 383):
        assert float(v[f"out[{i}]"]) == reversed_[i]
    assert int(v["pair_weighted"]) == sum(p * (i + 1) for i, p in enumerate(pairs))


def test_constant_and_device_symbols(corpus: Corpus) -> None:
    c, scale = (1.0, -2.0, 0.5, 0.25), 3
    v = _values(corpus.stdout("constant_mem.cu"))
    assert int(v["evaluated"]) == 300
    for i in (0, 150, 299):
        x = (i - 150) * 0.02
        assert abs(float(v[f"y[{i}]"]) - scale * (((c[3] * x + c[2]) * x + c[1]) * x + c[0])) < 1e-3


def test_device_printf(corpus: Corpus) -> None:
    lines = corpus.stdout("printf_kernel.cu").splitlines()
    assert lines[-1] == "done"
    expected = {f"block {b} thread {t} tag 7" for b in range(3) for t in range(0, 64, 16)}
    assert sorted(lines[:-1]) == sorted(expected)


def test_intrinsics_math_half_and_api(corpus: Corpus) -> None:
    v = _values(corpus.stdout("intrinsics.cu"))
    expected = {
        "popc": "8", "clz": "11", "clz0": "32", "ffs": "5", "brev": "80000000", "byte_perm": "44332211",
        "umulhi": "3", "syncount": str(len([t for t in range(64) if t % 3 == 0])), "syncand": "1", "syncor": "1",
        "any": "1", "all": "1", "ballot_popc": "16", "lane_of_31": "31", "expf": "2.71828", "rsqrt": "0.2500",
        "fdiv": "0.1250", "fma": "6.50", "sat": "1.00", "half_bits": "3e00", "half_back": "3.1406",
        "half_sum": "1.7500", "f4sum": "10.50", "minmax": "5.50", "align_float4": "16", "align_double2": "16",
        "sizeof_float3": "12", "prop_warp": "32", "prop_max_threads": "1024", "launch_ok": "cudaSuccess",
        "launch_too_big": "cudaErrorInvalidConfiguration", "after_reset": "cudaSuccess",
    }  # fmt: skip
    assert {k: v.get(k) for k in expected} == expected


def test_divergent_barrier_is_reported_not_hung(corpus: Corpus) -> None:
    result = corpus.run("divergent_barrier.cu")
    outcome = classify(result)
    assert outcome.kind == "deadlock", result.text()
    assert "half_barrier" in outcome.detail and "__syncthreads" in outcome.detail
    assert result.duration < 10
    assert b"finished" not in result.stdout


def test_barrier_against_warp_collective_is_reported(corpus: Corpus) -> None:
    outcome = classify(corpus.run("mixed_collectives.cu"))
    assert outcome.kind == "deadlock"
    assert "no thread can make progress" in outcome.detail
