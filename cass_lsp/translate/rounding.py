"""CUDA's directed-rounding intrinsics (``__fadd_rd``, ``__fmul_ru``, ``__dsqrt_rz``, ...) on HIP.

HIP declares the ``_rd``/``_ru``/``_rz`` forms only under ``OCML_BASIC_ROUNDED_OPERATIONS``, whose
``__ocml_*_rtn``/``_rtp``/``_rtz`` functions the device libraries no longer have, so a plain rename
does not compile. HIP's ``__frcp_rn``/``__drcp_rn`` and ``__fsqrt_rn`` are its approximate
reciprocal and square root, not the correctly rounded results CUDA's are. The translation calls
``cass_fadd_rd``, ... instead: compatibility helpers (``compat``) that take the round-to-nearest
result and move it one step where the exact result lies on the other side of it. The residual
that tells the side is exact: for float the operation is done in double (a product of floats is
exact there; a sum's error comes from Knuth's TwoSum; a quotient's and a square root's from an fma
remainder), for double the error-free transformations (TwoSum; ``fma(a, b, -r)``; the remainders).
A double product or quotient (or a dividend) near the subnormal range, where that residual could itself round,
is redone on the operands' mantissas (``frexp``), and a tiny square root on a scaled value.
Overflow rounds to the largest finite value where the mode says so, and an exact zero sum is -0
under ``_rd``, as IEEE 754 has it. ``tests/cpu/test_sample_gaps.py`` checks the bits against the
host's rounding modes. ``__fma_rd``/``_ru``/``_rz`` (double) and ``__frsqrt_rn`` stay unported.
"""

from __future__ import annotations

from typing import Protocol

import tree_sitter

from cass_lsp.translate import codes as fc
from cass_lsp.translate.context import RuleContext


class _HelperContext(RuleContext, Protocol):
    def need_helper(self, key: str, start: int) -> None: ...

HELPER = "directed-rounding"
GUARD = "CASS_DIRECTED_ROUNDING"
WHY = ("CUDA's directed-rounding arithmetic; HIP lacks the _rd/_ru/_rz forms and approximates __frcp_rn, "
       "__fsqrt_rn and __drcp_rn: the nearest result moved one step by the sign of the exact residual")
_MODES = {"rn": 0, "rd": 1, "ru": 2, "rz": 3}
# The float operations (f prefix) and double ones (d prefix) the helper defines, with their arity.
_FLOAT_OPS = {"fadd": 2, "fsub": 2, "fmul": 2, "fdiv": 2, "fsqrt": 1, "frcp": 1, "fmaf": 3}
_DOUBLE_OPS = {"dadd": 2, "dsub": 2, "dmul": 2, "ddiv": 2, "dsqrt": 1, "drcp": 1}
# HIP's round-to-nearest forms that are not correctly rounded (its rcp and native sqrt).
_APPROXIMATE_RN = ("frcp", "fsqrt", "drcp")
NAMES = frozenset({
    *(f"__{op}_{mode}" for op in (*_FLOAT_OPS, *_DOUBLE_OPS) for mode in ("rd", "ru", "rz")),
    *(f"__{op}_rn" for op in _APPROXIMATE_RN),
})

