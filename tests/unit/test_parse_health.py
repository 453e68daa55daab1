"""Real CUDA constructs read as nvcc reads them: the macro-aware pre-pass (cass_lsp.syntax.prepass).

Each construct class gets its own example: bare tree-sitter-cuda misreads it (so the test fails
without the pre-pass), ``syntax.parse_source`` reads it without an error or missing node, and one
program holding all of them translates to HIP that clang-19 compiles (tests/toolchain/test_parse_health.py).
"""

from __future__ import annotations

import pytest

from cass_lsp.syntax import parsing as syntax
from cass_lsp.syntax import prepass
from cass_lsp.syntax.document import CudaDocument, TextChange
from cass_lsp.translate import TargetProfile, translate

P52 = TargetProfile("gfx1100", "5.2")

ATTRIBUTE_MACRO = """#define VEC_INLINE __forceinline__
#define VEC_SPACE __host__ __device__
VEC_INLINE static __device__ void widen(const float* const __restrict src, double* dst) { *dst = *src; }
constexpr VEC_INLINE int lanes() { return 4; }
struct Acc {
    VEC_SPACE
    Acc() {}
    VEC_SPACE
    void operator()(float v) { sum += v; }
    float sum = 0;
};
"""
STATEMENT_MACRO = """#define GUARD(call) { cudaError_t g_ = (call); if (g_ != cudaSuccess) return 1; }
int upload(float* d, const float* h, int n) {
    GUARD( cudaMemcpy(d, h,
        n * sizeof(float), cudaMemcpyHostToDevice) )
    GUARD( cudaMemcpy(d + n, h,
        n * sizeof(float), cudaMemcpyHostToDevice) )
    GUARD( cudaDeviceSynchronize() )
    return 0;
}
"""
LIBRARY_SPELLINGS = """struct Gemm {
  CUTLASS_HOST_DEVICE
  Gemm() { }
  CUTLASS_DEVICE
  void operator()(int k) {
    CUTLASS_PRAGMA_UNROLL
    for (int i = 0; i < k; ++i) { }
  }
};
void CUDART_CB done(cudaStream_t stream, cudaError_t status, void* data);
"""
EXTENDED_LAMBDA = """void run(int* out) {
    auto op = [] __device__ (unsigned a, unsigned b) { return a + b; };
    auto both = [=] __host__ __device__ (int v) -> int { return v * 2; };
}
"""
DEPENDENT_NAMES = """template <typename Kernel>
typename Kernel::Arguments make_args(int n) {
    auto layout = typename Kernel::Layout{};
    return typename Kernel::Arguments(n, layout);
}
template class Holder<float>;
"""
ALIGNED = """struct Slot { int v; };
__global__ void k() {
    __shared__ unsigned char __align__(8) raw[64];
}
"""
SPLIT_BRANCHES = """int pick(int a) {
#if defined(FAST_PATH)
    if (a > 0) {
#else
    if (a >= 0) {
#endif
        return 1;
    }
#ifdef TRACE
    if (a == 7) { return 7; } else
#endif
    { return 0; }
}
__global__ void edge(const float* in,
#ifndef FIXED_WIDTH
                     int width,
#endif
                     float* out) { out[0] = in[0]; }
"""
HEADER_MACROS = """#define DECLARE_CASE(T) template __global__ void fill<T>(T*, int)
template <typename T> __global__ void fill(T* p, int n) { p[0] = T(n); }
DECLARE_CASE(float)
extern DECLARE_CASE(int);
suite_type_def(suite_name, suffix)

void host_only() {
    HIP_CHECK(hipDeviceSynchronize())
    // the next call
    HIP_CHECK(hipGetLastError())
    if (typeid(float) == typeid(double)) { return; }
}
"""
CONSTRUCTS = {
    "attribute-like macros in declarations, __restrict": ATTRIBUTE_MACRO,
    "statement macros without a semicolon, one after another": STATEMENT_MACRO,
    "library attribute and pragma spellings": LIBRARY_SPELLINGS,
    "extended lambdas": EXTENDED_LAMBDA,
    "typename in expressions, explicit instantiation": DEPENDENT_NAMES,
    "__align__ in declarations": ALIGNED,
    "#if/#else branches that split a statement or a parameter list": SPLIT_BRANCHES,
    "statement macros made of statement macros": (
        "#define ONE(x) if ((x) > 2) { return; }\n#define BOTH(x) ONE(x) ONE((x) + 1)\n"
        "void f(int a) {\n    BOTH(a)\n    BOTH(a + 2)\n    a = 0;\n}\n"),
    "declaration macros, header macros at file scope, statement macros before a comment, typeid": HEADER_MACROS,
    # both from a real Jacobi solver: a profiler range macro that is a block under USE_NVTX, empty without it
    "a statement macro defined as a block in one #ifdef branch and empty in the other": (
        "#ifdef USE_NVTX\n#define PUSH_RANGE(name, cid) \\\n    {                      \\\n"
        "        int color_id = cid;  \\\n        nvtxRangePushA(name); \\\n    }\n#define POP_RANGE nvtxRangePop();\n"
        "#else\n#define PUSH_RANGE(name, cid)\n#define POP_RANGE\n#endif\n"
        "void solve(int iters) {\n    PUSH_RANGE(\"Jacobi solve\", 0)\n\n    bool greater = true;\n"
        "    while (greater && iters-- > 0) { greater = iters > 2; }\n    POP_RANGE\n}\n"),
    "macros between and after string literals": (
        '#define STR_(x) #x\n#define STR(x) STR_(x)\n#define PTX_relaxed_gpu ".relaxed.gpu"\n'
        'static_assert(MIN_ARCH >= 7, "MIN_ARCH=" STR(MIN_ARCH) "0 must bound " STR(__CUDA_ARCH__) ".");\n'
        "__device__ unsigned long long ld(const unsigned long long* p) {\n"
        '    unsigned long long v;\n    asm volatile("ld." PTX_relaxed_gpu ".global.u64 %0, [%1];" : "=l"(v) : "l"(p));\n'
        '    return v;\n}\nvoid show(long n) { printf("%" PRId64 " items\\n", n); printf("%" PRIu64, n); }\n'),
    "braced launch dimensions": (
        "template <int BX, int BY> __global__ void jacobi(float* a, int nx);\n"
        "void step(float* a, int nx, dim3 grid, cudaStream_t s) {\n"
        "    jacobi<32, 8>\n            <<<grid, {32, 8, 1}, 0, s>>>(\n                a, nx);\n}\n"),
}
# Constructs bare tree-sitter-cuda already reads (kept here so they stay that way).
ALREADY_READ = {
    "nested template arguments closing with >>> in host code": (
        "template <typename T> void keep() {\n"
        "    std::shared_ptr<std::vector<std::vector<T>>> p = nullptr;\n}\n"),
    "function-like macro with a block argument and a lambda": (
        "void reg() {\n    REGISTER_X(params, a, b, { if constexpr (sizeof(T) == 4) { x = 1; } return x; });\n"
        "    FOR_ALL([&](int i) { y[i] = 0; });\n}\n"),
    "if constexpr and fold expressions in device code": (
        "template <int N, class... T> __device__ int sum(T... v) {\n"
        "    if constexpr (N > 2) { return (v + ... + 0); } else { return (... + v); }\n}\n"),
    "literals after extern, operator and a literal suffix": (
        'extern "C" int c_api(void);\nlong operator"" _kb(unsigned long long v) { return v; }\n'
        'auto s = std::string("abc") + "de";\n'),
    "integer-constant macros in expressions": (
        "__device__ unsigned mix(unsigned a) { return UINT32_C(0x6A09E667) + a; }\n"),
}


