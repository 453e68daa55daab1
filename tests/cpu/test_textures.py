"""Texture objects on the CPU runner: an image program (tests/cpu/textures: two units and a header)
whose rule translation verifies, a mutant translation (border instead of clamp addressing) that
fails, and the values it samples checked against the CUDA programming guide's texture-fetching
formulas computed here (bilinear weights in 9-bit fixed point, 1/256 steps)."""

from __future__ import annotations

import itertools
import json
import math
import shutil
import struct
import sys
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from cass_lsp.core import pairs, proc
from cass_lsp.cpu import build, build_program, prepare_source
from cass_lsp.services.settings import resolve_cli
from cass_lsp.verify import engine
from cass_lsp.verify import run as run_stage
from tests.cpu.conftest import RUN_TIMEOUT_S, build_and_run, need_gxx

PROGRAM = Path(__file__).parent / "textures"
MODES = Path(__file__).parent / "kernels" / "texture_modes.cu"
ARGS = ("96", "64", "160", "120")  # source width, height; resampled width, height
_TIMEOUT_S = 900.0


def _verify(*args: str | Path) -> tuple[int, list[dict[str, Any]], str]:
    argv = [sys.executable, "-m", "cass_lsp", "verify", "--rocm", "7.1", *map(str, args), "--runner", "cpu",
            *(f"--arg={a}" for a in ARGS), "--json"]
    result = proc.run(argv, timeout=_TIMEOUT_S)
    reports = json.loads(result.stdout) if result.stdout.strip() else []
    return result.returncode, reports, result.stderr.decode()


def _run_stage(report: dict[str, Any]) -> dict[str, Any]:
    return next(s for s in report["stages"] if s["name"] == "run")


def f32(x: float) -> float:
    return struct.unpack("f", struct.pack("f", x))[0]


def image_value(x: int, y: int) -> float:
    return ((x * 7 + y * 13) % 17) / 16.0


def guide_fetch(texel: Callable[..., float], at: Sequence[float], sizes: Sequence[int], *, mode: str = "clamp",
                linear: bool = True, normalized: bool = False, border: float = 0.0, quantized: bool = True) -> float:
    """A fetch per the programming guide: x scaled by N when normalized; point sampling at floor(x);
    linear filtering at x_B = x - 0.5 with i = floor(x_B) and alpha = frac(x_B) in 8 fractional
    bits; the address mode applied to each texel index (wrap and mirror with normalized
    coordinates only), a border texel reading ``border``."""

    def index(i: int, n: int) -> int | None:
        if mode == "wrap" and normalized:
            return i % n
        if mode == "mirror" and normalized:
            m = i % (2 * n)
            return m if m < n else 2 * n - 1 - m
        if mode == "border":
            return i if 0 <= i < n else None
        return min(max(i, 0), n - 1)

    def value(idx: Sequence[int]) -> float:
        where = [index(i, n) for i, n in zip(idx, sizes, strict=True)]
        return border if None in where else texel(*where)

    scaled = [f32(x * n) if normalized else x for x, n in zip(at, sizes, strict=True)]
    if not linear:
        return value([math.floor(x) for x in scaled])
    lower, alpha = [], []
    for x in scaled:
        xb = f32(x - 0.5)
        lower.append(math.floor(xb))
        frac = f32(xb - math.floor(xb))
        alpha.append(round(frac * 256) / 256 if quantized else frac)
    total = 0.0
    for corner in itertools.product((0, 1), repeat=len(at)):
        weight = math.prod(a if up else 1 - a for a, up in zip(alpha, corner, strict=True))
        total += weight * value([i + up for i, up in zip(lower, corner, strict=True)])
    return total


def guide_bilinear(u: float, v: float, width: int, height: int, *, quantized: bool = True) -> float:
    """The image program's tex2D: normalized (u, v), linear filtering, clamp addressing."""
    return guide_fetch(image_value, (u, v), (width, height), normalized=True, quantized=quantized)


def resample_coordinate(x: int, n: int) -> float:  # the kernel's u (or v), in float as it computes it
    return f32(f32(f32(f32(x + 0.5) / n) * 1.25) - 0.125)