_CODE = r"""__host__ __device__ inline bool cass_finite(double x) { return x - x == 0; }
// mode 0 nearest, 1 down, 2 up, 3 toward zero: r, the nearest result, moved by e, the sign of exact - r
__host__ __device__ inline double cass_round_d(double r, double e, int mode) {
  if (mode == 1) return e < 0 ? nextafter(r, -__builtin_huge_val()) : r;
  if (mode == 2) return e > 0 ? nextafter(r, __builtin_huge_val()) : r;
  if (mode == 3) return (r > 0 && e < 0) || (r < 0 && e > 0) ? nextafter(r, 0.0) : r;
  return r;
}
// s: the double nearest the exact result (no tie between floats: the double has 53 bits), e: the
// sign of exact - s, which decides only where s is itself a float
__host__ __device__ inline float cass_round_f(double s, double e, int mode) {
  float f = (float)s;
  double d = s != (double)f ? s - (double)f : e;
  if (mode == 1) return d < 0 ? nextafterf(f, -__builtin_huge_valf()) : f;
  if (mode == 2) return d > 0 ? nextafterf(f, __builtin_huge_valf()) : f;
  if (mode == 3) return (f > 0 && d < 0) || (f < 0 && d > 0) ? nextafterf(f, 0.0f) : f;
  return f;
}
// Knuth's TwoSum: the exact error of s = a + b
__host__ __device__ inline double cass_two_sum_error(double a, double b, double s) {
  double bb = s - a;
  return (a - (s - bb)) + (b - bb);
}
// An exact zero sum is +0 in every mode but downward, where it is -0 unless both terms are +0
__host__ __device__ inline bool cass_negative_zero_sum(double a, double b, double s, double e, int mode) {
  return mode == 1 && s == 0 && e == 0 && (a != 0 || b != 0 || __builtin_signbit(a) || __builtin_signbit(b));
}
__host__ __device__ inline float cass_fadd_m(float a, float b, int mode) {
  double s = (double)a + (double)b, e = cass_two_sum_error(a, b, s);
  return cass_negative_zero_sum(a, b, s, e, mode) ? -0.0f : cass_round_f(s, e, mode);
}
__host__ __device__ inline float cass_fmul_m(float a, float b, int mode) { return cass_round_f((double)a * (double)b, 0, mode); }
__host__ __device__ inline float cass_fdiv_m(float a, float b, int mode) {
  double s = (double)a / (double)b, rem = __builtin_fma(-s, (double)b, (double)a);
  return cass_round_f(s, b > 0 ? rem : -rem, mode);
}
__host__ __device__ inline float cass_fsqrt_m(float a, int mode) {
  double s = sqrt((double)a);
  return cass_round_f(s, __builtin_fma(-s, s, (double)a), mode);
}
__host__ __device__ inline float cass_fmaf_m(float a, float b, float c, int mode) {
  double p = (double)a * (double)b, s = p + (double)c, e = cass_two_sum_error(p, c, s);
  return cass_negative_zero_sum(p, c, s, e, mode) ? -0.0f : cass_round_f(s, e, mode);
}
__host__ __device__ inline double cass_dadd_m(double a, double b, int mode) {
  double r = a + b, e = cass_finite(r) ? cass_two_sum_error(a, b, r) : (cass_finite(a) && cass_finite(b) ? -r : 0);
  return cass_negative_zero_sum(a, b, r, e, mode) ? -0.0 : cass_round_d(r, e, mode);
}
// A finite product below 2^-969, or a quotient below it or of a dividend below it (where the fma
// residual can itself round), is redone on the operands' mantissas: the exact result's scaled form
// against r scaled alike (both exact)
__host__ __device__ inline bool cass_tiny(double a, double b, double small) {
  return cass_finite(a) && cass_finite(b) && a != 0 && b != 0 && __builtin_fabs(small) < 0x1p-969;
}
__host__ __device__ inline double cass_dmul_m(double a, double b, int mode) {
  double r = a * b;
  if (!cass_tiny(a, b, r)) return cass_round_d(r, __builtin_fma(a, b, -r), mode);
  int ea, eb;
  double ma = frexp(a, &ea), mb = frexp(b, &eb), p = ma * mb;
  return cass_round_d(r, (p - ldexp(r, -(ea + eb))) + __builtin_fma(ma, mb, -p), mode);
}
__host__ __device__ inline double cass_ddiv_m(double a, double b, int mode) {
  double r = a / b;
  if (!cass_tiny(a, b, __builtin_fabs(r) < __builtin_fabs(a) ? r : a)) {
    double rem = __builtin_fma(-r, b, a);
    return cass_round_d(r, b > 0 ? rem : -rem, mode);
  }
  int ea, eb;
  double ma = frexp(a, &ea), mb = frexp(b, &eb), q = ma / mb, rem = __builtin_fma(-q, mb, ma);
  double above = q - ldexp(r, eb - ea);  // exact; where 0, the remainder tells the side
  return cass_round_d(r, above != 0 ? above : (mb > 0 ? rem : -rem), mode);
}
// below 2^-900 the square root is taken of the value scaled by 2^200 (exact), then scaled back
__host__ __device__ inline double cass_dsqrt_m(double a, int mode) {
  if (a > 0 && a < 0x1p-900) return ldexp(cass_dsqrt_m(ldexp(a, 200), mode), -100);
  double r = sqrt(a);
  return cass_round_d(r, __builtin_fma(-r, r, a), mode);
}
"""


def _wrappers() -> str:
    out: list[str] = []
    for mode, m in _MODES.items():
        for prefix, t, ops in (("f", "float", _FLOAT_OPS), ("d", "double", _DOUBLE_OPS)):
            for op, arity in ops.items():
                name = f"__{op}_{mode}"
                if name not in NAMES:
                    continue
                params = ", ".join(f"{t} {v}" for v in "abc"[:arity])
                if op.endswith("sub"):
                    body = f"cass_{prefix}add_m(a, -b, {m})"
                elif op.endswith("rcp"):
                    body = f"cass_{prefix}div_m(1, a, {m})"
                else:
                    body = f"cass_{op}_m({', '.join('abc'[:arity])}, {m})"
                out.append(f"__host__ __device__ inline {t} cass_{op}_{mode}({params}) {{ return {body}; }}\n")
    return "".join(out)


def code() -> str:
    return _CODE + _wrappers()


def helper_name(name: str) -> str:
    return "cass_" + name[2:]


def forward(p: _HelperContext, name: str, node: tree_sitter.Node) -> bool:
    """``__fadd_rd(a, b)`` -> ``cass_fadd_rd(a, b)`` (always handled)."""
    new = helper_name(name)
    p.edit(node.start_byte, node.end_byte, new, "compat")
    p.need_helper(HELPER, node.start_byte)
    what = ("HIP's is not correctly rounded" if name.endswith("_rn")
            else "HIP has no directed-rounding arithmetic that compiles")
    p.find(fc.UNSUPPORTED_API, "info", f"{name}: {what}; {new}, a compatibility helper this translation defines, "
           "rounds as CUDA's does", node.start_byte, node.end_byte, name=name, family="device")
    return True