def problems(tree_text: bytes, tree: object) -> list[str]:
    import tree_sitter

    assert isinstance(tree, tree_sitter.Tree)
    found: list[str] = []
    stack = [tree.root_node]
    while stack:
        node = stack.pop()
        if node.type == "ERROR" or node.is_missing:
            found.append(f"{node.type} at {node.start_point}: {tree_text[node.start_byte:node.end_byte][:40]!r}")
        stack.extend(node.children)
    return found


@pytest.mark.parametrize("name", list(CONSTRUCTS))
def test_the_prepass_reads_what_bare_tree_sitter_misreads(name: str) -> None:
    source = CONSTRUCTS[name].encode()
    assert problems(source, syntax.parse(source)), "bare tree-sitter reads it already: the example shows nothing"
    assert problems(source, syntax.parse_source(source)) == []


@pytest.mark.parametrize("name", list(ALREADY_READ))
def test_constructs_the_grammar_reads_stay_read(name: str) -> None:
    source = ALREADY_READ[name].encode()
    assert problems(source, syntax.parse_source(source)) == []


def test_the_prepared_text_keeps_every_offset_and_line() -> None:
    source = "".join(CONSTRUCTS.values()).encode()
    prepared = prepass.prepare(source)
    assert len(prepared) == len(source) and prepared != source
    assert [i for i, b in enumerate(source) if b == 10] == [i for i, b in enumerate(prepared) if b == 10]