@pytest.fixture(scope="module")
def printed(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[str]]:
    """The original built on the CPU runtime and run: its printed lines by their first word."""
    need_gxx()
    out = tmp_path_factory.mktemp("textures")
    for source in PROGRAM.iterdir():
        text = source.read_text()
        (out / source.name).write_text(prepare_source(text) if source.suffix == ".cu" else text)
    built = build_program([out / "image_main.cu", out / "resample.cu"], out / "image", hip=False)
    assert built.ok, built.log
    result = proc.run([built.exe, *ARGS], timeout=RUN_TIMEOUT_S)
    assert result.ok, result.text()
    lines: dict[str, list[str]] = {}
    for line in result.stdout.decode().splitlines():
        word, *rest = line.split()
        lines.setdefault(word, []).append(" ".join(rest))
    return lines


def test_bilinear_samples_follow_the_guides_fixed_point_weights(printed: dict[str, list[str]]) -> None:
    width, height, ow, oh = map(int, ARGS)
    samples = [tuple(line.split()) for line in printed["sample"]]
    assert len(samples) == 6
    weights_matter = False
    for x, y, value in samples:
        u, v = resample_coordinate(int(x), ow), resample_coordinate(int(y), oh)
        expected = guide_bilinear(u, v, width, height)
        assert float(value) == pytest.approx(expected, abs=2e-6), (x, y)
        weights_matter |= abs(guide_bilinear(u, v, width, height, quantized=False) - expected) > 1e-4
    assert weights_matter  # the 1/256 steps show in these samples: exact weights would differ
    # the corners lie outside [0, 1): clamped to the edge texels
    assert float(samples[0][2]) == pytest.approx(image_value(0, 0), abs=1e-6)
    assert float(samples[-1][2]) == pytest.approx(image_value(width - 1, height - 1), abs=1e-6)