def test_names_that_are_not_macros_of_the_file_are_left_alone() -> None:
    # A numeric or expression macro is not an attribute: blanking it would break the expression.
    source = (b"#define LB 256\n#define TILE (8 * 4)\n__launch_bounds__(LB) __global__ void k(float* a) {\n"
              b"    for (int i = 0; i < TILE; ++i) a[i] = LB;\n}\n")
    assert prepass.prepare(source) == source


def test_typename_in_a_template_parameter_list_stays() -> None:
    source = (b"template <int M, class T,\n    typename std::enable_if<M == 5>::type* = nullptr>\n"
              b"__device__ void only5(T) {}\nvoid g() { auto x = typename Holder<int>::type{}; }\n")
    prepared = prepass.prepare(source)
    assert prepared.startswith(source[:source.index(b"std::")]) and b"    typename std::" in prepared
    assert b"auto x =          Holder<int>::type{}" in prepared


def test_branches_set_aside_are_the_else_branches() -> None:
    source = SPLIT_BRANCHES.encode()
    spans = prepass.set_aside(source)
    assert [source[s:e].strip() for s, e in spans] == [b"if (a >= 0) {"]


def test_names_in_a_set_aside_branch_are_translated_and_said() -> None:
    src = ("void sync_all(int a) {\n#if defined(USE_EVENTS)\n    if (a) { cudaEvent_t e; cudaEventCreate(&e);\n"
           "#else\n    if (a) { cudaDeviceSynchronize();\n#endif\n        cudaGetLastError();\n    }\n}\n")
    result = translate(src, P52)
    assert "hipEventCreate(&e)" in result.text and "hipDeviceSynchronize();" in result.text
    assert "cuda" not in result.text
    said = [f for f in result.findings if f.code == "parse-error"]
    assert [f.severity for f in said] == ["info"] and "the #if branch was read" in said[0].message
    assert "cudaDeviceSynchronize" in src[said[0].start_byte:said[0].end_byte]


def test_statement_macros_translate_every_call() -> None:
    result = translate(STATEMENT_MACRO, P52)
    assert "cuda" not in result.text, result.text
    assert result.text.count("hipMemcpy(") == 2 and "hipDeviceSynchronize()" in result.text
    assert [f for f in result.findings if f.code == "parse-error"] == []


def test_document_tree_follows_a_pre_pass_change_away_from_the_edit() -> None:
    # Renaming the #define stops the rewrite of its uses lines below: the incremental re-parse must
    # see those bytes change (the document tells the tree), not reuse the old subtree.
    text = ATTRIBUTE_MACRO
    doc = CudaDocument("file:///a.cu", text)
    assert doc.tree is not None and not doc.has_syntax_errors
    doc.apply_changes([TextChange(range=((0, 17), (0, 18)), text="X")])
    fresh = syntax.parse_source(doc.source)
    assert doc.tree is not None and str(doc.tree.root_node) == str(fresh.root_node)
    assert doc.has_syntax_errors
    doc.apply_changes([TextChange(range=((0, 17), (0, 18)), text="E")])
    assert not doc.has_syntax_errors and str(doc.tree.root_node) == str(syntax.parse_source(doc.source).root_node)


def test_document_re_prepares_only_the_edited_lines_and_matches_a_fresh_parse() -> None:
    # Letters typed into a use of an attribute macro, a statement macro's line, and a library
    # spelling the file did not hold before: each re-parse must equal the parse of the whole text.
    text = ATTRIBUTE_MACRO + STATEMENT_MACRO
    doc = CudaDocument("file:///b.cu", text)
    lines = text.split("\n")
    use = next(i for i, line in enumerate(lines) if line.startswith("constexpr VEC_INLINE"))
    guard = next(i for i, line in enumerate(lines) if line.startswith("    GUARD( cudaDeviceSynchronize"))
    edits = [((use, 20), "X"), ((use, 20), ""), ((guard, 4), "y"), ((guard, 4), ""),
             ((use, 0), "CUTE_DEVICE "), ((use + 1, 0), "z")]
    for (line, col), new in edits:
        end = (line, col + 1) if new == "" else (line, col)
        doc.apply_changes([TextChange(range=((line, col), end), text=new)])
        assert doc.tree is not None
        fresh = syntax.parse_source(doc.source)
        assert str(doc.tree.root_node) == str(fresh.root_node), (line, col, new)
    assert "CUTE_DEVICE constexpr" in doc.text