def test_linear_memory_fetches_and_normalized_rgba8_reads(printed: dict[str, list[str]]) -> None:
    width, height, ow, oh = map(int, ARGS)
    n = ow * oh
    [difference] = printed["difference"]
    i, value = difference.split()

    def resampled(k: int) -> float:
        return guide_bilinear(resample_coordinate(k % ow, ow), resample_coordinate(k // ow, oh), width, height)

    assert int(i) == n // 3
    assert float(value) == pytest.approx(2 * resampled(n // 3) - resampled(n - 1 - n // 3), abs=5e-6)
    [rgba] = printed["rgba"]
    texel, *channels = rgba.split()
    k = int(texel)
    assert [float(c) for c in channels] == pytest.approx(
        [(k % 256) / 255, (k * 3 % 256) / 255, (255 - k % 256) / 255, (k * 7 % 256) / 255], abs=1e-7)


def test_the_rule_translation_verifies_and_a_wrong_address_mode_fails(tmp_path: Path) -> None:
    cuda, hip = tmp_path / "cuda", tmp_path / "hip"
    shutil.copytree(PROGRAM, cuda)
    translated = proc.run([sys.executable, "-m", "cass_lsp", "translate", str(cuda), "--out-dir", str(hip)], timeout=300)
    assert translated.ok, translated.text()
    main = hip / "image_main.hip"
    clamped = "desc.addressMode[0] = hipAddressModeClamp;"
    assert clamped in main.read_text()
    main.write_text(main.read_text().replace(clamped, "desc.addressMode[0] = hipAddressModeBorder;"))
    with ThreadPoolExecutor(2) as pool:  # the two verifications at once: each compiles one unit at a time
        rule = pool.submit(_verify, PROGRAM)
        mutant = pool.submit(_verify, cuda / "image_main.cu", "--pattern", "../hip/{stem}.hip")
        (code, reports, stderr), (mutant_code, mutant_reports, mutant_stderr) = rule.result(), mutant.result()
    [report] = reports
    assert code == 0 and report["verdict"] == "passed", stderr + json.dumps(reports, indent=1)
    assert "original and translation agree" in _run_stage(report)["message"]

    code, reports, stderr = mutant_code, mutant_reports, mutant_stderr
    report = next(r for r in reports if r["program"]["main"].endswith("image_main.cu"))
    assert code == 1 and report["verdict"] == "failed", stderr + json.dumps(reports, indent=1)
    run = _run_stage(report)
    assert run["outcome"] == "failed" and "differs" in run["message"], run["message"]


@pytest.fixture(scope="module")
def modes(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[str]]:
    """kernels/texture_modes.cu built on the CPU runtime and run: its printed values by name."""
    need_gxx()
    built = build(MODES, MODES.read_text(), tmp_path_factory.mktemp("texture-modes") / "modes")
    assert built.ok, built.log
    result = proc.run([built.exe], timeout=RUN_TIMEOUT_S)
    assert result.ok, result.text()
    return {name: values for name, *values in (line.split() for line in result.stdout.decode().splitlines())}


def test_each_address_mode_point_and_linear_at_normalized_coordinates(modes: dict[str, list[str]]) -> None:
    us = [f32(u) for u in (-0.3, 0.05, 0.1, 0.6, 1.2, 1.7, 2.6)]
    v = f32(1.5 / 3)

    def texel(x: int, y: int) -> float:
        return x + 10.0 * y

    for filtering in ("point", "linear"):
        for mode in ("wrap", "clamp", "mirror", "border"):
            expected = [guide_fetch(texel, (u, v), (4, 3), mode=mode, linear=filtering == "linear", normalized=True,
                                    border=0.5) for u in us]
            got = [float(x) for x in modes[f"{filtering}-{mode}"]]
            assert got == pytest.approx(expected, abs=2e-6), (filtering, mode)
    # wrap blends the last texel with the first: 13 - 3 * 179/256 at u = 0.05
    assert float(modes["linear-wrap"][1]) == pytest.approx(13 - 3 * 179 / 256, abs=1e-6)


def test_volume_layers_snorm_1d_pitched_ints_and_surfaces(modes: dict[str, list[str]]) -> None:
    def volume(x: int, y: int, z: int) -> float:
        return x + 3.0 * y + 9.0 * z

    assert float(modes["tex3D"][0]) == pytest.approx(guide_fetch(volume, (1.25, 0.75, 0.6), (3, 3, 2)), abs=1e-6)
    assert [float(x) for x in modes["snorm"]] == pytest.approx([-1.0, 16384 / 32767], abs=1e-7)
    assert float(modes["layered"][0]) == 200 + 2  # layer 2, texel (0, 1)
    assert float(modes["tex1D"][0]) == pytest.approx(guide_fetch(lambda x: float(x * x), (2.3,), (5,)), abs=1e-6)
    # pitched ints at (2, 1) and clamped to (3, 0); a surface write and reads (trap-free modes)
    assert [int(x) for x in modes["ints"]] == [102, 3, 306, 200, 0, 306]


def test_a_fetch_the_runtime_does_not_execute_is_could_not_verify_naming_it(tmp_path: Path) -> None:
    program = tmp_path / "mip_sample.cu"
    program.write_text(MODES.read_text().replace("tex2DLayered<float>(layered, 0.5f, 1.5f, 2)",
                                                 "tex2DLod<float>(layered, 0.5f, 1.5f, 2.0f)"))
    resolved = resolve_cli(target={"arch": "gfx1100", "rocm": "7.1"}, verification={"run": True, "runner": "cpu"})
    inputs = engine.read_inputs(pairs.Pair(str(program), None), {}, resolved)
    [plan] = run_stage.plan_runs(inputs, resolved, "cpu")
    result = run_stage.run_programs(plan)
    assert result.outcome == "unavailable", result.message
    assert "cannot run on CPU: textures" in result.message and "tex2DLod" in result.message, result.message


WIDE_TEXELS = r"""
#include <cstdio>
__global__ void fetch(cudaTextureObject_t lin2, cudaTextureObject_t ints, cudaTextureObject_t bytes, float* out) {
  const float at[4][2] = {{0.3f, 0.7f}, {2.9f, 1.6f}, {-0.4f, 0.2f}, {3.7f, 2.4f}};  // inside, at and past edges
  for (int i = 0; i < 4; ++i) {
    float2 f = tex2D<float2>(lin2, at[i][0], at[i][1]);
    out[2 * i] = f.x;
    out[2 * i + 1] = f.y;
  }
  int2 a = tex1Dfetch<int2>(ints, 2), b = tex1Dfetch<int2>(ints, 5);  // 5: out of range, zero
  out[8] = a.x; out[9] = a.y; out[10] = b.x; out[11] = b.y;
  uchar4 c = tex2D<uchar4>(bytes, -0.1f, 0.6f);  // normalized wrap: texel (3, 1) of 4 x 2
  out[12] = c.x; out[13] = c.y; out[14] = c.z; out[15] = c.w;
}
int main() {
  const int w = 3, h = 2;
  float2 img[w * h];
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) img[y * w + x] = make_float2(x + 10.0f * y, -1.0f - x * y);
  cudaChannelFormatDesc d2 = cudaCreateChannelDesc<float2>();
  cudaArray_t arr;
  cudaMallocArray(&arr, &d2, w, h);
  cudaMemcpy2DToArray(arr, 0, 0, img, w * sizeof(float2), w * sizeof(float2), h, cudaMemcpyHostToDevice);
  cudaResourceDesc r = {};
  r.resType = cudaResourceTypeArray;
  r.res.array.array = arr;
  cudaTextureDesc t = {};
  t.addressMode[0] = t.addressMode[1] = cudaAddressModeBorder;
  t.borderColor[0] = 0.5f;
  t.borderColor[1] = -2.0f;
  t.filterMode = cudaFilterModeLinear;
  t.readMode = cudaReadModeElementType;
  cudaTextureObject_t lin2, ints, bytes;
  cudaCreateTextureObject(&lin2, &r, &t, nullptr);

  int2 host_ints[4] = {{1, -1}, {2, -2}, {30, -30}, {4, -4}};
  int2* d_ints;
  cudaMalloc(&d_ints, sizeof host_ints);
  cudaMemcpy(d_ints, host_ints, sizeof host_ints, cudaMemcpyHostToDevice);
  cudaResourceDesc lr = {};
  lr.resType = cudaResourceTypeLinear;
  lr.res.linear.devPtr = d_ints;
  lr.res.linear.desc = cudaCreateChannelDesc<int2>();
  lr.res.linear.sizeInBytes = sizeof host_ints;
  cudaTextureDesc lt = {};
  lt.readMode = cudaReadModeElementType;
  cudaCreateTextureObject(&ints, &lr, &lt, nullptr);

  uchar4 px[8];
  for (int i = 0; i < 8; ++i) px[i] = make_uchar4(i, 10 * i, 200 + i, 255 - i);
  cudaChannelFormatDesc d4 = cudaCreateChannelDesc<uchar4>();
  cudaArray_t arr4;
  cudaMallocArray(&arr4, &d4, 4, 2);
  cudaMemcpy2DToArray(arr4, 0, 0, px, 4 * sizeof(uchar4), 4 * sizeof(uchar4), 2, cudaMemcpyHostToDevice);
  cudaResourceDesc r4 = {};
  r4.resType = cudaResourceTypeArray;
  r4.res.array.array = arr4;
  cudaTextureDesc t4 = {};
  t4.addressMode[0] = t4.addressMode[1] = cudaAddressModeWrap;
  t4.normalizedCoords = 1;
  t4.readMode = cudaReadModeElementType;
  cudaCreateTextureObject(&bytes, &r4, &t4, nullptr);

  float* d_out;
  cudaMalloc(&d_out, 16 * sizeof(float));
  fetch<<<1, 1>>>(lin2, ints, bytes, d_out);
  float out[16];
  cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost);
  for (int i = 0; i < 16; ++i) printf("%.9g\n", out[i]);
  return 0;
}
"""


def test_wide_texels_read_whole_linear_float2_border_int2_fetch_and_uchar4_wrap(tmp_path: Path) -> None:
    """The fetches that copy a texel's bytes or read its floats at once (tex.hpp's fetch_bytes and
    fetch_floats) give the guide's values: two-channel linear filtering with a border colour of two
    channels, tex1Dfetch of an int2 in and out of range, a uchar4 point fetch wrapping a negative
    normalized coordinate."""
    need_gxx()
    built = build(tmp_path / "wide.cu", WIDE_TEXELS, tmp_path / "wide")
    assert built.ok, built.log
    result = proc.run([str(built.exe)], timeout=RUN_TIMEOUT_S)
    assert result.ok, result.text()
    got = [float(x) for x in result.stdout.decode().split()]
    at = [(0.3, 0.7), (2.9, 1.6), (-0.4, 0.2), (3.7, 2.4)]
    for i, (x, y) in enumerate(at):
        for c, (texel, border) in enumerate([(lambda i, j: i + 10.0 * j, 0.5), (lambda i, j: -1.0 - i * j, -2.0)]):
            want = guide_fetch(texel, (f32(x), f32(y)), (3, 2), mode="border", border=border)
            assert got[2 * i + c] == pytest.approx(want, abs=1e-5), (i, c)
    assert got[8:12] == [30.0, -30.0, 0.0, 0.0]
    assert got[12:16] == [7.0, 70.0, 207.0, 248.0]  # texel (3, 1) = index 7


CUBEMAP = r"""
#include <cstdio>
#include <cuda_runtime.h>
// Each texel of a layered cubemap read back through the direction that points at its centre
// (the CUDA programming guide's cubemap table read backwards), on every face of every layer.
__device__ float3 towards(int face, float u, float v) {
    switch (face) {
        case 0: return make_float3(1, -v, -u);
        case 1: return make_float3(-1, -v, u);
        case 2: return make_float3(u, 1, v);
        case 3: return make_float3(u, -1, -v);
        case 4: return make_float3(u, -v, 1);
        default: return make_float3(-u, -v, -1);
    }
}
__global__ void readBack(cudaTextureObject_t plain, cudaTextureObject_t layered, float* out, int w) {
    int x = threadIdx.x, y = threadIdx.y, face = blockIdx.x;
    float3 d = towards(face, (x + 0.5f) / w * 2 - 1, (y + 0.5f) / w * 2 - 1);
    out[(face * w + y) * w + x] = texCubemap<float>(plain, d.x, d.y, d.z);
    out[((6 + face) * w + y) * w + x] = texCubemapLayered<float>(layered, 2 * d.x, 2 * d.y, 2 * d.z, 1);
}
cudaTextureObject_t over(cudaArray_t a) {
    cudaResourceDesc r = {};
    r.resType = cudaResourceTypeArray;
    r.res.array.array = a;
    cudaTextureDesc t = {};
    t.normalizedCoords = 1;
    t.filterMode = cudaFilterModePoint;
    t.addressMode[0] = t.addressMode[1] = t.addressMode[2] = cudaAddressModeClamp;
    cudaTextureObject_t o;
    cudaCreateTextureObject(&o, &r, &t, nullptr);
    return o;
}
int main() {
    const int w = 4, texels = 6 * w * w;
    float host[2 * texels], got[2 * texels];
    for (int i = 0; i < 2 * texels; ++i) host[i] = 1000.0f * (i / texels) + i % texels;
    cudaChannelFormatDesc desc = cudaCreateChannelDesc<float>();
    cudaArray_t plain, layered;
    cudaMalloc3DArray(&plain, &desc, make_cudaExtent(w, w, 6), cudaArrayCubemap);
    cudaMalloc3DArray(&layered, &desc, make_cudaExtent(w, w, 12), cudaArrayCubemap | cudaArrayLayered);
    cudaMemcpy3DParms p = {};
    p.srcPtr = make_cudaPitchedPtr(host, w * sizeof(float), w, w);
    p.dstArray = plain;
    p.extent = make_cudaExtent(w, w, 6);
    p.kind = cudaMemcpyHostToDevice;
    cudaMemcpy3D(&p);
    p.dstArray = layered;
    p.extent = make_cudaExtent(w, w, 12);
    cudaMemcpy3D(&p);
    float* out;
    cudaMalloc(&out, sizeof got);
    readBack<<<6, dim3(w, w)>>>(over(plain), over(layered), out, w);
    cudaMemcpy(got, out, sizeof got, cudaMemcpyDeviceToHost);
    for (int i = 0; i < 2 * texels; ++i) printf("%g\n", got[i]);
    return 0;
}
"""


def test_a_cubemap_fetch_reads_the_face_and_texel_its_direction_points_at(tmp_path: Path) -> None:
    """cuda-samples' simpleCubemapTexture was "could not verify: cubemaps are not executed"."""
    need_gxx()
    source = tmp_path / "cubemap.cu"
    printed = build_and_run(source, prepare_source(CUBEMAP), tmp_path / "cubemap")
    texels = 6 * 4 * 4
    # plain: each face's texels in order; layered, layer 1: the second 96 values (1000 + i)
    expected = [f"{i}" for i in range(texels)] + [f"{1000 + i}" for i in range(texels)]
    assert printed.split() == expected
